import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { appMeta, diagnosisCodes } from '../../db/schema.js';

export type DiagnosisCodeRow = typeof diagnosisCodes.$inferSelect;
export type DiagnosisCodeValues = typeof diagnosisCodes.$inferInsert;

/** The `app_meta` key holding the hash of the catalogue last loaded into `diagnosis_codes`. */
export const catalogueVersionKey = 'diagnoses.catalogue_version';

/** The version of the catalogue last loaded (a string), or undefined when none was. */
export async function findCatalogueVersion(db: Database): Promise<unknown> {
  const [current] = await db.select().from(appMeta).where(eq(appMeta.key, catalogueVersionKey));
  return current?.value;
}

/** Serialises catalogue loads between instances until the transaction ends. */
export async function lockCatalogueLoad(tx: Database): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7410195105100108)`);
}

/** One multi-row upsert: new codes are added, known ones take the new chapter and names. */
export async function upsertDiagnosisCodes(tx: Database, rows: DiagnosisCodeValues[]): Promise<void> {
  await tx
    .insert(diagnosisCodes)
    .values(rows)
    .onConflictDoUpdate({
      target: diagnosisCodes.code,
      set: {
        chapter: sql`excluded.chapter`,
        nameEs: sql`excluded.name_es`,
        nameEn: sql`excluded.name_en`,
        searchText: sql`excluded.search_text`,
      },
    });
}

export async function writeCatalogueVersion(tx: Database, version: string, now: Date): Promise<void> {
  await tx
    .insert(appMeta)
    .values({ key: catalogueVersionKey, value: version, updatedAt: now })
    .onConflictDoUpdate({ target: appMeta.key, set: { value: version, updatedAt: now } });
}

/** Escapes LIKE's wildcards in user text. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Codes starting with `folded` (upper-cased) or whose search text holds every word (trigram-indexed
 * LIKE); code-prefix matches first, then by similarity, then by code.
 */
export async function searchDiagnosisCodes(
  db: Database,
  folded: string,
  words: readonly string[],
  limit: number,
): Promise<DiagnosisCodeRow[]> {
  const codePrefix = `${likeLiteral(folded.toUpperCase())}%`;
  const allWords = sql.join(
    words.map((word) => sql`${diagnosisCodes.searchText} like ${`%${likeLiteral(word)}%`}`),
    sql` and `,
  );
  return db
    .select()
    .from(diagnosisCodes)
    .where(sql`(${diagnosisCodes.code} like ${codePrefix} or (${allWords}))`)
    .orderBy(
      sql`(${diagnosisCodes.code} like ${codePrefix}) desc`,
      sql`similarity(${diagnosisCodes.searchText}, ${folded}) desc`,
      diagnosisCodes.code,
    )
    .limit(limit);
}

export async function findDiagnosisCode(db: Database, code: string): Promise<DiagnosisCodeRow | null> {
  const [row] = await db.select().from(diagnosisCodes).where(eq(diagnosisCodes.code, code)).limit(1);
  return row ?? null;
}
