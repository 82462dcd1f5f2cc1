import { createHash } from 'node:crypto';
import type { Diagnosis, DiagnosisList, DiagnosisSearchQuery } from '@telemedicina/shared/prescriptions';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { diagnosisCatalogue, type CatalogueEntry } from './catalogue.js';
import {
  findCatalogueVersion,
  findDiagnosisCode,
  lockCatalogueLoad,
  searchDiagnosisCodes,
  upsertDiagnosisCodes,
  writeCatalogueVersion,
  type DiagnosisCodeRow,
} from './diagnoses.repository.js';

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
  if ((await findCatalogueVersion(db)) === version) {
    return false;
  }
  return db.transaction(async (tx) => {
    await lockCatalogueLoad(tx);
    if ((await findCatalogueVersion(tx)) === version) {
      return false;
    }
    await upsertDiagnosisCodes(
      tx,
      catalogue.map((entry) => ({
        code: entry[0],
        chapter: entry[1],
        nameEs: entry[2],
        nameEn: entry[3],
        searchText: searchTextOf(entry),
      })),
    );
    await writeCatalogueVersion(tx, version, now);
    return true;
  });
}

function present(row: DiagnosisCodeRow): Diagnosis {
  return { code: row.code, chapter: row.chapter, nameEs: row.nameEs, nameEn: row.nameEn };
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
  const rows = await searchDiagnosisCodes(ctx.db, folded, words, query.limit);
  return { items: rows.map(present) };
}

/** One code of the catalogue (case-insensitive); 404 when it is not in it. */
export async function getDiagnosis(ctx: ServiceContext, code: string): Promise<Diagnosis> {
  const row = await findDiagnosisCode(ctx.db, code.trim().toUpperCase());
  if (row === null) {
    throw appError('NOT_FOUND', 'No such diagnosis code.');
  }
  return present(row);
}
