import { and, eq, gt, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { appointments, emergencyAccesses } from '../../db/schema.js';

/** How a doctor reaches a patient's record: as one of their doctors, under emergency access, or not at all. */
export type CareRelationship =
  { kind: 'treating' } | { kind: 'emergency'; accessId: string; expiresAt: Date } | { kind: 'none' };

/**
 * A doctor treats a patient when they have at least one appointment together that was not
 * cancelled (past, present or booked). Otherwise only a live emergency access (reasoned, audited,
 * short-lived) opens the record. Everyone else gets 404 from the routes, never 403.
 */
export async function findCareRelationship(
  db: Database,
  doctorUserId: string,
  patientUserId: string,
  now: Date,
): Promise<CareRelationship> {
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
  if (treating !== undefined) {
    return { kind: 'treating' };
  }
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
  return emergency === undefined
    ? { kind: 'none' }
    : { kind: 'emergency', accessId: emergency.id, expiresAt: emergency.expiresAt };
}
