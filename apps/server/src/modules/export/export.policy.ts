import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { findPatientUser, type PatientUserRow } from '../records/patients.repository.js';
import { isUuid } from '../../lib/uuid.js';

/** Who asked for an export, as the audit trail and record.json tell it. */
export type ExportRequester = 'patient' | 'administrator';

export interface ExportGrant {
  patient: PatientUserRow;
  by: ExportRequester;
}

const notFound = () => appError('NOT_FOUND', 'No such patient.');

/**
 * `GET /me/record/export`: the signed-in patient (records.read.own, checked by the route) gets
 * their own record; an account without the patient role has no record (404).
 */
export async function authorizeOwnExport(db: Database, actor: Actor): Promise<ExportGrant> {
  if (!actor.permissions.has('records.read.own')) {
    throw appError('FORBIDDEN', 'You may not export a record.');
  }
  const patient = await findPatientUser(db, actor.userId);
  if (patient === null) {
    throw notFound();
  }
  return { patient, by: 'patient' };
}

/**
 * `POST /patients/:patientId/export`: records.export (administrators; checked by the route and
 * again here) exports any patient's whole record, with a reason. Unknown ids, and users who are
 * not patients, answer 404.
 */
export async function authorizeAdminExport(
  db: Database,
  actor: Actor,
  patientId: string,
): Promise<ExportGrant> {
  if (!actor.permissions.has('records.export')) {
    throw appError('FORBIDDEN', 'You may not export records.');
  }
  const patient = isUuid(patientId) ? await findPatientUser(db, patientId) : null;
  if (patient === null) {
    throw notFound();
  }
  return { patient, by: 'administrator' };
}
