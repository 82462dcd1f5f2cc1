import {
  and,
  arrayContains,
  asc,
  count,
  eq,
  ilike,
  inArray,
  ne,
  notInArray,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { executeNamed, type Database } from '../../db/client.js';
import { appointments, patientProfiles, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export type PatientProfileRow = typeof patientProfiles.$inferSelect;

export interface PatientUserRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  dateOfBirth: string | null;
  language: string;
  roleKeys: string[];
}

/** The columns of a `PatientUserRow`. */
const patientUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  dateOfBirth: users.dateOfBirth,
  language: users.language,
  roleKeys: users.roleKeys,
};

/** The user behind a chart, only when they hold the patient role (anyone else has no chart). */
export async function findPatientUser(db: Database, patientId: string): Promise<PatientUserRow | null> {
  const [row] = await db
    .select(patientUserColumns)
    .from(users)
    .where(and(eq(users.id, patientId), arrayContains(users.roleKeys, ['patient'])))
    .limit(1);
  return row ?? null;
}

/**
 * The patient row as `findPatientUser` reads it and, in the same round trip, whether `doctorUserId`
 * treats them: at least one appointment together that was not cancelled (the rule of
 * `findCareRelationship`, which answers the rest — emergency access — when this is false).
 */
export async function findPatientUserTreatedBy(
  db: Database,
  patientId: string,
  doctorUserId: string,
): Promise<{ patient: PatientUserRow; treating: boolean } | null> {
  // Every doctor's chart read runs this first: a named statement (parsed and planned once per
  // connection). The date of birth as text in ISO form, as drizzle's string mode reads it.
  const [row] = (await executeNamed(
    db,
    'records_patient_treated_by',
    sql`select u.id, u.name, u.email, u.phone, to_char(u.date_of_birth, 'YYYY-MM-DD') as date_of_birth,
        u.language, u.role_keys,
        exists (
          select 1 from appointments a
          where a.doctor_user_id = ${doctorUserId} and a.patient_user_id = u.id and a.status not in ('cancelled')
        ) as treating
      from users u
      where u.id = ${patientId} and u.role_keys @> array['patient']::text[]
      limit 1`,
  )) as {
    id: string;
    name: string;
    email: string;
    phone: string | null;
    date_of_birth: string | null;
    language: string;
    role_keys: string[];
    treating: boolean;
  }[];
  if (row === undefined) {
    return null;
  }
  return {
    patient: {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      dateOfBirth: row.date_of_birth,
      language: row.language,
      roleKeys: row.role_keys,
    },
    treating: row.treating,
  };
}

/**
 * `findPatientUserTreatedBy` for many patients in one round trip (a page of FHIR search results):
 * the patient rows among `patientIds` and, when `doctorUserId` is given, whether that doctor treats
 * each one (same rule: an appointment together that was not cancelled). Ids that are not patients
 * are left out.
 */
export async function findPatientUsersTreatedBy(
  db: Database,
  patientIds: readonly string[],
  doctorUserId: string | null,
): Promise<{ patient: PatientUserRow; treating: boolean }[]> {
  if (patientIds.length === 0) {
    return [];
  }
  const rows = await db
    .select({
      ...patientUserColumns,
      treating:
        doctorUserId === null
          ? sql<boolean>`false`
          : sql<boolean>`exists (
              select 1 from appointments a
              where a.doctor_user_id = ${doctorUserId} and a.patient_user_id = "users"."id"
                and a.status not in ('cancelled')
            )`,
    })
    .from(users)
    .where(and(inArray(users.id, [...patientIds]), arrayContains(users.roleKeys, ['patient'])));
  return rows.map(({ treating, ...patient }) => ({ patient, treating: treating === true }));
}

/** Whether the doctor and the patient have at least one appointment together that was not cancelled. */
export async function hasTreatingAppointment(
  db: Database,
  doctorUserId: string,
  patientUserId: string,
): Promise<boolean> {
  const [treating] = await db
    .select({ one: sql<number>`1` })
    .from(appointments)
    .where(
      and(
        eq(appointments.doctorUserId, doctorUserId),
        eq(appointments.patientUserId, patientUserId),
        notInArray(appointments.status, ['cancelled']),
      ),
    )
    .limit(1);
  return treating !== undefined;
}

export async function findPatientProfile(db: Database, patientId: string): Promise<PatientProfileRow | null> {
  const [row] = await db.select().from(patientProfiles).where(eq(patientProfiles.userId, patientId)).limit(1);
  return row ?? null;
}

/**
 * A page of patients: every patient (staff) or only those with a non-cancelled appointment with
 * `doctorId` (the same rule as the care relationship), searched by name or email. Each row has the
 * last visit that started before `now` and the next one from `now` on (non-cancelled, with this
 * doctor for a doctor): a booked future visit is the next one, never the "last".
 */
export async function listPatients(
  db: Database,
  options: { doctorId: string | null; q: string | undefined; page: number; pageSize: number; now: Date },
): Promise<{
  rows: (PatientUserRow & { lastVisitAt: Date | null; nextVisitAt: Date | null })[];
  total: number;
}> {
  const now = sql`${options.now.toISOString()}::timestamptz`;
  const lastVisit = db
    .select({
      patientUserId: appointments.patientUserId,
      lastVisitAt: sql<
        string | Date | null
      >`max(${appointments.startsAt}) filter (where ${appointments.startsAt} < ${now})`.as('last_visit_at'),
      nextVisitAt: sql<
        string | Date | null
      >`min(${appointments.startsAt}) filter (where ${appointments.startsAt} >= ${now})`.as('next_visit_at'),
    })
    .from(appointments)
    .where(
      and(
        ne(appointments.status, 'cancelled'),
        options.doctorId === null ? undefined : eq(appointments.doctorUserId, options.doctorId),
      ),
    )
    .groupBy(appointments.patientUserId)
    .as('last_visit');
  const conditions: (SQL | undefined)[] = [arrayContains(users.roleKeys, ['patient'])];
  if (options.q !== undefined && options.q !== '') {
    const pattern = likePattern(options.q);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
  }
  const where = and(...conditions);
  const base = db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      dateOfBirth: users.dateOfBirth,
      language: users.language,
      roleKeys: users.roleKeys,
      lastVisitAt: lastVisit.lastVisitAt,
      nextVisitAt: lastVisit.nextVisitAt,
    })
    .from(users);
  const joined =
    options.doctorId === null
      ? base.leftJoin(lastVisit, eq(lastVisit.patientUserId, users.id))
      : base.innerJoin(lastVisit, eq(lastVisit.patientUserId, users.id));
  const rows = await joined
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const totalQuery = db.select({ value: count() }).from(users);
  const [total] =
    options.doctorId === null
      ? await totalQuery.where(where)
      : await totalQuery.innerJoin(lastVisit, eq(lastVisit.patientUserId, users.id)).where(where);
  return {
    rows: rows.map((row) => ({
      ...row,
      lastVisitAt: row.lastVisitAt === null ? null : new Date(row.lastVisitAt),
      nextVisitAt: row.nextVisitAt === null ? null : new Date(row.nextVisitAt),
    })),
    total: total?.value ?? 0,
  };
}

export async function updateUserDemographics(
  db: Database,
  patientId: string,
  values: { name?: string; phone?: string | null; dateOfBirth?: string | null },
  now: Date,
): Promise<void> {
  if (Object.keys(values).length === 0) {
    return;
  }
  await db
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, patientId));
}

/** Creates the profile row on the first edit, updates it afterwards. */
export async function upsertPatientProfile(
  db: Database,
  patientId: string,
  values: Partial<Omit<PatientProfileRow, 'userId' | 'createdAt' | 'updatedAt'>>,
  now: Date,
): Promise<void> {
  await db
    .insert(patientProfiles)
    .values({ userId: patientId, ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: patientProfiles.userId, set: { ...values, updatedAt: now } });
}
