import type { AppointmentListQuery } from '@telemedicina/shared/booking';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import {
  aliasedTable,
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { appointments, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export type AppointmentRow = typeof appointments.$inferSelect;

/** An appointment with the names (and the doctor's zone) its presenter shows. */
export interface AppointmentWithPeople extends AppointmentRow {
  doctorName: string;
  doctorTimeZone: string;
  patientName: string;
}

const doctorUser = aliasedTable(users, 'doctor_user');
const patientUser = aliasedTable(users, 'patient_user');

const withPeople = {
  appointment: appointments,
  doctorName: doctorUser.name,
  doctorTimeZone: doctorUser.timeZone,
  patientName: patientUser.name,
};

function flatten(row: {
  appointment: AppointmentRow;
  doctorName: string;
  doctorTimeZone: string;
  patientName: string;
}): AppointmentWithPeople {
  return {
    ...row.appointment,
    doctorName: row.doctorName,
    doctorTimeZone: row.doctorTimeZone,
    patientName: row.patientName,
  };
}

function selectWithPeople(db: Database) {
  return db
    .select(withPeople)
    .from(appointments)
    .innerJoin(doctorUser, eq(doctorUser.id, appointments.doctorUserId))
    .innerJoin(patientUser, eq(patientUser.id, appointments.patientUserId));
}

export async function findAppointment(db: Database, id: string): Promise<AppointmentWithPeople | null> {
  const [row] = await selectWithPeople(db).where(eq(appointments.id, id));
  return row === undefined ? null : flatten(row);
}

export interface AppointmentScope {
  /** Only appointments where this user is the doctor or the patient; null = all. */
  participantUserId: string | null;
}

function listConditions(query: AppointmentListQuery, scope: AppointmentScope): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (scope.participantUserId !== null) {
    conditions.push(
      or(
        eq(appointments.doctorUserId, scope.participantUserId),
        eq(appointments.patientUserId, scope.participantUserId),
      ),
    );
  }
  if (query.status !== undefined) {
    conditions.push(eq(appointments.status, query.status));
  }
  if (query.from !== undefined) {
    conditions.push(gte(appointments.startsAt, new Date(query.from)));
  }
  if (query.to !== undefined) {
    conditions.push(lt(appointments.startsAt, new Date(query.to)));
  }
  if (query.doctorId !== undefined) {
    conditions.push(eq(appointments.doctorUserId, query.doctorId));
  }
  if (query.patientId !== undefined) {
    conditions.push(eq(appointments.patientUserId, query.patientId));
  }
  const q = query.q?.trim() ?? '';
  if (q !== '') {
    const pattern = likePattern(q);
    conditions.push(or(ilike(doctorUser.name, pattern), ilike(patientUser.name, pattern)));
  }
  const present = conditions.filter((condition): condition is SQL => condition !== undefined);
  return present.length === 0 ? undefined : and(...present);
}

/** One page of appointments in the scope, by start time. */
export async function listAppointments(
  db: Database,
  query: AppointmentListQuery,
  scope: AppointmentScope,
): Promise<{ rows: AppointmentWithPeople[]; total: number }> {
  const direction = query.order === 'desc' ? desc : asc;
  const where = listConditions(query, scope);
  const [rows, [totalRow]] = await Promise.all([
    selectWithPeople(db)
      .where(where)
      .orderBy(direction(appointments.startsAt), direction(appointments.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ value: count() })
      .from(appointments)
      .innerJoin(doctorUser, eq(doctorUser.id, appointments.doctorUserId))
      .innerJoin(patientUser, eq(patientUser.id, appointments.patientUserId))
      .where(where),
  ]);
  return { rows: rows.map(flatten), total: totalRow?.value ?? 0 };
}

/**
 * Serialises, until the end of the transaction `db`, the changes that put an appointment in the
 * doctor's agenda (booking, rescheduling). Without it, several transactions inserting the same
 * slot at once can each find the others' uncommitted rows in the exclusion constraint's index
 * and wait on one another: PostgreSQL then aborts one with a deadlock (40P01) instead of the
 * exclusion violation (23P01) that makes a clean 409. Held, the later ones see the winner's
 * committed row. Bookings of different doctors do not wait on each other.
 */
export async function lockDoctorAgenda(db: Database, doctorUserId: string): Promise<void> {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`appointments:doctor:${doctorUserId}`}, 0))`,
  );
}

/**
 * Inserts the appointment in one statement: the exclusion constraint
 * `appointments_doctor_no_overlap` refuses it (23P01) if another live
 * appointment of the doctor overlaps, whoever committed first.
 */
export async function insertAppointment(
  db: Database,
  appointment: typeof appointments.$inferInsert,
): Promise<AppointmentRow> {
  const [row] = await db.insert(appointments).values(appointment).returning();
  if (row === undefined) {
    throw new Error('insert into appointments returned nothing');
  }
  return row;
}

/**
 * Changes an appointment only while it is still in one of `fromStatuses`
 * (a concurrent change makes it answer null). One UPDATE, so a new time is
 * guarded by the exclusion constraint like an insert.
 */
export async function updateAppointmentIfStatus(
  db: Database,
  id: string,
  fromStatuses: readonly AppointmentStatus[],
  changes: Partial<
    Pick<
      typeof appointments.$inferInsert,
      'startsAt' | 'endsAt' | 'status' | 'cancelledAt' | 'cancellationReason' | 'cancelledBy' | 'updatedAt'
    >
  >,
): Promise<AppointmentRow | null> {
  const [row] = await db
    .update(appointments)
    .set(changes)
    .where(and(eq(appointments.id, id), inArray(appointments.status, [...fromStatuses])))
    .returning();
  return row ?? null;
}

/** Whether the user holds the `patient` role and an account that is not disabled. */
export async function isActivePatient(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ roleKeys: users.roleKeys, status: users.status })
    .from(users)
    .where(eq(users.id, userId));
  // Pending accounts count: a patient registered by reception is booked before setting a password.
  return row !== undefined && row.status !== 'disabled' && row.roleKeys.includes('patient');
}

/** The contact details and locale of the given users (emails and calendar files name them). */
export async function listNoticeRecipients(db: Database, userIds: string[]) {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      language: users.language,
      timeZone: users.timeZone,
    })
    .from(users)
    .where(inArray(users.id, userIds));
}

/** A user's language and zone, or null when there is no such user. */
export async function findUserLocale(
  db: Database,
  userId: string,
): Promise<{ language: string; timeZone: string } | null> {
  const [row] = await db
    .select({ language: users.language, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}
