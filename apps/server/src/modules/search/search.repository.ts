import { and, asc, eq, exists, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { appointments, roles, userRoles, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export interface UserHit {
  id: string;
  name: string;
  email: string;
  roles: { id: string; key: string; nameEs: string; nameEn: string }[];
}

export interface PatientHit {
  id: string;
  name: string;
  email: string;
}

export interface AppointmentHit {
  id: string;
  startsAt: Date;
  status: (typeof appointments.$inferSelect)['status'];
  doctorName: string;
  patientName: string;
}

function nameOrEmailMatches(text: string): SQL | undefined {
  const pattern = likePattern(text);
  return or(ilike(users.name, pattern), ilike(users.email, pattern));
}

/** Accounts whose name or email contains `text`, by name, with their roles. */
export async function searchUsers(db: Database, text: string, limit: number): Promise<UserHit[]> {
  const rows = await db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(nameOrEmailMatches(text))
    .orderBy(asc(users.name), asc(users.id))
    .limit(limit);
  if (rows.length === 0) {
    return [];
  }
  const roleRows = await db
    .select({
      userId: userRoles.userId,
      id: roles.id,
      key: roles.key,
      nameEs: roles.nameEs,
      nameEn: roles.nameEn,
    })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(
      inArray(
        userRoles.userId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(roles.key));
  return rows.map((row) => ({
    ...row,
    roles: roleRows
      .filter((role) => role.userId === row.id)
      .map(({ id, key, nameEs, nameEn }) => ({ id, key, nameEs, nameEn })),
  }));
}

/**
 * Patients (holders of the patient role) whose name or email contains
 * `text`, by name; with `doctorId`, only those with an appointment with that doctor.
 */
export async function searchPatients(
  db: Database,
  text: string,
  limit: number,
  doctorId: string | null,
): Promise<PatientHit[]> {
  const isPatient = exists(
    db
      .select({ one: sql`1` })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(and(eq(userRoles.userId, users.id), eq(roles.key, 'patient'))),
  );
  const seesDoctor =
    doctorId === null
      ? undefined
      : exists(
          db
            .select({ one: sql`1` })
            .from(appointments)
            .where(and(eq(appointments.patientUserId, users.id), eq(appointments.doctorUserId, doctorId))),
        );
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(and(nameOrEmailMatches(text), isPatient, seesDoctor))
    .orderBy(asc(users.name), asc(users.id))
    .limit(limit);
}

/**
 * Appointments whose doctor's or patient's name contains `text`, nearest to
 * `now` first; with `participantId`, only those where that user is the doctor or the patient.
 */
export async function searchAppointments(
  db: Database,
  text: string,
  limit: number,
  participantId: string | null,
  now: Date,
): Promise<AppointmentHit[]> {
  const doctor = alias(users, 'doctor');
  const patient = alias(users, 'patient');
  const pattern = likePattern(text);
  return db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      status: appointments.status,
      doctorName: doctor.name,
      patientName: patient.name,
    })
    .from(appointments)
    .innerJoin(doctor, eq(doctor.id, appointments.doctorUserId))
    .innerJoin(patient, eq(patient.id, appointments.patientUserId))
    .where(
      and(
        or(ilike(doctor.name, pattern), ilike(patient.name, pattern)),
        participantId === null
          ? undefined
          : or(eq(appointments.doctorUserId, participantId), eq(appointments.patientUserId, participantId)),
      ),
    )
    .orderBy(
      sql`abs(extract(epoch from (${appointments.startsAt} - ${now.toISOString()}::timestamptz)))`,
      asc(appointments.id),
    )
    .limit(limit);
}
