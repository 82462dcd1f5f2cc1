import { inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { settings } from '../../db/schema.js';

/** The stored values of `keys` (missing keys are absent from the map). */
export async function readSettings(db: Database, keys: readonly string[]): Promise<Map<string, unknown>> {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, [...keys]));
  return new Map(rows.map((row) => [row.key, row.value]));
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
