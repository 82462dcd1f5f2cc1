import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { mfaRecoveryCodes, users } from '../../db/schema.js';

export async function replaceRecoveryCodes(
  db: Database,
  userId: string,
  codeHashes: readonly string[],
  now: Date,
): Promise<void> {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  if (codeHashes.length > 0) {
    await db
      .insert(mfaRecoveryCodes)
      .values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
  }
}

export async function deleteRecoveryCodes(db: Database, userId: string): Promise<void> {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
}

/** Uses one recovery code up; false when it does not exist or was already used. */
export async function consumeRecoveryCode(
  db: Database,
  userId: string,
  codeHash: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length > 0;
}

/**
 * Records the time step of an accepted TOTP code, only if it is newer than
 * the last one: of two concurrent uses of one code, only one succeeds.
 */
export async function advanceTotpStep(db: Database, userId: string, timeStep: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ mfaLastTimeStep: timeStep })
    .where(and(eq(users.id, userId), or(isNull(users.mfaLastTimeStep), lt(users.mfaLastTimeStep, timeStep))))
    .returning({ id: users.id });
  return rows.length > 0;
}
