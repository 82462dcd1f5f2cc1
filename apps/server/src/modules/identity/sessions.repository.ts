import { and, desc, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rolePermissions, roles, sessions, userRoles, users } from '../../db/schema.js';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(
  db: Database,
  session: typeof sessions.$inferInsert,
): Promise<SessionRow> {
  const [row] = await db.insert(sessions).values(session).returning();
  if (row === undefined) {
    throw new Error('insert into sessions returned nothing');
  }
  return row;
}

export interface SessionWithGrants {
  session: SessionRow;
  userStatus: string;
  permissions: string[];
  roleKeys: string[];
}

/**
 * The session behind a cookie with what authorisation needs — the user's
 * status, permission names and role keys — in one round trip. Runs on every
 * authenticated request.
 */
export async function findSessionWithGrants(
  db: Database,
  sessionId: string,
): Promise<SessionWithGrants | null> {
  const [row] = await db
    .select({
      session: sessions,
      userStatus: users.status,
      permissions: sql<string[]>`array(
        select distinct ${rolePermissions.permission} from ${userRoles}
        join ${rolePermissions} on ${rolePermissions.roleId} = ${userRoles.roleId}
        where ${userRoles.userId} = ${sessions.userId})`,
      roleKeys: sql<string[]>`array(
        select ${roles.key} from ${userRoles}
        join ${roles} on ${roles.id} = ${userRoles.roleId}
        where ${userRoles.userId} = ${sessions.userId} order by ${roles.key})`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, sessionId));
  return row ?? null;
}

export async function touchSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

/** Ends sessions still open; resolves with the ids actually ended. */
export async function revokeSessions(
  db: Database,
  where: { ids?: readonly string[]; userId?: string; exceptId?: string },
  reason: string,
  now: Date,
): Promise<string[]> {
  const conditions = [isNull(sessions.revokedAt)];
  if (where.ids !== undefined) {
    if (where.ids.length === 0) {
      return [];
    }
    conditions.push(inArray(sessions.id, [...where.ids]));
  }
  if (where.userId !== undefined) {
    conditions.push(eq(sessions.userId, where.userId));
  }
  if (where.exceptId !== undefined) {
    conditions.push(ne(sessions.id, where.exceptId));
  }
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: reason })
    .where(and(...conditions))
    .returning({ id: sessions.id });
  return rows.map((row) => row.id);
}

/** Open (not revoked, not expired, not idle) sessions of a user, most recently used first. */
export async function listLiveSessions(db: Database, userId: string, now: Date): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        sql`${sessions.lastSeenAt} + make_interval(secs => ${sessions.idleTimeoutSeconds}) > ${now.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

/** Of `ids`, those whose session is still open at `now` (the real-time sweep asks this). */
export async function filterLiveSessionIds(
  db: Database,
  ids: readonly string[],
  now: Date,
): Promise<Set<string>> {
  if (ids.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        inArray(sessions.id, [...ids]),
        isNull(sessions.revokedAt),
        eq(users.status, 'active'),
        gt(sessions.expiresAt, now),
        sql`${sessions.lastSeenAt} + make_interval(secs => ${sessions.idleTimeoutSeconds}) > ${now.toISOString()}::timestamptz`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}
