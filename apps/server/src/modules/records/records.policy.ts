import { type ChartAccess, patientEditableProfileFields } from '@telemedicina/shared/records';
import type { Database } from '../../db/client.js';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { isUuid } from '../../lib/uuid.js';
import { findCareRelationship } from './care-relationship.js';
import { findPatientUser, findPatientUserTreatedBy, type PatientUserRow } from './patients.repository.js';
import { findEmergencyReason } from './record-access.repository.js';

/** How the actor reaches one patient's chart, decided before any chart data is read. */
export interface ChartGrant {
  patient: PatientUserRow;
  access: ChartAccess;
  /** Set for `access: 'emergency'`. */
  emergency: { accessId: string; expiresAt: Date; reason: string } | null;
}

export function notFound(): AppError {
  return appError('NOT_FOUND', 'No such patient.');
}

/**
 * Who reads a chart: the patient themself (records.read.own), a doctor (records.read) who treats
 * the patient or holds a live emergency access, and staff (patients.read.admin) for the
 * administrative part only. Anyone else — and a patient id that does not exist — gets 404, so a
 * chart's existence is not revealed.
 */
export async function authorizeChartRead(
  db: Database,
  actor: Actor,
  patientId: string,
  now: Date,
): Promise<ChartGrant> {
  if (!isUuid(patientId)) {
    throw notFound();
  }
  // A doctor's read learns whether they treat the patient with the patient row (one round trip).
  const isDoctor = actor.permissions.has('records.read');
  const found = isDoctor
    ? await findPatientUserTreatedBy(db, patientId, actor.userId)
    : await findPatientUser(db, patientId).then((row) =>
        row === null ? null : { patient: row, treating: false },
      );
  if (found === null) {
    throw notFound();
  }
  const { patient } = found;
  if (actor.userId === patientId && actor.permissions.has('records.read.own')) {
    return { patient, access: 'self', emergency: null };
  }
  if (isDoctor) {
    const relationship = found.treating
      ? ({ kind: 'treating' } as const)
      : await findCareRelationship(db, actor.userId, patientId, now);
    if (relationship.kind === 'treating') {
      return { patient, access: 'treating', emergency: null };
    }
    if (relationship.kind === 'emergency') {
      const reason = (await findEmergencyReason(db, relationship.accessId)) ?? '';
      return {
        patient,
        access: 'emergency',
        emergency: { accessId: relationship.accessId, expiresAt: relationship.expiresAt, reason },
      };
    }
  }
  if (actor.permissions.has('patients.read.admin')) {
    return { patient, access: 'administrative', emergency: null };
  }
  throw notFound();
}

/** Clinical lists are written by a doctor (records.write) who treats the patient or holds emergency access. */
export async function authorizeClinicalWrite(
  db: Database,
  actor: Actor,
  patientId: string,
  now: Date,
): Promise<ChartGrant> {
  const grant = await authorizeChartRead(db, actor, patientId, now);
  const isDoctor = grant.access === 'treating' || grant.access === 'emergency';
  if (!isDoctor || !actor.permissions.has('records.write')) {
    throw notFound();
  }
  return grant;
}

/**
 * Profile edits: a doctor with records.write (treating or emergency) changes any field; the
 * patient only their contact details and emergency contact (other fields → 403 naming them).
 */
export async function authorizeProfileWrite(
  db: Database,
  actor: Actor,
  patientId: string,
  fields: readonly string[],
  now: Date,
): Promise<ChartGrant> {
  const grant = await authorizeChartRead(db, actor, patientId, now);
  if (grant.access === 'self') {
    const editable: readonly string[] = patientEditableProfileFields;
    const refused = fields.filter((field) => !editable.includes(field));
    if (refused.length > 0) {
      throw appError('FORBIDDEN', 'Only your contact details can be changed here.', {
        fields: refused,
      });
    }
    return grant;
  }
  if (
    (grant.access === 'treating' || grant.access === 'emergency') &&
    actor.permissions.has('records.write')
  ) {
    return grant;
  }
  throw notFound();
}
