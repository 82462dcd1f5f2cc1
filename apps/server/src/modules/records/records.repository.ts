import { recordAccessActionDomains } from '@telemedicina/shared';
import {
  aliasedTable,
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  ilike,
  isNull,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { executeNamed, type Database } from '../../db/client.js';
import {
  appointments,
  auditEvents,
  diagnosisCodes,
  emergencyAccesses,
  patientAllergies,
  patientConditions,
  patientMedications,
  patientProfiles,
  prescriptionItems,
  prescriptions,
  users,
} from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export type PatientProfileRow = typeof patientProfiles.$inferSelect;
export type AllergyRow = typeof patientAllergies.$inferSelect;
export type ConditionRow = typeof patientConditions.$inferSelect;
export type MedicationRow = typeof patientMedications.$inferSelect;

export interface PatientUserRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  dateOfBirth: string | null;
  language: string;
  roleKeys: string[];
}

/** The user behind a chart, only when they hold the patient role (anyone else has no chart). */
export async function findPatientUser(db: Database, patientId: string): Promise<PatientUserRow | null> {
  const [row] = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      dateOfBirth: users.dateOfBirth,
      language: users.language,
      roleKeys: users.roleKeys,
    })
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

const recorder = aliasedTable(users, 'recorder');
const remover = aliasedTable(users, 'remover');

export type WithPeople<T> = T & { recordedByName: string | null; removedByName: string | null };

const allergyColumns = {
  id: patientAllergies.id,
  patientUserId: patientAllergies.patientUserId,
  substance: patientAllergies.substance,
  reaction: patientAllergies.reaction,
  severity: patientAllergies.severity,
  recordedByUserId: patientAllergies.recordedByUserId,
  recordedAt: patientAllergies.recordedAt,
  removedAt: patientAllergies.removedAt,
  removedByUserId: patientAllergies.removedByUserId,
};

export async function listAllergies(
  db: Database,
  patientId: string,
  includeRemoved: boolean,
): Promise<WithPeople<AllergyRow>[]> {
  return db
    .select({
      ...allergyColumns,
      recordedByName: recorder.name,
      removedByName: remover.name,
    })
    .from(patientAllergies)
    .leftJoin(recorder, eq(recorder.id, patientAllergies.recordedByUserId))
    .leftJoin(remover, eq(remover.id, patientAllergies.removedByUserId))
    .where(
      and(
        eq(patientAllergies.patientUserId, patientId),
        includeRemoved ? undefined : isNull(patientAllergies.removedAt),
      ),
    )
    .orderBy(desc(patientAllergies.recordedAt), desc(patientAllergies.id));
}

export async function listConditions(
  db: Database,
  patientId: string,
  includeRemoved: boolean,
): Promise<(WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null })[]> {
  return db
    .select({
      id: patientConditions.id,
      patientUserId: patientConditions.patientUserId,
      diagnosisCode: patientConditions.diagnosisCode,
      description: patientConditions.description,
      status: patientConditions.status,
      onsetDate: patientConditions.onsetDate,
      recordedByUserId: patientConditions.recordedByUserId,
      recordedAt: patientConditions.recordedAt,
      removedAt: patientConditions.removedAt,
      removedByUserId: patientConditions.removedByUserId,
      nameEs: diagnosisCodes.nameEs,
      nameEn: diagnosisCodes.nameEn,
      recordedByName: recorder.name,
      removedByName: remover.name,
    })
    .from(patientConditions)
    .leftJoin(diagnosisCodes, eq(diagnosisCodes.code, patientConditions.diagnosisCode))
    .leftJoin(recorder, eq(recorder.id, patientConditions.recordedByUserId))
    .leftJoin(remover, eq(remover.id, patientConditions.removedByUserId))
    .where(
      and(
        eq(patientConditions.patientUserId, patientId),
        includeRemoved ? undefined : isNull(patientConditions.removedAt),
      ),
    )
    .orderBy(desc(patientConditions.recordedAt), desc(patientConditions.id));
}

export async function listMedications(
  db: Database,
  patientId: string,
  includeRemoved: boolean,
): Promise<WithPeople<MedicationRow>[]> {
  return db
    .select({
      id: patientMedications.id,
      patientUserId: patientMedications.patientUserId,
      name: patientMedications.name,
      dose: patientMedications.dose,
      frequency: patientMedications.frequency,
      startedOn: patientMedications.startedOn,
      stoppedOn: patientMedications.stoppedOn,
      recordedByUserId: patientMedications.recordedByUserId,
      recordedAt: patientMedications.recordedAt,
      removedAt: patientMedications.removedAt,
      removedByUserId: patientMedications.removedByUserId,
      recordedByName: recorder.name,
      removedByName: remover.name,
    })
    .from(patientMedications)
    .leftJoin(recorder, eq(recorder.id, patientMedications.recordedByUserId))
    .leftJoin(remover, eq(remover.id, patientMedications.removedByUserId))
    .where(
      and(
        eq(patientMedications.patientUserId, patientId),
        includeRemoved ? undefined : isNull(patientMedications.removedAt),
      ),
    )
    .orderBy(desc(patientMedications.recordedAt), desc(patientMedications.id));
}

const doctor = aliasedTable(users, 'doctor');

/** Every appointment of the patient, newest first (the clinic is one practice). */
export async function listPatientVisits(db: Database, patientId: string, limit: number) {
  return db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      status: appointments.status,
      reason: appointments.reason,
      doctorId: appointments.doctorUserId,
      doctorName: doctor.name,
    })
    .from(appointments)
    .innerJoin(doctor, eq(doctor.id, appointments.doctorUserId))
    .where(eq(appointments.patientUserId, patientId))
    .orderBy(desc(appointments.startsAt))
    .limit(limit);
}

export async function listPatientPrescriptions(db: Database, patientId: string, limit: number) {
  return db
    .select({
      id: prescriptions.id,
      issuedAt: prescriptions.issuedAt,
      status: prescriptions.status,
      doctorId: prescriptions.doctorUserId,
      doctorName: doctor.name,
      itemCount: sql<number>`(select count(*)::int from ${prescriptionItems} where ${prescriptionItems.prescriptionId} = ${prescriptions.id})`,
    })
    .from(prescriptions)
    .innerJoin(doctor, eq(doctor.id, prescriptions.doctorUserId))
    .where(eq(prescriptions.patientUserId, patientId))
    .orderBy(desc(prescriptions.issuedAt))
    .limit(limit);
}

export async function diagnosisCodeExists(db: Database, code: string): Promise<boolean> {
  const [row] = await db
    .select({ code: diagnosisCodes.code })
    .from(diagnosisCodes)
    .where(eq(diagnosisCodes.code, code))
    .limit(1);
  return row !== undefined;
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

export async function insertAllergy(db: Database, values: typeof patientAllergies.$inferInsert) {
  const [row] = await db.insert(patientAllergies).values(values).returning();
  return row!;
}

export async function insertCondition(db: Database, values: typeof patientConditions.$inferInsert) {
  const [row] = await db.insert(patientConditions).values(values).returning();
  return row!;
}

export async function insertMedication(db: Database, values: typeof patientMedications.$inferInsert) {
  const [row] = await db.insert(patientMedications).values(values).returning();
  return row!;
}

const listTables = {
  allergies: patientAllergies,
  conditions: patientConditions,
  medications: patientMedications,
} as const;
export type ChartListKind = keyof typeof listTables;

/** Ends an entry of one of the lists (kept as history); false when there is no live entry of that patient. */
export async function markListEntryRemoved(
  db: Database,
  kind: ChartListKind,
  patientId: string,
  entryId: string,
  by: string,
  now: Date,
): Promise<boolean> {
  const table = listTables[kind];
  const rows = await db
    .update(table)
    .set({ removedAt: now, removedByUserId: by })
    .where(and(eq(table.id, entryId), eq(table.patientUserId, patientId), isNull(table.removedAt)))
    .returning({ id: table.id });
  return rows.length > 0;
}

export async function findEmergencyReason(db: Database, accessId: string): Promise<string | null> {
  const [row] = await db
    .select({ reason: emergencyAccesses.reason })
    .from(emergencyAccesses)
    .where(eq(emergencyAccesses.id, accessId))
    .limit(1);
  return row?.reason ?? null;
}

export async function insertEmergencyAccess(db: Database, values: typeof emergencyAccesses.$inferInsert) {
  const [row] = await db.insert(emergencyAccesses).values(values).returning();
  return row!;
}

const actor = aliasedTable(users, 'actor');

/**
 * The audit events about one patient's record: chart and prescription events target the patient
 * (`patient`, id), so this is one look-up of the (target_type, target_id) index. Record,
 * prescription, document, visit-note and vitals actions only; the patient's own reads (`*.viewed`) are
 * left out, their own changes (reported vitals, uploads, exports) are kept.
 */
export async function listRecordAccessEvents(
  db: Database,
  patientId: string,
  options: { page: number; pageSize: number },
) {
  const where = and(
    eq(auditEvents.targetType, 'patient'),
    eq(auditEvents.targetId, patientId),
    // The families the patient's page words one by one (the shared list the web's labels test walks):
    // record, prescription, document, visit-note and reported-vitals actions.
    or(...recordAccessActionDomains.map((domain) => sql`${auditEvents.action} like ${`${domain}.%`}`)),
    sql`not (${auditEvents.action} like '%.viewed' and ${auditEvents.actorUserId} is not distinct from ${patientId}::uuid)`,
  );
  const rows = await db
    .select({
      id: auditEvents.id,
      at: auditEvents.at,
      action: auditEvents.action,
      actorUserId: auditEvents.actorUserId,
      actorName: actor.name,
      actorRoleKeys: actor.roleKeys,
      details: auditEvents.details,
    })
    .from(auditEvents)
    .leftJoin(actor, eq(actor.id, auditEvents.actorUserId))
    .where(where)
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await db.select({ value: count() }).from(auditEvents).where(where);
  return { rows, total: total?.value ?? 0 };
}

/** One past or booked visit of the chart. */
export interface ChartVisitRow {
  id: string;
  startsAt: Date;
  status: string;
  reason: string | null;
  doctorId: string;
  doctorName: string;
}

/** One prescription of the chart (its items are only counted). */
export interface ChartPrescriptionRow {
  id: string;
  issuedAt: Date;
  status: 'active' | 'cancelled';
  doctorId: string;
  doctorName: string;
  itemCount: number;
}

/** Everything the chart shows besides the patient row and documents, read in one statement. */
export interface ChartData {
  profile: PatientProfileRow | null;
  visits: ChartVisitRow[];
  /** Present when the clinical part was asked for. */
  clinical: {
    /** The reader's language (names of catalogue diagnoses); null when the reader no longer exists. */
    readerLanguage: string | null;
    allergies: WithPeople<AllergyRow>[];
    conditions: (WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null })[];
    medications: WithPeople<MedicationRow>[];
    prescriptions: ChartPrescriptionRow[];
  } | null;
}

/** An instant as whole epoch milliseconds in JSON (exact, whatever the session's TimeZone/DateStyle). */
const epochMsText = (column: string) => `floor(extract(epoch from ${column}) * 1000)::bigint`;
const epochMs = (column: string) => sql.raw(epochMsText(column));
const toDate = (value: number | string | null): Date | null =>
  value === null ? null : new Date(Number(value));
const toInstant = (value: number | string): Date => new Date(Number(value));

/**
 * The profile, visits and — when `clinical` — the reader's language, allergies, conditions,
 * medications and prescriptions of one chart, in a single round trip: each list is aggregated
 * into JSON by PostgreSQL with the same filters and order as its own query would use
 * (listAllergies, listConditions, listMedications, listPatientVisits, listPatientPrescriptions).
 */
export async function readChartData(
  db: Database,
  options: {
    patientId: string;
    readerUserId: string;
    clinical: boolean;
    includeRemoved: boolean;
    limit: number;
  },
): Promise<ChartData> {
  const { patientId } = options;
  const notRemoved = (alias: string) =>
    sql.raw(options.includeRemoved ? 'true' : `${alias}.removed_at is null`);
  const people = (alias: string) =>
    sql.raw(
      `'recordedByUserId', ${alias}.recorded_by_user_id, 'recordedByName', recorder.name, ` +
        `'recordedAt', ${epochMsText(`${alias}.recorded_at`)}, ` +
        `'removedAt', ${epochMsText(`${alias}.removed_at`)}, ` +
        `'removedByUserId', ${alias}.removed_by_user_id, 'removedByName', remover.name`,
    );
  const joinPeople = (alias: string) =>
    sql.raw(
      `left join users recorder on recorder.id = ${alias}.recorded_by_user_id ` +
        `left join users remover on remover.id = ${alias}.removed_by_user_id`,
    );
  const clinicalColumns = options.clinical
    ? sql`,
      (select language from users where id = ${options.readerUserId}) as reader_language,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by a.recorded_at desc, a.id desc) as ord, json_build_object(
          'id', a.id, 'patientUserId', a.patient_user_id, 'substance', a.substance,
          'reaction', a.reaction, 'severity', a.severity, ${people('a')}) as j
        from patient_allergies a ${joinPeople('a')}
        where a.patient_user_id = ${patientId} and ${notRemoved('a')}
      ) x) as allergies,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by c.recorded_at desc, c.id desc) as ord, json_build_object(
          'id', c.id, 'patientUserId', c.patient_user_id, 'diagnosisCode', c.diagnosis_code,
          'description', c.description, 'status', c.status, 'onsetDate', c.onset_date,
          'nameEs', d.name_es, 'nameEn', d.name_en, ${people('c')}) as j
        from patient_conditions c
        left join diagnosis_codes d on d.code = c.diagnosis_code
        ${joinPeople('c')}
        where c.patient_user_id = ${patientId} and ${notRemoved('c')}
      ) x) as conditions,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by m.recorded_at desc, m.id desc) as ord, json_build_object(
          'id', m.id, 'patientUserId', m.patient_user_id, 'name', m.name, 'dose', m.dose,
          'frequency', m.frequency, 'startedOn', m.started_on, 'stoppedOn', m.stopped_on, ${people('m')}) as j
        from patient_medications m ${joinPeople('m')}
        where m.patient_user_id = ${patientId} and ${notRemoved('m')}
      ) x) as medications,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by p.issued_at desc) as ord, json_build_object(
          'id', p.id, 'issuedAt', ${epochMs('p.issued_at')}, 'status', p.status,
          'doctorId', p.doctor_user_id, 'doctorName', doctor.name,
          'itemCount', (select count(*)::int from prescription_items i where i.prescription_id = p.id)) as j
        from prescriptions p
        join users doctor on doctor.id = p.doctor_user_id
        where p.patient_user_id = ${patientId}
        order by p.issued_at desc
        limit ${options.limit}
      ) x) as prescriptions`
    : sql``;
  const [row] = (await executeNamed(
    db,
    'records_chart',
    sql`
    select
      (select json_build_object(
        'userId', pp.user_id, 'sex', pp.sex,
        'identityDocumentType', pp.identity_document_type, 'identityDocumentNumber', pp.identity_document_number,
        'address', pp.address, 'bloodType', pp.blood_type,
        'emergencyContactName', pp.emergency_contact_name, 'emergencyContactPhone', pp.emergency_contact_phone,
        'emergencyContactRelation', pp.emergency_contact_relation, 'updatedByUserId', pp.updated_by_user_id,
        'createdAt', ${epochMs('pp.created_at')}, 'updatedAt', ${epochMs('pp.updated_at')})
        from patient_profiles pp where pp.user_id = ${patientId}) as profile,
      (select coalesce(json_agg(x.j order by x.ord), '[]'::json) from (
        select row_number() over (order by v.starts_at desc) as ord, json_build_object(
          'id', v.id, 'startsAt', ${epochMs('v.starts_at')}, 'status', v.status, 'reason', v.reason,
          'doctorId', v.doctor_user_id, 'doctorName', doctor.name) as j
        from appointments v
        join users doctor on doctor.id = v.doctor_user_id
        where v.patient_user_id = ${patientId}
        order by v.starts_at desc
        limit ${options.limit}
      ) x) as visits${clinicalColumns}
  `,
  )) as [Record<string, unknown>];
  const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
  type Raw = Record<string, unknown> & { recordedAt: number; removedAt: number | null };
  const withPeopleDates = <T>(raw: Raw): T =>
    ({ ...raw, recordedAt: toInstant(raw.recordedAt), removedAt: toDate(raw.removedAt) }) as T;
  const profile = json<(Record<string, unknown> & { createdAt: number; updatedAt: number }) | null>(
    row.profile,
  );
  return {
    profile:
      profile === null
        ? null
        : ({
            ...profile,
            createdAt: toInstant(profile.createdAt),
            updatedAt: toInstant(profile.updatedAt),
          } as PatientProfileRow),
    visits: json<(Omit<ChartVisitRow, 'startsAt'> & { startsAt: number })[]>(row.visits).map((visit) => ({
      ...visit,
      startsAt: toInstant(visit.startsAt),
    })),
    clinical: options.clinical
      ? {
          readerLanguage: (row.reader_language as string | null) ?? null,
          allergies: json<Raw[]>(row.allergies).map((raw) => withPeopleDates<WithPeople<AllergyRow>>(raw)),
          conditions: json<Raw[]>(row.conditions).map((raw) =>
            withPeopleDates<WithPeople<ConditionRow> & { nameEs: string | null; nameEn: string | null }>(raw),
          ),
          medications: json<Raw[]>(row.medications).map((raw) =>
            withPeopleDates<WithPeople<MedicationRow>>(raw),
          ),
          prescriptions: json<(Omit<ChartPrescriptionRow, 'issuedAt'> & { issuedAt: number })[]>(
            row.prescriptions,
          ).map((prescription) => ({ ...prescription, issuedAt: toInstant(prescription.issuedAt) })),
        }
      : null,
  };
}
