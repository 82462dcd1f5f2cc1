import type { DatabaseKind } from '@telemedicina/shared/api';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import type { DatabaseCheck } from './health.repository.js';

export interface HealthContext {
  databaseKind: DatabaseKind;
  /** A recent round trip (fresh as of `at`, by default now): as it is, else a promise of a new one. */
  checkDatabase: (at?: Date) => DatabaseCheck | Promise<DatabaseCheck>;
  startedAt: Date;
  now: () => Date;
  version: string;
}

export interface HealthReport {
  version: string;
  uptimeSeconds: number;
  databaseKind: DatabaseKind;
  /** The round trip as measured (the same object while it is reused). */
  database: DatabaseCheck;
}

/**
 * Checks that the server can reach its database. Fails with 503
 * SERVICE_UNAVAILABLE when it cannot, so load balancers take the instance out.
 * Answers at once (no promise) while the last round trip is fresh.
 */
export function checkHealth(context: HealthContext): HealthReport | Promise<HealthReport> {
  // One clock read serves the freshness test and, for a reused check, the uptime.
  const at = context.now();
  let check: DatabaseCheck | Promise<DatabaseCheck>;
  try {
    check = context.checkDatabase(at);
  } catch (cause) {
    throw databaseUnreachable(context, cause);
  }
  if (check instanceof Promise) {
    return check.then(
      (done) => report(context, done, context.now()),
      (cause: unknown) => {
        throw databaseUnreachable(context, cause);
      },
    );
  }
  return report(context, check, at);
}

function report(context: HealthContext, check: DatabaseCheck, at: Date): HealthReport {
  return {
    version: context.version,
    uptimeSeconds: (at.getTime() - context.startedAt.getTime()) / 1000,
    databaseKind: context.databaseKind,
    database: check,
  };
}

/** The cause (driver error) is logged with the request id, never sent to the caller. */
function databaseUnreachable(context: HealthContext, cause: unknown): AppError {
  return appError(
    'SERVICE_UNAVAILABLE',
    'The database is not reachable.',
    { database: { kind: context.databaseKind } },
    { cause },
  );
}
