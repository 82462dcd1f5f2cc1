import type { Database } from '../../db/client.js';
import { hasTreatingAppointment } from './patients.repository.js';
import { findLiveEmergencyAccess } from './record-access.repository.js';

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
  if (await hasTreatingAppointment(db, doctorUserId, patientUserId)) {
    return { kind: 'treating' };
  }
  const emergency = await findLiveEmergencyAccess(db, doctorUserId, patientUserId, now);
  return emergency === null
    ? { kind: 'none' }
    : { kind: 'emergency', accessId: emergency.id, expiresAt: emergency.expiresAt };
}
