import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { authTokens, type AuthTokenKind } from '../../db/schema.js';

export type AuthTokenRow = typeof authTokens.$inferSelect;

export async function insertAuthToken(
  db: Database,
  token: Omit<typeof authTokens.$inferInsert, 'id'>,
): Promise<AuthTokenRow> {
  const [row] = await db.insert(authTokens).values(token).returning();
  if (row === undefined) {
    throw new Error('insert into auth_tokens returned nothing');
  }
  return row;
}

/** The token if it exists, has this kind, is unused and unexpired; otherwise null. */
export async function findUsableToken(
  db: Database,
  kind: AuthTokenKind,
  tokenHash: string,
  now: Date,
): Promise<AuthTokenRow | null> {
  const [row] = await db
    .select()
    .from(authTokens)
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    );
  return row ?? null;
}

/**
 * Uses a token up. The `used_at IS NULL` condition makes it single-use even
 * under concurrency: of two simultaneous uses exactly one gets the row back.
 */
export async function consumeToken(
  db: Database,
  kind: AuthTokenKind,
  tokenHash: string,
  now: Date,
): Promise<AuthTokenRow | null> {
  const [row] = await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.tokenHash, tokenHash),
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Marks every unused token of a kind for a user or an email as used (superseded). */
export async function retireTokens(
  db: Database,
  kind: AuthTokenKind,
  owner: { userId: string } | { email: string },
  now: Date,
): Promise<void> {
  await db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.kind, kind),
        isNull(authTokens.usedAt),
        'userId' in owner ? eq(authTokens.userId, owner.userId) : eq(authTokens.email, owner.email),
      ),
    );
}
