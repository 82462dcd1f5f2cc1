import type { SpecialtyListQuery } from '@telemedicina/shared/admin';
import type { Language } from '@telemedicina/shared/i18n';
import { and, asc, count, desc, eq, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { doctorSpecialties, specialties } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export type SpecialtyRow = typeof specialties.$inferSelect;

export interface SpecialtyWithCount extends SpecialtyRow {
  doctorCount: number;
}

const doctorsOfSpecialty = sql<number>`(select count(*) from ${doctorSpecialties}
  where ${doctorSpecialties.specialtyId} = ${specialties.id})::int`;

const withCount = {
  id: specialties.id,
  nameEs: specialties.nameEs,
  nameEn: specialties.nameEn,
  active: specialties.active,
  createdAt: specialties.createdAt,
  doctorCount: doctorsOfSpecialty,
};

/**
 * Accents and case folded away on both sides, so "pediatria" finds
 * "Pediatría". Done with `translate` (no extension needed, PGlite included);
 * the catalogue is small enough that it needs no index.
 */
const accented = 'áàâäãåÁÀÂÄÃÅéèêëÉÈÊËíìîïÍÌÎÏóòôöõÓÒÔÖÕúùûüÚÙÛÜñÑçÇ';
const plain = 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuunncc';

function folded(column: typeof specialties.nameEs | typeof specialties.nameEn): SQL {
  return sql`translate(lower(${column}), ${accented}, ${plain})`;
}

/** Lower case without diacritics, as {@link folded} leaves a name in SQL. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

export interface SpecialtyFilter {
  q?: string | undefined;
  /** true: active only; false: inactive only; null: both. */
  active: boolean | null;
}

function specialtyConditions(filter: SpecialtyFilter): SQL | undefined {
  const conditions: SQL[] = [];
  const q = filter.q?.trim() ?? '';
  if (q !== '') {
    const pattern = likePattern(foldText(q));
    conditions.push(
      or(
        sql`${folded(specialties.nameEs)} like ${pattern}`,
        sql`${folded(specialties.nameEn)} like ${pattern}`,
      )!,
    );
  }
  if (filter.active !== null) {
    conditions.push(eq(specialties.active, filter.active));
  }
  return conditions.length === 0 ? undefined : and(...conditions);
}

/** One page of specialties with how many doctors practise each. */
export async function listSpecialties(
  db: Database,
  query: Pick<SpecialtyListQuery, 'page' | 'pageSize' | 'sort' | 'order'>,
  filter: SpecialtyFilter,
  language: Language,
): Promise<{ rows: SpecialtyWithCount[]; total: number }> {
  const direction = query.order === 'asc' ? asc : desc;
  const sortColumn = {
    name: sql`lower(${language === 'es' ? specialties.nameEs : specialties.nameEn})`,
    doctorCount: doctorsOfSpecialty,
    createdAt: sql`${specialties.createdAt}`,
  }[query.sort];
  const where = specialtyConditions(filter);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(withCount)
      .from(specialties)
      .where(where)
      .orderBy(direction(sortColumn), direction(specialties.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(specialties).where(where),
  ]);
  return { rows, total: totalRow?.value ?? 0 };
}

export async function findSpecialty(db: Database, id: string): Promise<SpecialtyWithCount | null> {
  const [row] = await db.select(withCount).from(specialties).where(eq(specialties.id, id));
  return row ?? null;
}

/** Which of the names another specialty already uses (case-insensitive, per language). */
export async function findNameConflicts(
  db: Database,
  name: { es: string; en: string },
  exceptId: string | null,
): Promise<('es' | 'en')[]> {
  const rows = await db
    .select({ nameEs: specialties.nameEs, nameEn: specialties.nameEn })
    .from(specialties)
    .where(
      and(
        or(
          sql`lower(${specialties.nameEs}) = lower(${name.es})`,
          sql`lower(${specialties.nameEn}) = lower(${name.en})`,
        ),
        exceptId === null ? undefined : ne(specialties.id, exceptId),
      ),
    );
  const conflicts: ('es' | 'en')[] = [];
  if (rows.some((row) => row.nameEs.toLowerCase() === name.es.toLowerCase())) {
    conflicts.push('es');
  }
  if (rows.some((row) => row.nameEn.toLowerCase() === name.en.toLowerCase())) {
    conflicts.push('en');
  }
  // The database's lower() and JavaScript's can differ on rare letters: a row found is a conflict.
  return conflicts.length === 0 && rows.length > 0 ? ['es'] : conflicts;
}

export async function insertSpecialty(
  db: Database,
  specialty: Pick<typeof specialties.$inferInsert, 'nameEs' | 'nameEn' | 'active' | 'createdAt'>,
): Promise<SpecialtyRow> {
  const [row] = await db.insert(specialties).values(specialty).returning();
  if (row === undefined) {
    throw new Error('insert into specialties returned nothing');
  }
  return row;
}

export async function updateSpecialty(
  db: Database,
  id: string,
  changes: Partial<Pick<typeof specialties.$inferInsert, 'nameEs' | 'nameEn' | 'active'>>,
): Promise<void> {
  await db.update(specialties).set(changes).where(eq(specialties.id, id));
}

export async function deleteSpecialty(db: Database, id: string): Promise<void> {
  await db.delete(specialties).where(eq(specialties.id, id));
}
