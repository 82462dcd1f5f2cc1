import type { HealthResponse } from '@telemedicina/shared';
import type { HealthReport } from './health.service.js';

/** Shapes the public health answer; durations are rounded to keep it readable. */
export function presentHealth(report: HealthReport): HealthResponse {
  return {
    status: 'ok',
    version: report.version,
    uptimeSeconds: Math.round(report.uptimeSeconds * 1000) / 1000,
    database: {
      kind: report.database.kind,
      roundTripMs: Math.round(report.database.roundTripMs * 1000) / 1000,
      checkedAt: report.database.checkedAt.toISOString(),
    },
  };
}
