import { createHash } from 'node:crypto';
import type { Diagnosis, DiagnosisList, DiagnosisSearchQuery } from '@telemedicina/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { appMeta, diagnosisCodes } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { diagnosisCatalogue, type CatalogueEntry } from './catalogue.js';

/** The `app_meta` key holding the hash of the catalogue last loaded into `diagnosis_codes`. */
export const catalogueVersionKey = 'diagnoses.catalogue_version';

/** Lower case, accents removed (á → a, ñ → n, ü → u): what `search_text` holds and queries are matched with. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

function searchTextOf([code, , nameEs, nameEn]: CatalogueEntry): string {
  return foldForSearch(`${code} ${nameEs} ${nameEn}`);
}

/** A content hash of the catalogue: it changes when any code, chapter or name does. */
export function catalogueVersion(catalogue: readonly CatalogueEntry[] = diagnosisCatalogue): string {
  return createHash('sha256').update(JSON.stringify(catalogue)).digest('hex').slice(0, 32);
}

/**
 * Loads the shipped catalogue into `diagnosis_codes` when its version differs from the one last
 * loaded: one multi-row upsert in one transaction, serialised between instances by an advisory
 * lock. Codes dropped from the file stay (conditions may point at them). Returns whether it wrote.
 */
export async function loadDiagnosisCatalogue(
  db: Database,
  now: Date,
  catalogue: readonly CatalogueEntry[] = diagnosisCatalogue,
): Promise<boolean> {
  const version = catalogueVersion(catalogue);
  const [current] = await db.select().from(appMeta).where(eq(appMeta.key, catalogueVersionKey));
  if (current?.value === version) {
    return false;
  }
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7410195105100108)`);
    const [again] = await tx.select().from(appMeta).where(eq(appMeta.key, catalogueVersionKey));
    if (again?.value === version) {
      return false;
    }
    await tx
      .insert(diagnosisCodes)
      .values(
        catalogue.map((entry) => ({
          code: entry[0],
          chapter: entry[1],
          nameEs: entry[2],
          nameEn: entry[3],
          searchText: searchTextOf(entry),
        })),
      )
      .onConflictDoUpdate({
        target: diagnosisCodes.code,
        set: {
          chapter: sql`excluded.chapter`,
          nameEs: sql`excluded.name_es`,
          nameEn: sql`excluded.name_en`,
          searchText: sql`excluded.search_text`,
        },
      });
    await tx
      .insert(appMeta)
      .values({ key: catalogueVersionKey, value: version, updatedAt: now })
      .onConflictDoUpdate({ target: appMeta.key, set: { value: version, updatedAt: now } });
    return true;
  });
}

function present(row: typeof diagnosisCodes.$inferSelect): Diagnosis {
  return { code: row.code, chapter: row.chapter, nameEs: row.nameEs, nameEn: row.nameEn };
}

/** Escapes LIKE's wildcards in user text. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Searches the catalogue: a code prefix (`j06`, `J06.9`) or words of either language, accents
 * ignored (`cefalea`, `migrana`, `back pain`). Every word must appear (trigram-indexed LIKE);
 * codes starting with the query come first, then by similarity, then by code.
 */
export async function searchDiagnoses(
  ctx: ServiceContext,
  query: DiagnosisSearchQuery,
): Promise<DiagnosisList> {
  const folded = foldForSearch(query.q);
  const words = folded
    .split(' ')
    .filter((word) => word.length > 0)
    .slice(0, 8);
  if (words.length === 0) {
    return { items: [] };
  }
  const codePrefix = `${likeLiteral(folded.toUpperCase())}%`;
  const allWords = sql.join(
    words.map((word) => sql`${diagnosisCodes.searchText} like ${`%${likeLiteral(word)}%`}`),
    sql` and `,
  );
  const rows = await ctx.db.db
    .select()
    .from(diagnosisCodes)
    .where(sql`(${diagnosisCodes.code} like ${codePrefix} or (${allWords}))`)
    .orderBy(
      sql`(${diagnosisCodes.code} like ${codePrefix}) desc`,
      sql`similarity(${diagnosisCodes.searchText}, ${folded}) desc`,
      diagnosisCodes.code,
    )
    .limit(query.limit);
  return { items: rows.map(present) };
}

/** One code of the catalogue (case-insensitive); 404 when it is not in it. */
export async function getDiagnosis(ctx: ServiceContext, code: string): Promise<Diagnosis> {
  const [row] = await ctx.db.db
    .select()
    .from(diagnosisCodes)
    .where(eq(diagnosisCodes.code, code.trim().toUpperCase()))
    .limit(1);
  if (row === undefined) {
    throw new AppError(404, 'NOT_FOUND', 'No such diagnosis code.');
  }
  return present(row);
}
