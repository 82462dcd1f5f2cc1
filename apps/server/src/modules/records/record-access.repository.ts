import { recordAccessActionDomains } from '@telemedicina/shared/audit-actions';
import { aliasedTable, and, count, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditEvents, emergencyAccesses, users } from '../../db/schema.js';

/** The doctor's emergency access to the patient's record that is still live at `now` (the latest-ending one). */
export async function findLiveEmergencyAccess(
  db: Database,
  doctorUserId: string,
  patientUserId: string,
  now: Date,
): Promise<{ id: string; expiresAt: Date } | null> {
  const [emergency] = await db
    .select({ id: emergencyAccesses.id, expiresAt: emergencyAccesses.expiresAt })
    .from(emergencyAccesses)
    .where(
      and(
        eq(emergencyAccesses.doctorUserId, doctorUserId),
        eq(emergencyAccesses.patientUserId, patientUserId),
        gt(emergencyAccesses.expiresAt, now),
      ),
    )
    .orderBy(sql`${emergencyAccesses.expiresAt} desc`)
    .limit(1);
  return emergency ?? null;
}

/**
 * `findLiveEmergencyAccess` for many patients of one doctor in one query: per patient the live
 * access that ends last, with its reason.
 */
export async function findLiveEmergencyAccesses(
  db: Database,
  doctorUserId: string,
  patientUserIds: readonly string[],
  now: Date,
): Promise<Map<string, { id: string; expiresAt: Date; reason: string }>> {
  if (patientUserIds.length === 0) {
    return new Map();
  }
  const rows = await db
    .selectDistinctOn([emergencyAccesses.patientUserId], {
      patientUserId: emergencyAccesses.patientUserId,
      id: emergencyAccesses.id,
      expiresAt: emergencyAccesses.expiresAt,
      reason: emergencyAccesses.reason,
    })
    .from(emergencyAccesses)
    .where(
      and(
        eq(emergencyAccesses.doctorUserId, doctorUserId),
        inArray(emergencyAccesses.patientUserId, [...patientUserIds]),
        gt(emergencyAccesses.expiresAt, now),
      ),
    )
    .orderBy(emergencyAccesses.patientUserId, desc(emergencyAccesses.expiresAt));
  return new Map(rows.map(({ patientUserId, ...access }) => [patientUserId, access]));
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
 * left out (but not an app's reads on their behalf through the FHIR API: `details.client`), their own
 * changes (reported vitals, uploads, exports) are kept.
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
    sql`not (${auditEvents.action} like '%.viewed' and ${auditEvents.actorUserId} is not distinct from ${patientId}::uuid
      and coalesce(${auditEvents.details}->'client', 'null'::jsonb) = 'null'::jsonb)`,
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
