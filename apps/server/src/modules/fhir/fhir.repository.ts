import {
  and,
  arrayContains,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { executeNamed, type Database } from '../../db/client.js';
import {
  appointments,
  chartDocuments,
  patientAllergies,
  patientConditions,
  patientMedications,
  doctorProfiles,
  prescriptionItems,
  prescriptions,
  users,
  visitVitals,
} from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

/*
 * The few reads the FHIR mapping needs in shapes the other modules do not have (a page of
 * appointments by any of the FHIR search parameters, a patient's vitals, prescription items with
 * their prescription). Authorisation is never decided here: the callers ask the modules' policies.
 */

/** What the app's policies need about a person reading with a SMART token: their status and grants. */
export async function findUserGrants(
  db: Database,
  userId: string,
): Promise<{ status: string; permissions: string[]; roleKeys: string[] } | null> {
  const [row] = await db
    .select({
      status: users.status,
      // Qualified by hand: drizzle leaves a one-table select's columns unqualified.
      permissions: sql<string[]>`array(
        select distinct rp.permission from user_roles ur
        join role_permissions rp on rp.role_id = ur.role_id
        where ur.user_id = users.id)`,
      roleKeys: sql<string[]>`array(
        select r.key from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = users.id order by r.key)`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

export interface FhirPatientRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  dateOfBirth: string | null;
  language: string;
}

/** Patients by the FHIR Patient search parameters; `onlyIds` limits them (the reader's visible set). */
export async function searchPatientRows(
  db: Database,
  filter: {
    onlyIds: readonly string[] | null;
    treatedBy: string | null;
    name: string | null;
    email: string | null;
    birthdate: string | null;
    limit: number;
    offset: number;
  },
): Promise<{ rows: FhirPatientRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [arrayContains(users.roleKeys, ['patient'])];
  if (filter.onlyIds !== null) {
    conditions.push(filter.onlyIds.length === 0 ? sql`false` : inArray(users.id, [...filter.onlyIds]));
  }
  if (filter.treatedBy !== null) {
    conditions.push(
      sql`exists (select 1 from ${appointments} where ${appointments.doctorUserId} = ${filter.treatedBy}
        and ${appointments.patientUserId} = ${users.id} and ${appointments.status} <> 'cancelled')`,
    );
  }
  if (filter.name !== null) {
    conditions.push(ilike(users.name, likePattern(filter.name)));
  }
  if (filter.email !== null) {
    conditions.push(eq(sql`lower(${users.email})`, filter.email.toLowerCase()));
  }
  if (filter.birthdate !== null) {
    conditions.push(eq(users.dateOfBirth, filter.birthdate));
  }
  const where = and(...conditions);
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        phone: users.phone,
        dateOfBirth: users.dateOfBirth,
        language: users.language,
      })
      .from(users)
      .where(where)
      .orderBy(asc(users.name), asc(users.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}

export interface FhirAppointmentRow {
  id: string;
  patientUserId: string;
  patientName: string;
  doctorUserId: string;
  doctorName: string;
  startsAt: Date;
  endsAt: Date;
  status: (typeof appointments.$inferSelect)['status'];
  reason: string | null;
  createdAt: Date;
  cancellationReason: string | null;
  startedAt: Date | null;
  endedAt: Date | null;
}

const patientUser = sql`patient_user`;
const doctorUser = sql`doctor_user`;

function selectAppointments(db: Database) {
  return db
    .select({
      id: appointments.id,
      patientUserId: appointments.patientUserId,
      patientName: sql<string>`${patientUser}.name`,
      doctorUserId: appointments.doctorUserId,
      doctorName: sql<string>`${doctorUser}.name`,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      status: appointments.status,
      reason: appointments.reason,
      createdAt: appointments.createdAt,
      cancellationReason: appointments.cancellationReason,
      startedAt: appointments.startedAt,
      endedAt: appointments.endedAt,
    })
    .from(appointments)
    .innerJoin(sql`${users} as ${patientUser}`, sql`${patientUser}.id = ${appointments.patientUserId}`)
    .innerJoin(sql`${users} as ${doctorUser}`, sql`${doctorUser}.id = ${appointments.doctorUserId}`);
}

export async function findAppointmentRow(db: Database, id: string): Promise<FhirAppointmentRow | null> {
  const [row] = await selectAppointments(db).where(eq(appointments.id, id)).limit(1);
  return row ?? null;
}

export interface DateBound {
  op: 'eq' | 'ge' | 'gt' | 'le' | 'lt';
  start: Date;
  /** The end of the given precision (a day, a second): `eq` means within [start, end). */
  end: Date;
}

/** SQL conditions of FHIR date bounds on a timestamp column. */
export function dateConditions(column: AnyPgColumn, bounds: readonly DateBound[]): SQL[] {
  return bounds.map((bound) => {
    switch (bound.op) {
      case 'eq':
        return and(gte(column, bound.start), lt(column, bound.end))!;
      case 'ge':
        return gte(column, bound.start);
      case 'gt':
        return gte(column, bound.end);
      case 'le':
        return lt(column, bound.end);
      case 'lt':
        return lt(column, bound.start);
    }
  });
}

/** One page of appointments, soonest first, by patient, doctor, start and status. */
export async function searchAppointmentRows(
  db: Database,
  filter: {
    patientId: string | null;
    doctorId: string | null;
    statuses: readonly FhirAppointmentRow['status'][] | null;
    dates: readonly DateBound[];
    limit: number;
    offset: number;
  },
): Promise<{ rows: FhirAppointmentRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.patientId !== null) {
    conditions.push(eq(appointments.patientUserId, filter.patientId));
  }
  if (filter.doctorId !== null) {
    conditions.push(eq(appointments.doctorUserId, filter.doctorId));
  }
  if (filter.statuses !== null) {
    conditions.push(
      filter.statuses.length === 0 ? sql`false` : inArray(appointments.status, [...filter.statuses]),
    );
  }
  conditions.push(...dateConditions(appointments.startsAt, filter.dates));
  const where = and(...conditions);
  const [rows, [totals]] = await Promise.all([
    selectAppointments(db)
      .where(where)
      .orderBy(asc(appointments.startsAt), asc(appointments.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(appointments).where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}

export type VitalsRow = typeof visitVitals.$inferSelect;

/**
 * One page of a patient's observations, each a (vitals row, vital key) pair: the vitals rows
 * newest first, each row's vitals in the order of `keys` (only those it reports: any of
 * `columns` not null), within the date bounds on `reportedAt`. LIMIT/OFFSET in SQL; the total
 * counts observations, not rows.
 */
export async function searchVitalsObservations(
  db: Database,
  filter: {
    patientId: string;
    keys: readonly { key: string; columns: readonly (keyof VitalsRow)[] }[];
    dates: readonly DateBound[];
    limit: number;
    offset: number;
  },
): Promise<{ rows: { vitals: VitalsRow; key: string }[]; total: number }> {
  if (filter.keys.length === 0) {
    return { rows: [], total: 0 };
  }
  const column = (name: keyof VitalsRow) => visitVitals[name] as AnyPgColumn;
  // The keys asked for, in their order, as a constant table k(ord, key).
  const keys = sql`(values ${sql.join(
    filter.keys.map((entry, index) => sql`(${index}::int, ${entry.key}::text)`),
    sql`, `,
  )}) as k(ord, key)`;
  const reports = sql`case k.key ${sql.join(
    filter.keys.map(
      (entry) =>
        sql`when ${entry.key}::text then ${or(...entry.columns.map((name) => isNotNull(column(name))))}`,
    ),
    sql` `,
  )} else false end`;
  const where = and(
    eq(visitVitals.patientUserId, filter.patientId),
    reports,
    ...dateConditions(visitVitals.reportedAt, filter.dates),
  );
  const page = await db
    .select({ vitals: visitVitals, key: sql<string>`k.key`, total: sql<number>`count(*) over ()` })
    .from(visitVitals)
    .crossJoin(keys)
    .where(where)
    .orderBy(desc(visitVitals.reportedAt), desc(visitVitals.appointmentId), sql`k.ord`)
    .limit(filter.limit)
    .offset(filter.offset);
  let total = page.length === 0 ? 0 : Number(page[0]!.total);
  if (page.length === 0 && filter.offset > 0) {
    // Past the end: the window count has no row to ride on.
    const [counted] = await db.select({ total: count() }).from(visitVitals).crossJoin(keys).where(where);
    total = Number(counted?.total ?? 0);
  }
  return { rows: page.map(({ vitals, key }) => ({ vitals, key })), total };
}

/**
 * One page of a patient's DocumentReference entries: their chart documents not removed (the newest
 * `documentCap`) and, when `withPrescriptions`, their prescriptions (the newest `prescriptionCap`,
 * id `rx-<id>`), newest first (to the millisecond, as JavaScript dates compare), ties by id in
 * byte order. LIMIT/OFFSET in SQL; the total by a window count.
 */
export async function searchDocumentEntries(
  db: Database,
  filter: {
    patientId: string;
    withPrescriptions: boolean;
    documentCap: number;
    prescriptionCap: number;
    limit: number;
    offset: number;
  },
): Promise<{ entries: { kind: 'document' | 'prescription'; id: string }[]; total: number }> {
  const page = (limit: number, offset: number) =>
    executeNamed(
      db,
      'fhir_document_entries',
      sql`with entries as (
          (select d.id::text as id, 'document' as kind, d.created_at as at
            from chart_documents d
            where d.patient_user_id = ${filter.patientId} and d.removed_at is null
            order by d.created_at desc, d.id desc
            limit ${filter.documentCap})
          union all
          (select 'rx-' || p.id::text, 'prescription', p.issued_at
            from prescriptions p
            where ${filter.withPrescriptions}::boolean and p.patient_user_id = ${filter.patientId}
            order by p.issued_at desc, p.id desc
            limit ${filter.prescriptionCap})
        )
        select id, kind, count(*) over () as total from entries
        order by date_trunc('milliseconds', at) desc, id collate "C" asc
        limit ${limit} offset ${offset}`,
    ) as Promise<{ id: string; kind: 'document' | 'prescription'; total: string | number }[]>;
  let rows = await page(filter.limit, filter.offset);
  let total = rows.length === 0 ? 0 : Number(rows[0]!.total);
  if (rows.length === 0 && filter.offset > 0) {
    // Past the end: the window count has no row to ride on.
    rows = await page(1, 0);
    total = rows.length === 0 ? 0 : Number(rows[0]!.total);
    rows = [];
  }
  return {
    entries: rows.map((row) => ({
      kind: row.kind,
      id: row.kind === 'prescription' ? row.id.slice('rx-'.length) : row.id,
    })),
    total,
  };
}

export async function findVitalsRow(db: Database, appointmentId: string): Promise<VitalsRow | null> {
  const [row] = await db.select().from(visitVitals).where(eq(visitVitals.appointmentId, appointmentId));
  return row ?? null;
}

export interface PrescriptionItemWithOrder {
  item: typeof prescriptionItems.$inferSelect;
  prescription: typeof prescriptions.$inferSelect;
  doctorName: string;
}

function selectItems(db: Database) {
  return db
    .select({ item: prescriptionItems, prescription: prescriptions, doctorName: users.name })
    .from(prescriptionItems)
    .innerJoin(prescriptions, eq(prescriptions.id, prescriptionItems.prescriptionId))
    .innerJoin(users, eq(users.id, prescriptions.doctorUserId));
}

/** A patient's prescription items (each a MedicationRequest), newest prescription first. */
export async function searchPrescriptionItems(
  db: Database,
  filter: { patientId: string; status: 'active' | 'cancelled' | null; limit: number; offset: number },
): Promise<{ rows: PrescriptionItemWithOrder[]; total: number }> {
  const where = and(
    eq(prescriptions.patientUserId, filter.patientId),
    filter.status === null ? undefined : eq(prescriptions.status, filter.status),
  );
  const [rows, [totals]] = await Promise.all([
    selectItems(db)
      .where(where)
      .orderBy(desc(prescriptions.issuedAt), desc(prescriptions.id), asc(prescriptionItems.position))
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ total: count() })
      .from(prescriptionItems)
      .innerJoin(prescriptions, eq(prescriptions.id, prescriptionItems.prescriptionId))
      .where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}

export async function findPrescriptionItem(
  db: Database,
  itemId: string,
): Promise<PrescriptionItemWithOrder | null> {
  const [row] = await selectItems(db).where(eq(prescriptionItems.id, itemId)).limit(1);
  return row ?? null;
}

export interface PractitionerRow {
  id: string;
  name: string;
  email: string;
  licenseNumber: string | null;
  languages: string[] | null;
}

/** Doctors (users with the doctor role), by id and name. */
export async function searchPractitionerRows(
  db: Database,
  filter: { id: string | null; name: string | null; limit: number; offset: number },
): Promise<{ rows: PractitionerRow[]; total: number }> {
  const where = and(
    arrayContains(users.roleKeys, ['doctor']),
    filter.id === null ? undefined : eq(users.id, filter.id),
    filter.name === null ? undefined : ilike(users.name, likePattern(filter.name)),
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        licenseNumber: doctorProfiles.licenseNumber,
        languages: doctorProfiles.languages,
      })
      .from(users)
      .leftJoin(doctorProfiles, eq(doctorProfiles.userId, users.id))
      .where(where)
      .orderBy(asc(users.name), asc(users.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(users).where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}

/** Whose chart a document is in (removed ones too: the caller decides), or null. */
export async function findDocumentPatientId(db: Database, documentId: string): Promise<string | null> {
  const [row] = await db
    .select({ patientUserId: chartDocuments.patientUserId })
    .from(chartDocuments)
    .where(eq(chartDocuments.id, documentId));
  return row?.patientUserId ?? null;
}

/** Whose chart a list entry (allergy, condition, medication) is in, or null. */
export async function findChartListPatientId(
  db: Database,
  kind: 'allergies' | 'conditions' | 'medications',
  id: string,
): Promise<string | null> {
  const table = {
    allergies: patientAllergies,
    conditions: patientConditions,
    medications: patientMedications,
  }[kind];
  const [row] = await db.select({ patientUserId: table.patientUserId }).from(table).where(eq(table.id, id));
  return row?.patientUserId ?? null;
}
