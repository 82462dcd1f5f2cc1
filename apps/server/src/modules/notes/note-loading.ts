import type { VisitNote } from '@telemedicina/shared/notes';
import type { Database } from '../../db/client.js';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type AuditEventInput, type ServiceContext, requireActor } from '../context.js';
import { isUuid } from '../../lib/uuid.js';
import {
  canAmendNote,
  canEditNote,
  documentableStatuses,
  notFound,
  type NoteAccess,
} from './notes.policy.js';
import { presentNote, type NoteRecord } from './notes.presenter.js';
import {
  findAppointmentRow,
  findNoteByAppointment,
  findSummaryDocumentId,
  listNoteAddenda,
  listNoteDiagnoses,
  loadNotePeople,
  type AppointmentRow,
  type NoteRow,
} from './notes.repository.js';

/** Writes the actor's audit event with `db` (the change's own transaction). */
export function auditIn(ctx: ServiceContext, db: Database, event: AuditEventInput): Promise<void> {
  return recordAuditEvent(
    db,
    { now: ctx.now, actorUserId: ctx.actor?.userId ?? null, request: ctx.request },
    event,
  );
}

export async function loadAppointment(ctx: ServiceContext, appointmentId: string): Promise<AppointmentRow> {
  const appointment = isUuid(appointmentId) ? await findAppointmentRow(ctx.db, appointmentId) : null;
  if (appointment === null) {
    throw notFound();
  }
  return appointment;
}

async function loadNoteRecord(db: Database, note: NoteRow): Promise<NoteRecord> {
  const people = await loadNotePeople(db, note.patientUserId, note.doctorUserId);
  if (people === null) {
    throw notFound();
  }
  const isSigned = note.status === 'signed';
  return {
    note,
    people,
    diagnoses: await listNoteDiagnoses(db, note.id),
    // Addenda and the summary exist only once a note is signed: drafts (autosaves) skip the look-ups.
    addenda: isSigned ? await listNoteAddenda(db, note.id) : [],
    summaryDocumentId: isSigned ? await findSummaryDocumentId(db, note.appointmentId) : null,
  };
}

export async function presentFor(
  ctx: ServiceContext,
  access: NoteAccess,
  appointment: AppointmentRow,
  note: NoteRow,
): Promise<VisitNote> {
  const actor = requireActor(ctx);
  const record = await loadNoteRecord(ctx.db, note);
  return presentNote(record, {
    canEdit: canEditNote(actor, access, note, appointment),
    canAmend: canAmendNote(actor, access, note),
  });
}

export function requireDocumentable(appointment: AppointmentRow): void {
  if (!documentableStatuses.includes(appointment.status)) {
    throw appError(
      'CONFLICT',
      `This visit cannot be documented: the appointment is ${appointment.status.replace('_', ' ')}.`,
      { status: appointment.status },
    );
  }
}

export async function requireDraft(ctx: ServiceContext, appointment: AppointmentRow): Promise<NoteRow> {
  const note = await findNoteByAppointment(ctx.db, appointment.id);
  if (note === null) {
    throw appError('NOT_FOUND', 'This visit has no note yet: create it first.');
  }
  if (note.status === 'signed') {
    throw noteSigned();
  }
  return note;
}

export function noteSigned(): AppError {
  return appError('NOTE_SIGNED', 'The note is signed and cannot change; add an addendum instead.');
}

/** 409 NOTE_SIGNED or NOTE_VERSION_CONFLICT (with the current note) after a conditional write missed. */
export async function lostRace(
  ctx: ServiceContext,
  access: NoteAccess,
  appointment: AppointmentRow,
): Promise<AppError> {
  const current = await findNoteByAppointment(ctx.db, appointment.id);
  if (current === null) {
    return notFound();
  }
  if (current.status === 'signed') {
    return noteSigned();
  }
  return appError(
    'NOTE_VERSION_CONFLICT',
    'The note was saved from somewhere else in the meantime. Reload it before saving again.',
    { note: await presentFor(ctx, access, appointment, current) },
  );
}

export class ConditionalWriteMissed extends Error {}
