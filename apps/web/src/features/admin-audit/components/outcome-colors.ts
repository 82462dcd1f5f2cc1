import type { AuditOutcome } from '@telemedicina/shared/admin';

/** Badge colour of each outcome. */
export const outcomeColors: Record<AuditOutcome, string> = {
  success: 'teal',
  failure: 'orange',
  denied: 'red',
};
