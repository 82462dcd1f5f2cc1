import type { DatabaseClient } from '../../db/client.js';

export interface DatabaseCheck {
  roundTripMs: number;
  /** When the round trip completed. */
  checkedAt: Date;
}

/** How long a successful round trip answers health checks. */
export const databaseCheckMaxAgeMs = 1_000;

/**
 * Measures a database round trip (`select 1`), at most about once per
 * `maxAgeMs` however often health is asked.
 *
 * Why not one round trip per request: the health route is public and
 * unauthenticated, and the embedded PGlite has a single connection that runs
 * on the main thread. A flood of health checks would queue a query each and
 * starve real work (and measured at a tenth of bare node:http throughput).
 * Coalescing concurrent checks alone does not help with PGlite: its query
 * runs synchronously as soon as it is issued, before the next request is
 * even read. So a successful check is reused for a short time (1 s by
 * default: far below any load balancer's interval) and concurrent callers
 * share the one in flight. Failures are never reused: the next check tries
 * again, so an outage shows at once.
 *
 * A check still fresh is returned as it is, not wrapped in a promise, so the
 * health route answers those requests without a trip through the microtask queue.
 */
export function createDatabasePinger(
  db: DatabaseClient,
  options: { now: () => Date; maxAgeMs?: number },
): (at?: Date) => DatabaseCheck | Promise<DatabaseCheck> {
  const maxAgeMs = options.maxAgeMs ?? databaseCheckMaxAgeMs;
  let last: DatabaseCheck | null = null;
  let inFlight: Promise<DatabaseCheck> | null = null;
  // `at`: the caller's reading of the same clock, when it has one (one clock read per health answer).
  return (at = options.now()) => {
    if (last !== null && at.getTime() - last.checkedAt.getTime() < maxAgeMs) {
      return last;
    }
    inFlight ??= db
      .ping()
      .then((roundTripMs) => {
        last = { roundTripMs, checkedAt: options.now() };
        return last;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}
