import type { ChartGrant } from './records.policy.js';

/** What every chart audit event carries about how the chart was reached. */
export function accessDetails(grant: ChartGrant): Record<string, unknown> {
  return grant.emergency === null
    ? { access: grant.access, emergency: false }
    : {
        access: grant.access,
        emergency: true,
        emergencyAccessId: grant.emergency.accessId,
        reason: grant.emergency.reason,
      };
}
