import { recordAccessActionDomains } from '@telemedicina/shared/audit-actions';
import { aliasedTable, and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  auditEvents,
  availabilityRules,
  doctorProfiles,
  doctorSpecialties,
  specialties,
  users,
} from '../../db/schema.js';
import { dateConditions, type DateBound } from './fhir.repository.js';

/*
 * The reads behind Schedule, PractitionerRole and AuditEvent in the shapes FHIR pages need
 * (a page in SQL, with its total). Authorisation is never decided here: the handlers ask the
 * modules' policies.
 */

export interface ScheduleRow {
  doctorId: string;
  doctorName: string;
  status: string;
  timeZone: string;
  visitMinutes: number;
  acceptsNewPatients: boolean;
}

/** Doctors with a profile (each has one Schedule), by id and whether their account is active. */
export async function searchScheduleRows(
  db: Database,
  filter: { doctorIds: readonly string[] | null; active: boolean | null; limit: number; offset: number },
): Promise<{ rows: ScheduleRow[]; total: number }> {
  const where = and(
    filter.doctorIds === null
      ? undefined
      : filter.doctorIds.length === 0
        ? sql`false`
        : inArray(doctorProfiles.userId, [...filter.doctorIds]),
    filter.active === null
      ? undefined
      : filter.active
        ? eq(users.status, 'active')
        : sql`${users.status} <> 'active'`,
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        doctorId: doctorProfiles.userId,
        doctorName: users.name,
        status: users.status,
        timeZone: users.timeZone,
        visitMinutes: doctorProfiles.visitMinutes,
        acceptsNewPatients: doctorProfiles.acceptsNewPatients,
      })
      .from(doctorProfiles)
      .innerJoin(users, eq(users.id, doctorProfiles.userId))
      .where(where)
      .orderBy(asc(users.name), asc(doctorProfiles.userId))
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ total: count() })
      .from(doctorProfiles)
      .innerJoin(users, eq(users.id, doctorProfiles.userId))
      .where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}

export interface PractitionerRoleRow {
  doctorId: string;
  doctorName: string;
  status: string;
  /** Null for a doctor without any specialty (one role without a specialty). */
  specialtyId: string | null;
  specialtyEs: string | null;
  specialtyEn: string | null;
}

/** Doctor × specialty (a doctor without specialties once), by doctor and specialty. */
export async function searchPractitionerRoleRows(
  db: Database,
  filter: {
    doctorId: string | null;
    /** A specialty id, or the doctor's role without specialty (`none`). */
    specialtyId: string | null;
    limit: number;
    offset: number;
  },
): Promise<{ rows: PractitionerRoleRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.doctorId !== null) {
    conditions.push(eq(doctorProfiles.userId, filter.doctorId));
  }
  if (filter.specialtyId === 'none') {
    conditions.push(sql`${doctorSpecialties.specialtyId} is null`);
  } else if (filter.specialtyId !== null) {
    conditions.push(eq(doctorSpecialties.specialtyId, filter.specialtyId));
  }
  const where = and(...conditions);
  const base = () =>
    db
      .select({
        doctorId: doctorProfiles.userId,
        doctorName: users.name,
        status: users.status,
        specialtyId: doctorSpecialties.specialtyId,
        specialtyEs: specialties.nameEs,
        specialtyEn: specialties.nameEn,
      })
      .from(doctorProfiles)
      .innerJoin(users, eq(users.id, doctorProfiles.userId))
      .leftJoin(doctorSpecialties, eq(doctorSpecialties.doctorUserId, doctorProfiles.userId))
      .leftJoin(specialties, eq(specialties.id, doctorSpecialties.specialtyId));
  const [rows, [totals]] = await Promise.all([
    base()
      .where(where)
      .orderBy(asc(users.name), asc(doctorProfiles.userId), asc(specialties.nameEs))
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ total: count() })
      .from(doctorProfiles)
      .leftJoin(doctorSpecialties, eq(doctorSpecialties.doctorUserId, doctorProfiles.userId))
      .where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}

export interface WeeklyHoursRow {
  weekday: number;
  startTime: string;
  endTime: string;
}

/** The doctor's weekly hours as they stand (rules valid today or with no limits), by weekday. */
export async function listWeeklyHours(
  db: Database,
  doctorId: string,
  today: string,
): Promise<WeeklyHoursRow[]> {
  return db
    .select({
      weekday: availabilityRules.weekday,
      startTime: availabilityRules.startTime,
      endTime: availabilityRules.endTime,
    })
    .from(availabilityRules)
    .where(
      and(
        eq(availabilityRules.doctorUserId, doctorId),
        sql`(${availabilityRules.validFrom} is null or ${availabilityRules.validFrom} <= ${today})`,
        sql`(${availabilityRules.validUntil} is null or ${availabilityRules.validUntil} >= ${today})`,
      ),
    )
    .orderBy(asc(availabilityRules.weekday), asc(availabilityRules.startTime));
}

const actor = aliasedTable(users, 'actor');

export interface AccessEventRow {
  id: number;
  at: Date;
  action: string;
  patientId: string;
  actorUserId: string | null;
  actorName: string | null;
  actorRoleKeys: string[] | null;
  details: Record<string, unknown>;
}

/**
 * The events of a patient's access log ("who saw my record"): the same selection as
 * records/record-access.repository's listRecordAccessEvents (the patient's page), newest first,
 * with FHIR's date bounds and a page by offset; `id` picks one.
 */
export async function searchAccessEvents(
  db: Database,
  filter: {
    patientId: string | null;
    id: number | null;
    dates: readonly DateBound[];
    limit: number;
    offset: number;
  },
): Promise<{ rows: AccessEventRow[]; total: number }> {
  const where = and(
    eq(auditEvents.targetType, 'patient'),
    filter.patientId === null ? undefined : eq(auditEvents.targetId, filter.patientId),
    filter.id === null ? undefined : eq(auditEvents.id, filter.id),
    or(...recordAccessActionDomains.map((domain) => sql`${auditEvents.action} like ${`${domain}.%`}`)),
    sql`not (${auditEvents.action} like '%.viewed' and ${auditEvents.actorUserId}::text is not distinct from ${auditEvents.targetId}
      and coalesce(${auditEvents.details}->'client', 'null'::jsonb) = 'null'::jsonb)`,
    ...dateConditions(auditEvents.at, filter.dates),
  );
  const [rows, [totals]] = await Promise.all([
    db
      .select({
        id: auditEvents.id,
        at: auditEvents.at,
        action: auditEvents.action,
        patientId: sql<string>`${auditEvents.targetId}`,
        actorUserId: auditEvents.actorUserId,
        actorName: actor.name,
        actorRoleKeys: actor.roleKeys,
        details: auditEvents.details,
      })
      .from(auditEvents)
      .leftJoin(actor, eq(actor.id, auditEvents.actorUserId))
      .where(where)
      .orderBy(desc(auditEvents.at), desc(auditEvents.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(auditEvents).where(where),
  ]);
  return { rows, total: Number(totals?.total ?? 0) };
}
