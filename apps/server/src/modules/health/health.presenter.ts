import type { HealthResponse } from '@telemedicina/shared/api';
import type { DatabaseCheck } from './health.repository.js';
import type { HealthReport } from './health.service.js';

/** The database part of the answer, made once per round trip (each is reused for up to a second). */
const presentedChecks = new WeakMap<DatabaseCheck, HealthResponse['database']>();

/** Shapes the public health answer; durations are rounded to keep it readable. */
export function presentHealth(report: HealthReport): HealthResponse {
  let database = presentedChecks.get(report.database);
  if (database === undefined) {
    database = {
      kind: report.databaseKind,
      roundTripMs: round(report.database.roundTripMs),
      checkedAt: report.database.checkedAt.toISOString(),
    };
    presentedChecks.set(report.database, database);
  }
  return { status: 'ok', version: report.version, uptimeSeconds: round(report.uptimeSeconds), database };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
