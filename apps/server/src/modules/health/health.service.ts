import type { DatabaseKind } from '@telemedicina/shared';
import { AppError } from '../../lib/app-error.js';
import type { DatabaseCheck } from './health.repository.js';

export interface HealthContext {
  databaseKind: DatabaseKind;
  checkDatabase: () => Promise<DatabaseCheck>;
  startedAt: Date;
  now: () => Date;
  version: string;
}

export interface HealthReport {
  version: string;
  uptimeSeconds: number;
  database: { kind: DatabaseKind } & DatabaseCheck;
}

/**
 * Checks that the server can reach its database. Throws 503
 * SERVICE_UNAVAILABLE when it cannot, so load balancers take the instance out.
 */
export async function checkHealth(context: HealthContext): Promise<HealthReport> {
  let check: DatabaseCheck;
  try {
    check = await context.checkDatabase();
  } catch (cause) {
    // The cause (driver error) is logged with the request id, never sent to the caller.
    throw new AppError(
      503,
      'SERVICE_UNAVAILABLE',
      'The database is not reachable.',
      { database: { kind: context.databaseKind } },
      { cause },
    );
  }
  return {
    version: context.version,
    uptimeSeconds: (context.now().getTime() - context.startedAt.getTime()) / 1000,
    database: { kind: context.databaseKind, ...check },
  };
}
