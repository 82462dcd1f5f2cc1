import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { doctorProfiles, doctorSpecialties, specialties, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';
import { foldText } from '../specialties/specialties.repository.js';

/** A doctor as the directory and the profile show them: the user's public fields and the profile row. */
export interface DoctorRow {
  id: string;
  name: string;
  photoFileId: string | null;
  timeZone: string;
  status: string;
  licenseNumber: string;
  languages: string[];
  visitMinutes: number;
  bioEs: string;
  bioEn: string;
  acceptsNewPatients: boolean;
}

export interface DoctorSpecialtyRow {
  id: string;
  nameEs: string;
  nameEn: string;
}

/** A user who may or may not hold the doctor role and have a profile (PATCH and GET by id). */
export interface DoctorCandidate {
  id: string;
  name: string;
  photoFileId: string | null;
  timeZone: string;
  status: string;
  isDoctor: boolean;
  profile: Omit<DoctorRow, 'id' | 'name' | 'photoFileId' | 'timeZone' | 'status'> | null;
}

const doctorColumns = {
  id: users.id,
  name: users.name,
  photoFileId: users.photoFileId,
  timeZone: users.timeZone,
  status: users.status,
  licenseNumber: doctorProfiles.licenseNumber,
  languages: doctorProfiles.languages,
  visitMinutes: doctorProfiles.visitMinutes,
  bioEs: doctorProfiles.bioEs,
  bioEn: doctorProfiles.bioEn,
  acceptsNewPatients: doctorProfiles.acceptsNewPatients,
};

const holdsDoctorRole = sql`${users.roleKeys} @> array['doctor']::text[]`;

/** Same folding as the specialties search: lower case, common accents removed, in SQL and in {@link foldText}. */
const accented = 'áàâäãåÁÀÂÄÃÅéèêëÉÈÊËíìîïÍÌÎÏóòôöõÓÒÔÖÕúùûüÚÙÛÜñÑçÇ';
const plain = 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuunncc';

export interface DirectoryFilter {
  q?: string | undefined;
  specialtyId?: string | undefined;
  language?: string | undefined;
  acceptsNewPatients?: boolean | undefined;
}

/**
 * The directory's conditions: active users holding the doctor role (the
 * trigger-maintained `role_keys`), with a profile (the inner join), and the
 * filters. The name search folds case and accents on both sides.
 */
function directoryConditions(filter: DirectoryFilter): SQL {
  const conditions: SQL[] = [eq(users.status, 'active'), holdsDoctorRole];
  const q = filter.q?.trim() ?? '';
  if (q !== '') {
    conditions.push(
      sql`translate(lower(${users.name}), ${accented}, ${plain}) like ${likePattern(foldText(q))}`,
    );
  }
  if (filter.specialtyId !== undefined) {
    conditions.push(
      sql`exists (select 1 from ${doctorSpecialties}
        inner join ${specialties} on ${specialties.id} = ${doctorSpecialties.specialtyId}
        where ${doctorSpecialties.doctorUserId} = ${users.id}
          and ${doctorSpecialties.specialtyId} = ${filter.specialtyId}
          and ${specialties.active})`,
    );
  }
  if (filter.language !== undefined) {
    conditions.push(sql`${doctorProfiles.languages} @> array[${filter.language}]::text[]`);
  }
  if (filter.acceptsNewPatients !== undefined) {
    conditions.push(eq(doctorProfiles.acceptsNewPatients, filter.acceptsNewPatients));
  }
  return and(...conditions)!;
}

/**
 * Doctors matching the filter in name order (`page` null: all of them, for
 * sorting by next availability in the service), with the total.
 */
export async function listDirectoryDoctors(
  db: Database,
  filter: DirectoryFilter,
  options: { order: 'asc' | 'desc'; page: { page: number; pageSize: number } | null },
): Promise<{ rows: DoctorRow[]; total: number }> {
  const direction = options.order === 'asc' ? asc : desc;
  const where = directoryConditions(filter);
  const query = db
    .select(doctorColumns)
    .from(users)
    .innerJoin(doctorProfiles, eq(doctorProfiles.userId, users.id))
    .where(where)
    .orderBy(direction(sql`lower(${users.name})`), direction(users.id));
  if (options.page === null) {
    const rows = await query;
    return { rows, total: rows.length };
  }
  const [rows, [totalRow]] = await Promise.all([
    query.limit(options.page.pageSize).offset((options.page.page - 1) * options.page.pageSize),
    db
      .select({ value: count() })
      .from(users)
      .innerJoin(doctorProfiles, eq(doctorProfiles.userId, users.id))
      .where(where),
  ]);
  return { rows, total: totalRow?.value ?? 0 };
}

/** A user with their doctor profile if they have one (null when there is no such user). */
export async function findDoctorCandidate(db: Database, userId: string): Promise<DoctorCandidate | null> {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      photoFileId: users.photoFileId,
      timeZone: users.timeZone,
      status: users.status,
      isDoctor: sql<boolean>`${holdsDoctorRole}`,
      profileUserId: doctorProfiles.userId,
      licenseNumber: doctorProfiles.licenseNumber,
      languages: doctorProfiles.languages,
      visitMinutes: doctorProfiles.visitMinutes,
      bioEs: doctorProfiles.bioEs,
      bioEn: doctorProfiles.bioEn,
      acceptsNewPatients: doctorProfiles.acceptsNewPatients,
    })
    .from(users)
    .leftJoin(doctorProfiles, eq(doctorProfiles.userId, users.id))
    .where(eq(users.id, userId));
  if (row === undefined) {
    return null;
  }
  const { profileUserId, licenseNumber, languages, visitMinutes, bioEs, bioEn, acceptsNewPatients } = row;
  return {
    id: row.id,
    name: row.name,
    photoFileId: row.photoFileId,
    timeZone: row.timeZone,
    status: row.status,
    isDoctor: row.isDoctor,
    profile:
      profileUserId === null ||
      licenseNumber === null ||
      languages === null ||
      visitMinutes === null ||
      bioEs === null ||
      bioEn === null ||
      acceptsNewPatients === null
        ? null
        : { licenseNumber, languages, visitMinutes, bioEs, bioEn, acceptsNewPatients },
  };
}

/** The active specialties of each doctor, in one query, each list in Spanish name order. */
export async function findActiveSpecialtiesOf(
  db: Database,
  doctorIds: readonly string[],
): Promise<Map<string, DoctorSpecialtyRow[]>> {
  const result = new Map<string, DoctorSpecialtyRow[]>();
  if (doctorIds.length === 0) {
    return result;
  }
  const rows = await db
    .select({
      doctorUserId: doctorSpecialties.doctorUserId,
      id: specialties.id,
      nameEs: specialties.nameEs,
      nameEn: specialties.nameEn,
    })
    .from(doctorSpecialties)
    .innerJoin(specialties, eq(specialties.id, doctorSpecialties.specialtyId))
    .where(and(inArray(doctorSpecialties.doctorUserId, [...doctorIds]), eq(specialties.active, true)))
    .orderBy(asc(sql`lower(${specialties.nameEs})`), asc(specialties.id));
  for (const row of rows) {
    const list = result.get(row.doctorUserId) ?? [];
    list.push({ id: row.id, nameEs: row.nameEs, nameEn: row.nameEn });
    result.set(row.doctorUserId, list);
  }
  return result;
}

/** Every specialty a doctor has, active or not (ids only). */
export async function findSpecialtyIdsOf(db: Database, doctorId: string): Promise<string[]> {
  const rows = await db
    .select({ id: doctorSpecialties.specialtyId })
    .from(doctorSpecialties)
    .where(eq(doctorSpecialties.doctorUserId, doctorId));
  return rows.map((row) => row.id).sort();
}

/** Which of these specialty ids exist and are active. */
export async function findActiveSpecialtyIds(db: Database, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ id: specialties.id })
    .from(specialties)
    .where(and(inArray(specialties.id, [...ids]), eq(specialties.active, true)));
  return new Set(rows.map((row) => row.id));
}

export type DoctorProfileValues = Pick<
  typeof doctorProfiles.$inferInsert,
  'licenseNumber' | 'languages' | 'visitMinutes' | 'bioEs' | 'bioEn' | 'acceptsNewPatients'
>;

/** Creates the profile row of a doctor who has none. */
export async function insertDoctorProfile(
  db: Database,
  userId: string,
  values: Required<DoctorProfileValues>,
  at: Date,
): Promise<void> {
  await db.insert(doctorProfiles).values({ userId, ...values, createdAt: at, updatedAt: at });
}

export async function updateDoctorProfile(
  db: Database,
  userId: string,
  changes: Partial<DoctorProfileValues>,
  at: Date,
): Promise<void> {
  await db
    .update(doctorProfiles)
    .set({ ...changes, updatedAt: at })
    .where(eq(doctorProfiles.userId, userId));
}

/** Replaces a doctor's specialties with exactly these. */
export async function replaceDoctorSpecialties(
  db: Database,
  doctorId: string,
  specialtyIds: readonly string[],
): Promise<void> {
  await db.delete(doctorSpecialties).where(eq(doctorSpecialties.doctorUserId, doctorId));
  if (specialtyIds.length > 0) {
    await db
      .insert(doctorSpecialties)
      .values(specialtyIds.map((specialtyId) => ({ doctorUserId: doctorId, specialtyId })));
  }
}
