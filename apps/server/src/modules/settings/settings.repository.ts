import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { files, roles, settings } from '../../db/schema.js';

/** The stored values of `keys` (missing keys are absent from the map). */
export async function readSettings(db: Database, keys: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [...keys]));
  return new Map(rows.map((row) => [row.key, row.value]));
}

/**
 * The stored values of `keys`, in one query, and whether the file the
 * `fileKey` setting names still exists (a logo whose file row is gone reads
 * as no logo rather than a broken link).
 */
export async function readSettingsWithFile(
  db: Database,
  keys: readonly string[],
  fileKey: string,
): Promise<{ values: Map<string, unknown>; fileExists: boolean }> {
  const rows = await db
    .select({ key: settings.key, value: settings.value, fileId: files.id })
    .from(settings)
    .leftJoin(files, and(eq(settings.key, fileKey), sql`${files.id}::text = ${settings.value} #>> '{}'`))
    .where(inArray(settings.key, [...keys]));
  return {
    values: new Map(rows.map((row) => [row.key, row.value])),
    fileExists: rows.some((row) => row.key === fileKey && row.fileId !== null),
  };
}

/** Creates or replaces one setting. */
export async function writeSetting(
  db: Database,
  key: string,
  value: unknown,
  options: { now: Date; userId?: string | null; onlyIfMissing?: boolean },
): Promise<void> {
  const insert = db
    .insert(settings)
    .values({ key, value, updatedAt: options.now, updatedByUserId: options.userId ?? null });
  if (options.onlyIfMissing === true) {
    await insert.onConflictDoNothing();
    return;
  }
  await insert.onConflictDoUpdate({
    target: settings.key,
    set: { value: sql`excluded.value`, updatedAt: options.now, updatedByUserId: options.userId ?? null },
  });
}

/** Removes one setting (its default applies again). */
export async function deleteSetting(db: Database, key: string): Promise<void> {
  await db.delete(settings).where(eq(settings.key, key));
}

/** Serialises writers of the clinic settings until the surrounding transaction ends. */
export async function lockSettings(db: Database): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(7410195105100109)`);
}

/** Which of `keys` name existing roles. */
export async function findExistingRoleKeys(db: Database, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ key: roles.key })
    .from(roles)
    .where(inArray(roles.key, [...keys]));
  return new Set(rows.map((row) => row.key));
}
