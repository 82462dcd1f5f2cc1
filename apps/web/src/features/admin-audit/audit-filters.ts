import { auditOutcomeSchema } from '@telemedicina/shared/admin';
import type { ListParams } from '../../lib/use-list-params';

/** The viewer's filters as kept in the address (free text unless a list of values is given). */
export const auditFilterSpec = {
  actor: null,
  action: null,
  targetType: null,
  targetId: null,
  outcome: auditOutcomeSchema.options,
  from: null,
  to: null,
} as const;

export type AuditListParams = ListParams<'at', typeof auditFilterSpec>;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` date from the address, or undefined when it is not one. */
export function readDate(value: string | undefined): string | undefined {
  return value !== undefined && isoDate.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined;
}
