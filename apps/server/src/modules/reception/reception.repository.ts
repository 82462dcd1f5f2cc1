import { and, arrayContains, asc, eq, gt, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import type { Database } from '../../db/client.js';
import {
  appointments,
  availabilityExceptions,
  availabilityRules,
  doctorProfiles,
  users,
} from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

/** A doctor as the clinic's day shows them. */
export interface DayDoctorRow {
  userId: string;
  name: string;
  visitMinutes: number;
}

/** An appointment of the day, with its patient's name. */
export interface DayAppointmentRow {
  id: string;
  doctorUserId: string;
  patientUserId: string;
  patientName: string;
  startsAt: Date;
  endsAt: Date;
  status: AppointmentStatus;
}

/**
 * The active doctors (a user with a doctor profile), by name; only `onlyDoctorId` when given
 * (a doctor reading their own day).
 */
export async function listDayDoctors(db: Database, onlyDoctorId: string | null): Promise<DayDoctorRow[]> {
  return db
    .select({ userId: doctorProfiles.userId, name: users.name, visitMinutes: doctorProfiles.visitMinutes })
    .from(doctorProfiles)
    .innerJoin(users, eq(users.id, doctorProfiles.userId))
    .where(and(eq(users.status, 'active'), onlyDoctorId === null ? undefined : eq(users.id, onlyDoctorId)))
    .orderBy(asc(users.name), asc(users.id));
}

/** The weekly rules of several doctors, in one query. */
export async function listRulesOf(db: Database, doctorIds: readonly string[]) {
  return db
    .select()
    .from(availabilityRules)
    .where(inArray(availabilityRules.doctorUserId, [...doctorIds]))
    .orderBy(asc(availabilityRules.weekday), asc(availabilityRules.startTime));
}

/** The exceptions of several doctors that overlap [from, to), in one query. */
export async function listExceptionsOf(db: Database, doctorIds: readonly string[], from: Date, to: Date) {
  return db
    .select()
    .from(availabilityExceptions)
    .where(
      and(
        inArray(availabilityExceptions.doctorUserId, [...doctorIds]),
        gt(availabilityExceptions.endsAt, from),
        lt(availabilityExceptions.startsAt, to),
      ),
    )
    .orderBy(asc(availabilityExceptions.startsAt));
}

/** Every appointment of several doctors that overlaps [from, to), any status, with the patient's name. */
export async function listAppointmentsOf(
  db: Database,
  doctorIds: readonly string[],
  from: Date,
  to: Date,
): Promise<DayAppointmentRow[]> {
  return db
    .select({
      id: appointments.id,
      doctorUserId: appointments.doctorUserId,
      patientUserId: appointments.patientUserId,
      patientName: users.name,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      status: appointments.status,
    })
    .from(appointments)
    .innerJoin(users, eq(users.id, appointments.patientUserId))
    .where(
      and(
        inArray(appointments.doctorUserId, [...doctorIds]),
        gt(appointments.endsAt, from),
        lt(appointments.startsAt, to),
      ),
    )
    .orderBy(asc(appointments.startsAt), asc(appointments.id));
}

/** A patient found by reception. */
export interface PatientMatchRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  dateOfBirth: string | null;
  hasPassword: boolean;
  status: string;
}

/** What a receptionist typed, read as whichever kinds of search term it can be. */
export interface PatientLookupTerms {
  text: string;
  /** The digits of a phone number (at least 4), else null. */
  phoneDigits: string | null;
  /** A calendar date `YYYY-MM-DD`, else null. */
  dateOfBirth: string | null;
}

/**
 * Patients (not disabled) whose name or email contains the text, whose phone contains the digits,
 * or who were born on the date; at most `limit`, by name.
 */
export async function findPatients(
  db: Database,
  terms: PatientLookupTerms,
  limit: number,
): Promise<PatientMatchRow[]> {
  const pattern = likePattern(terms.text);
  const matches: SQL[] = [ilike(users.name, pattern), ilike(users.email, pattern)];
  if (terms.phoneDigits !== null) {
    matches.push(
      sql`regexp_replace(coalesce(${users.phone}, ''), '[^0-9]', '', 'g') like ${likePattern(terms.phoneDigits)}`,
    );
  }
  if (terms.dateOfBirth !== null) {
    matches.push(eq(users.dateOfBirth, terms.dateOfBirth));
  }
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      phone: users.phone,
      dateOfBirth: users.dateOfBirth,
      hasPassword: sql<boolean>`${users.passwordHash} is not null`,
      status: users.status,
    })
    .from(users)
    .where(
      and(arrayContains(users.roleKeys, ['patient']), sql`${users.status} <> 'disabled'`, or(...matches)),
    )
    .orderBy(asc(users.name), asc(users.id))
    .limit(limit);
}
