import type { AppointmentStatus } from '@telemedicina/shared/common';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { findCareRelationship } from '../records/care-relationship.js';
import { findEmergencyReason } from '../records/record-access.repository.js';
import type { AppointmentRow } from './notes.repository.js';

/**
 * How the actor reaches the note and vitals of one appointment: its patient (`self`), its doctor
 * (`author`), another doctor who treats the patient or holds a live emergency access. `none`
 * never leaves this file: it answers 404, so an appointment's existence is not revealed.
 */
export type NoteAccess =
  | { kind: 'self' }
  | { kind: 'author' }
  | { kind: 'treating' }
  | { kind: 'emergency'; accessId: string; reason: string };

export const notFound = () => appError('NOT_FOUND', 'No such appointment or note.');

/**
 * Statuses whose visit can be documented: a confirmed visit (the doctor prepares the note before
 * the call, e.g. from the reason for the visit), one checked in, running or completed. A request
 * not yet confirmed, a cancelled visit and a no-show have nothing to document.
 */
export const documentableStatuses: readonly AppointmentStatus[] = [
  'confirmed',
  'checked_in',
  'in_progress',
  'completed',
];

/** Statuses whose patient may still report vitals (before or during the visit, or right after). */
export const vitalsStatuses: readonly AppointmentStatus[] = [
  'requested',
  'confirmed',
  'checked_in',
  'in_progress',
  'completed',
];

/** Who reads the note or vitals of an appointment; everyone else gets 404. */
export async function resolveNoteAccess(
  db: Database,
  actor: Actor,
  appointment: AppointmentRow,
  now: Date,
): Promise<NoteAccess> {
  if (actor.userId === appointment.patientUserId) {
    if (actor.permissions.has('records.read.own')) {
      return { kind: 'self' };
    }
    throw notFound();
  }
  if (!actor.permissions.has('records.read')) {
    throw notFound();
  }
  if (actor.userId === appointment.doctorUserId) {
    return { kind: 'author' };
  }
  const relationship = await findCareRelationship(db, actor.userId, appointment.patientUserId, now);
  if (relationship.kind === 'treating') {
    return { kind: 'treating' };
  }
  if (relationship.kind === 'emergency') {
    const reason = (await findEmergencyReason(db, relationship.accessId)) ?? '';
    return { kind: 'emergency', accessId: relationship.accessId, reason };
  }
  throw notFound();
}

/**
 * Writing the draft (create, save, diagnoses, sign): only the appointment's doctor with
 * records.write. Someone who may read the note but not write it gets 403; nobody else learns
 * that the appointment exists (404).
 */
export async function requireAuthor(
  db: Database,
  actor: Actor,
  appointment: AppointmentRow,
  now: Date,
): Promise<NoteAccess> {
  const access = await resolveNoteAccess(db, actor, appointment, now);
  if (access.kind !== 'author' || !actor.permissions.has('records.write')) {
    throw appError('FORBIDDEN', "Only the visit's doctor writes and signs its note.");
  }
  return access;
}

/** Addenda: the note's doctor or another doctor treating the patient (or under emergency access). */
export async function requireAmender(
  db: Database,
  actor: Actor,
  appointment: AppointmentRow,
  now: Date,
): Promise<NoteAccess> {
  const access = await resolveNoteAccess(db, actor, appointment, now);
  if (access.kind === 'self' || !actor.permissions.has('records.write')) {
    throw appError('FORBIDDEN', 'Only a doctor treating the patient adds addenda.');
  }
  return access;
}

/** Vitals are reported by the appointment's patient only. */
export async function requireVitalsReporter(
  db: Database,
  actor: Actor,
  appointment: AppointmentRow,
  now: Date,
): Promise<NoteAccess> {
  const access = await resolveNoteAccess(db, actor, appointment, now);
  if (access.kind !== 'self') {
    throw appError('FORBIDDEN', 'Only the patient reports their vitals.');
  }
  return access;
}

export function canEditNote(
  actor: Actor,
  access: NoteAccess,
  note: { status: string },
  appointment: AppointmentRow,
): boolean {
  return (
    access.kind === 'author' &&
    actor.permissions.has('records.write') &&
    note.status === 'draft' &&
    documentableStatuses.includes(appointment.status)
  );
}

export function canAmendNote(actor: Actor, access: NoteAccess, note: { status: string }): boolean {
  return access.kind !== 'self' && actor.permissions.has('records.write') && note.status === 'signed';
}

/** What every audit event of a note carries about how the record was reached. */
export function accessDetails(access: NoteAccess): Record<string, unknown> {
  return access.kind === 'emergency'
    ? { access: 'emergency', emergency: true, emergencyAccessId: access.accessId, reason: access.reason }
    : { access: access.kind, emergency: false };
}
