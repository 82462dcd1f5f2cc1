import { and, asc, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import { liveAppointmentStatuses } from '@telemedicina/shared/booking';
import type { Database } from '../../db/client.js';
import {
  appointments,
  availabilityExceptions,
  availabilityRules,
  doctorProfiles,
  users,
} from '../../db/schema.js';

export type AvailabilityRuleRow = typeof availabilityRules.$inferSelect;
export type AvailabilityExceptionRow = typeof availabilityExceptions.$inferSelect;

/** What slot search and booking need to know about a doctor. */
export interface DoctorScheduleInfo {
  userId: string;
  name: string;
  timeZone: string;
  status: string;
  visitMinutes: number;
  acceptsNewPatients: boolean;
}

/** The doctor (a user with a doctor profile), or null. */
export async function findDoctorScheduleInfo(
  db: Database,
  userId: string,
): Promise<DoctorScheduleInfo | null> {
  const [row] = await db
    .select({
      userId: doctorProfiles.userId,
      name: users.name,
      timeZone: users.timeZone,
      status: users.status,
      visitMinutes: doctorProfiles.visitMinutes,
      acceptsNewPatients: doctorProfiles.acceptsNewPatients,
    })
    .from(doctorProfiles)
    .innerJoin(users, eq(users.id, doctorProfiles.userId))
    .where(eq(doctorProfiles.userId, userId));
  return row ?? null;
}

export async function listAvailabilityRules(
  db: Database,
  doctorUserId: string,
): Promise<AvailabilityRuleRow[]> {
  return db
    .select()
    .from(availabilityRules)
    .where(eq(availabilityRules.doctorUserId, doctorUserId))
    .orderBy(
      asc(availabilityRules.weekday),
      asc(availabilityRules.startTime),
      asc(availabilityRules.validFrom),
    );
}

/** Replaces a doctor's weekly rules with `rules` (call inside a transaction). */
export async function replaceAvailabilityRules(
  db: Database,
  doctorUserId: string,
  rules: readonly Omit<typeof availabilityRules.$inferInsert, 'doctorUserId'>[],
): Promise<void> {
  await db.delete(availabilityRules).where(eq(availabilityRules.doctorUserId, doctorUserId));
  if (rules.length > 0) {
    await db.insert(availabilityRules).values(rules.map((rule) => ({ ...rule, doctorUserId })));
  }
}

/** Exceptions that overlap [from, to) (either end open when null), earliest first. */
export async function listAvailabilityExceptions(
  db: Database,
  doctorUserId: string,
  from: Date | null,
  to: Date | null,
): Promise<AvailabilityExceptionRow[]> {
  return db
    .select()
    .from(availabilityExceptions)
    .where(
      and(
        eq(availabilityExceptions.doctorUserId, doctorUserId),
        from === null ? undefined : gt(availabilityExceptions.endsAt, from),
        to === null ? undefined : lt(availabilityExceptions.startsAt, to),
      ),
    )
    .orderBy(asc(availabilityExceptions.startsAt), asc(availabilityExceptions.id));
}

export async function insertAvailabilityException(
  db: Database,
  exception: typeof availabilityExceptions.$inferInsert,
): Promise<AvailabilityExceptionRow> {
  const [row] = await db.insert(availabilityExceptions).values(exception).returning();
  if (row === undefined) {
    throw new Error('insert into availability_exceptions returned nothing');
  }
  return row;
}

/** Deletes one exception of the doctor; resolves with it, or null when there was none. */
export async function deleteAvailabilityException(
  db: Database,
  doctorUserId: string,
  id: string,
): Promise<AvailabilityExceptionRow | null> {
  const [row] = await db
    .delete(availabilityExceptions)
    .where(and(eq(availabilityExceptions.id, id), eq(availabilityExceptions.doctorUserId, doctorUserId)))
    .returning();
  return row ?? null;
}

/**
 * The doctor's live appointments (those holding their time: not cancelled,
 * not no-show) that overlap [from, to); `exceptId` leaves one out (the
 * appointment being rescheduled).
 */
export async function findBusyIntervals(
  db: Database,
  doctorUserId: string,
  from: Date,
  to: Date,
  exceptId: string | null = null,
): Promise<{ start: Date; end: Date }[]> {
  return db
    .select({ start: appointments.startsAt, end: appointments.endsAt })
    .from(appointments)
    .where(
      and(
        eq(appointments.doctorUserId, doctorUserId),
        inArray(appointments.status, [...liveAppointmentStatuses]),
        gt(appointments.endsAt, from),
        lt(appointments.startsAt, to),
        exceptId === null ? undefined : ne(appointments.id, exceptId),
      ),
    )
    .orderBy(asc(appointments.startsAt));
}

/** The weekly rules of several doctors in one query, by doctor then weekday, start and validity. */
export async function listAvailabilityRulesOfMany(
  db: Database,
  doctorUserIds: readonly string[],
): Promise<AvailabilityRuleRow[]> {
  if (doctorUserIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(availabilityRules)
    .where(inArray(availabilityRules.doctorUserId, [...doctorUserIds]))
    .orderBy(
      asc(availabilityRules.doctorUserId),
      asc(availabilityRules.weekday),
      asc(availabilityRules.startTime),
      asc(availabilityRules.validFrom),
    );
}

/** The exceptions of several doctors that overlap [from, to), in one query, earliest first. */
export async function listAvailabilityExceptionsOfMany(
  db: Database,
  doctorUserIds: readonly string[],
  from: Date,
  to: Date,
): Promise<AvailabilityExceptionRow[]> {
  if (doctorUserIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(availabilityExceptions)
    .where(
      and(
        inArray(availabilityExceptions.doctorUserId, [...doctorUserIds]),
        gt(availabilityExceptions.endsAt, from),
        lt(availabilityExceptions.startsAt, to),
      ),
    )
    .orderBy(asc(availabilityExceptions.startsAt), asc(availabilityExceptions.id));
}

/** The live appointments of several doctors that overlap [from, to), in one query, earliest first. */
export async function findBusyIntervalsOfMany(
  db: Database,
  doctorUserIds: readonly string[],
  from: Date,
  to: Date,
): Promise<{ doctorUserId: string; start: Date; end: Date }[]> {
  if (doctorUserIds.length === 0) {
    return [];
  }
  return db
    .select({
      doctorUserId: appointments.doctorUserId,
      start: appointments.startsAt,
      end: appointments.endsAt,
    })
    .from(appointments)
    .where(
      and(
        inArray(appointments.doctorUserId, [...doctorUserIds]),
        inArray(appointments.status, [...liveAppointmentStatuses]),
        gt(appointments.endsAt, from),
        lt(appointments.startsAt, to),
      ),
    )
    .orderBy(asc(appointments.startsAt));
}

/** Whether the patient has ever had an appointment with the doctor that was not cancelled. */
export async function hasSeenDoctor(
  db: Database,
  doctorUserId: string,
  patientUserId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: appointments.id })
    .from(appointments)
    .where(
      and(
        eq(appointments.doctorUserId, doctorUserId),
        eq(appointments.patientUserId, patientUserId),
        inArray(appointments.status, [
          'confirmed',
          'requested',
          'checked_in',
          'in_progress',
          'completed',
          'no_show',
        ]),
      ),
    )
    .limit(1);
  return row !== undefined;
}
