import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { loginFailures } from '../../db/schema.js';

export type LoginFailureRow = typeof loginFailures.$inferSelect;

export async function findLoginFailure(db: Database, email: string): Promise<LoginFailureRow | null> {
  const [row] = await db.select().from(loginFailures).where(eq(loginFailures.email, email));
  return row ?? null;
}

/**
 * Counts one failed sign-in for `email` in a single atomic upsert: failures
 * older than the window (or from before an expired lock) start a new count,
 * and reaching `maxFailures` sets `locked_until`. Resolves with the new state.
 */
export async function recordLoginFailure(
  db: Database,
  email: string,
  now: Date,
  policy: { maxFailures: number; windowSeconds: number; lockSeconds: number },
): Promise<{ failureCount: number; lockedUntil: Date | null }> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const startsOver = sql`(${loginFailures.firstFailureAt} <= ${at} - make_interval(secs => ${policy.windowSeconds})
    or (${loginFailures.lockedUntil} is not null and ${loginFailures.lockedUntil} <= ${at}))`;
  const nextCount = sql`case when ${startsOver} then 1 else ${loginFailures.failureCount} + 1 end`;
  const [row] = await db
    .insert(loginFailures)
    .values({
      email,
      failureCount: 1,
      firstFailureAt: now,
      lastFailureAt: now,
      lockedUntil: policy.maxFailures <= 1 ? new Date(now.getTime() + policy.lockSeconds * 1000) : null,
    })
    .onConflictDoUpdate({
      target: loginFailures.email,
      set: {
        failureCount: nextCount,
        firstFailureAt: sql`case when ${startsOver} then ${at} else ${loginFailures.firstFailureAt} end`,
        lastFailureAt: at,
        lockedUntil: sql`case when ${nextCount} >= ${policy.maxFailures}
          then ${at} + make_interval(secs => ${policy.lockSeconds}) else null end`,
      },
    })
    .returning({ failureCount: loginFailures.failureCount, lockedUntil: loginFailures.lockedUntil });
  if (row === undefined) {
    throw new Error('upsert into login_failures returned nothing');
  }
  return row;
}

export async function clearLoginFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}
