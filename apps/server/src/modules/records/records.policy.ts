import { type ChartAccess, patientEditableProfileFields } from '@telemedicina/shared/records';
import type { Database } from '../../db/client.js';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { isUuid } from '../../lib/uuid.js';
import { findCareRelationship } from './care-relationship.js';
import {
  findPatientUser,
  findPatientUserTreatedBy,
  findPatientUsersTreatedBy,
  type PatientUserRow,
} from './patients.repository.js';
import { findEmergencyReason, findLiveEmergencyAccesses } from './record-access.repository.js';

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
  let relationship: ChartRelationship = { kind: 'none' };
  if (isDoctor && !readsOwnChart(actor, patientId)) {
    const care = found.treating
      ? ({ kind: 'treating' } as const)
      : await findCareRelationship(db, actor.userId, patientId, now);
    relationship =
      care.kind === 'emergency'
        ? { ...care, reason: (await findEmergencyReason(db, care.accessId)) ?? '' }
        : care;
  }
  const grant = chartGrantOf(actor, found.patient, relationship);
  if (grant === null) {
    throw notFound();
  }
  return grant;
}

/**
 * `authorizeChartRead` for many patients at once (a page of search results), by the same rules:
 * one query for the patient rows and the treating appointments, one more only when a doctor meets
 * patients they do not treat (their live emergency accesses). The map holds the patients the actor
 * may read; the others (not allowed, not a patient, not an id) are absent.
 */
export async function authorizeChartReads(
  db: Database,
  actor: Actor,
  patientIds: readonly string[],
  now: Date,
): Promise<Map<string, ChartGrant>> {
  const ids = [...new Set(patientIds)].filter((id) => isUuid(id));
  const isDoctor = actor.permissions.has('records.read');
  const found = await findPatientUsersTreatedBy(db, ids, isDoctor ? actor.userId : null);
  const untreated = isDoctor
    ? found
        .filter((row) => !row.treating && !readsOwnChart(actor, row.patient.id))
        .map((row) => row.patient.id)
    : [];
  const emergencies =
    untreated.length === 0
      ? new Map<string, { id: string; expiresAt: Date; reason: string }>()
      : await findLiveEmergencyAccesses(db, actor.userId, untreated, now);
  const grants = new Map<string, ChartGrant>();
  for (const { patient, treating } of found) {
    let relationship: ChartRelationship = { kind: 'none' };
    if (isDoctor && !readsOwnChart(actor, patient.id)) {
      const emergency = emergencies.get(patient.id);
      if (treating) {
        relationship = { kind: 'treating' };
      } else if (emergency !== undefined) {
        relationship = {
          kind: 'emergency',
          accessId: emergency.id,
          expiresAt: emergency.expiresAt,
          reason: emergency.reason,
        };
      }
    }
    const grant = chartGrantOf(actor, patient, relationship);
    if (grant !== null) {
      grants.set(patient.id, grant);
    }
  }
  return grants;
}

/** A doctor's relationship to a patient as the chart rules need it (the emergency with its reason). */
type ChartRelationship =
  | { kind: 'treating' }
  | { kind: 'emergency'; accessId: string; expiresAt: Date; reason: string }
  | { kind: 'none' };

function readsOwnChart(actor: Actor, patientId: string): boolean {
  return actor.userId === patientId && actor.permissions.has('records.read.own');
}

/**
 * The rules of chart reading, once the patient row and (for a doctor) the relationship are known:
 * the patient themself, then a doctor's treating or emergency relationship, then staff's
 * administrative view; null for anyone else.
 */
function chartGrantOf(
  actor: Actor,
  patient: PatientUserRow,
  relationship: ChartRelationship,
): ChartGrant | null {
  if (readsOwnChart(actor, patient.id)) {
    return { patient, access: 'self', emergency: null };
  }
  if (actor.permissions.has('records.read')) {
    if (relationship.kind === 'treating') {
      return { patient, access: 'treating', emergency: null };
    }
    if (relationship.kind === 'emergency') {
      const { accessId, expiresAt, reason } = relationship;
      return { patient, access: 'emergency', emergency: { accessId, expiresAt, reason } };
    }
  }
  if (actor.permissions.has('patients.read.admin')) {
    return { patient, access: 'administrative', emergency: null };
  }
  return null;
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
