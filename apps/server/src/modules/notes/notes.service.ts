import { createHash, randomUUID } from 'node:crypto';
import { type ChartNoteList, type CreateAddendumRequest, type Language, type NoteEnvelope, type ReportVitalsRequest, type SaveNoteRequest, type SetNoteDiagnosesRequest, type SignNoteRequest, type ValidationIssue, type VisitNote, type VitalsResponse, setNoteDiagnosesRequestSchema, vitalNames } from '@telemedicina/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type AuditEventInput, type ServiceContext, requireActor } from '../context.js';
import { renderEmail } from '../email/templates.js';
import type { FileStorage } from '../files/file-storage.js';
import { insertFile } from '../files/files.repository.js';
import { appointmentLink, runAll } from '../appointments/appointment-notices.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { authorizeChartRead } from '../records/records.policy.js';
import { readClinicLogo } from '../settings/clinic-logo.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { htmlHasText } from './html-to-blocks.js';
import {
  accessDetails,
  canAmendNote,
  canEditNote,
  documentableStatuses,
  notFound,
  requireAmender,
  requireAuthor,
  requireVitalsReporter,
  resolveNoteAccess,
  vitalsStatuses,
  type NoteAccess,
} from './notes.policy.js';
import { presentChartNote, presentNote, presentVitals, type NoteRecord } from './notes.presenter.js';
import {
  findAppointmentRow,
  findExistingDiagnosisCodes,
  findNoteByAppointment,
  findSummaryDocumentId,
  findVitals,
  insertAddendum,
  insertChartDocument,
  insertNoteEditedUnlessRecent,
  insertNoteIfAbsent,
  listAppointmentPrescriptionItems,
  listChartNotes,
  listNoteAddenda,
  listNoteDiagnoses,
  loadNotePeople,
  lockNoteStatus,
  replaceNoteDiagnoses,
  signDraft,
  updateDraftSections,
  upsertVitals,
  type AppointmentRow,
  type NoteRow,
  type NoteSectionColumns,
} from './notes.repository.js';
import { renderVisitSummaryPdf, visitSummaryFileName } from './visit-summary-pdf.js';

/** A doctor's autosaves write `note.edited` at most once per note in this window. */
export const noteEditedAuditWindowMs = 10 * 60_000;

/**
 * The last `note.edited` this process wrote or found, per note: inside the window the autosave
 * skips the audit look-up altogether (a restart or another instance only costs one look-up).
 */
const noteEditedSeen = new Map<string, number>();
const noteEditedSeenLimit = 5000;

function rememberNoteEdited(noteId: string, at: number): void {
  noteEditedSeen.delete(noteId);
  noteEditedSeen.set(noteId, at);
  if (noteEditedSeen.size > noteEditedSeenLimit) {
    const oldest = noteEditedSeen.keys().next().value;
    if (oldest !== undefined) {
      noteEditedSeen.delete(oldest);
    }
  }
}

const sectionColumns = {
  subjective: 'subjectiveHtml',
  objective: 'objectiveHtml',
  assessment: 'assessmentHtml',
  plan: 'planHtml',
} as const satisfies Record<string, keyof NoteSectionColumns>;

/** Writes the actor's audit event with `db` (the change's own transaction). */
function auditIn(ctx: ServiceContext, db: Database, event: AuditEventInput): Promise<void> {
  return recordAuditEvent(
    db,
    { now: ctx.now, actorUserId: ctx.actor?.userId ?? null, request: ctx.request },
    event,
  );
}

async function loadAppointment(ctx: ServiceContext, appointmentId: string): Promise<AppointmentRow> {
  const appointment = isUuid(appointmentId) ? await findAppointmentRow(ctx.db.db, appointmentId) : null;
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

async function presentFor(
  ctx: ServiceContext,
  access: NoteAccess,
  appointment: AppointmentRow,
  note: NoteRow,
): Promise<VisitNote> {
  const actor = requireActor(ctx);
  const record = await loadNoteRecord(ctx.db.db, note);
  return presentNote(record, {
    canEdit: canEditNote(actor, access, note, appointment),
    canAmend: canAmendNote(actor, access, note),
  });
}

function requireDocumentable(appointment: AppointmentRow): void {
  if (!documentableStatuses.includes(appointment.status)) {
    throw new AppError(
      409,
      'CONFLICT',
      `This visit cannot be documented: the appointment is ${appointment.status.replace('_', ' ')}.`,
      { status: appointment.status },
    );
  }
}

async function requireDraft(ctx: ServiceContext, appointment: AppointmentRow): Promise<NoteRow> {
  const note = await findNoteByAppointment(ctx.db.db, appointment.id);
  if (note === null) {
    throw new AppError(404, 'NOT_FOUND', 'This visit has no note yet: create it first.');
  }
  if (note.status === 'signed') {
    throw noteSigned();
  }
  return note;
}

function noteSigned(): AppError {
  return new AppError(409, 'NOTE_SIGNED', 'The note is signed and cannot change; add an addendum instead.');
}

/** 409 NOTE_SIGNED or NOTE_VERSION_CONFLICT (with the current note) after a conditional write missed. */
async function lostRace(
  ctx: ServiceContext,
  access: NoteAccess,
  appointment: AppointmentRow,
): Promise<AppError> {
  const current = await findNoteByAppointment(ctx.db.db, appointment.id);
  if (current === null) {
    return notFound();
  }
  if (current.status === 'signed') {
    return noteSigned();
  }
  return new AppError(
    409,
    'NOTE_VERSION_CONFLICT',
    'The note was saved from somewhere else in the meantime. Reload it before saving again.',
    { note: await presentFor(ctx, access, appointment, current) },
  );
}

class ConditionalWriteMissed extends Error {}

function validationError(path: string, message: string, code = 'custom'): AppError {
  const issue: ValidationIssue = { location: 'body', path, code, message };
  return new AppError(400, 'VALIDATION_FAILED', 'The request is not valid.', { issues: [issue] });
}

// ---------------------------------------------------------------- reading

/**
 * `GET /appointments/:id/note`: the note and the reported vitals. The patient sees the note only
 * once signed (null before). Audited (`record.viewed`, section `note`) when it returns any data.
 */
export async function getNoteEnvelope(ctx: ServiceContext, appointmentId: string): Promise<NoteEnvelope> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await resolveNoteAccess(ctx.db.db, actor, appointment, ctx.now());
  const stored = await findNoteByAppointment(ctx.db.db, appointment.id);
  const note = stored !== null && (access.kind !== 'self' || stored.status === 'signed') ? stored : null;
  const vitals = await findVitals(ctx.db.db, appointment.id);
  if (note !== null || vitals !== null) {
    await ctx.audit({
      action: 'record.viewed',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: {
        section: 'note',
        appointmentId: appointment.id,
        noteId: note?.id ?? null,
        parts: [...(note === null ? [] : ['note']), ...(vitals === null ? [] : ['vitals'])],
        ...accessDetails(access),
      },
    });
  }
  return {
    note: note === null ? null : await presentFor(ctx, access, appointment, note),
    vitals: vitals === null ? null : presentVitals(vitals),
  };
}

/** `GET /patients/:patientId/notes`: treating doctors see every note; the patient their signed ones. */
export async function listPatientNotes(ctx: ServiceContext, patientId: string): Promise<ChartNoteList> {
  const actor = requireActor(ctx);
  const grant = await authorizeChartRead(ctx.db.db, actor, patientId, ctx.now());
  if (grant.access === 'administrative') {
    throw new AppError(404, 'NOT_FOUND', 'No such patient.');
  }
  const rows = await listChartNotes(ctx.db.db, patientId, grant.access === 'self');
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'notes',
      count: rows.length,
      access: grant.access,
      emergency: grant.emergency !== null,
      ...(grant.emergency === null
        ? {}
        : { emergencyAccessId: grant.emergency.accessId, reason: grant.emergency.reason }),
    },
  });
  return { items: rows.map(presentChartNote) };
}

// ---------------------------------------------------------------- the draft

/**
 * `POST /appointments/:id/note`: the visit's doctor starts the draft. Idempotent: when the note
 * exists (even signed) it is answered as it is, with `created: false`.
 */
export async function createNote(
  ctx: ServiceContext,
  appointmentId: string,
): Promise<{ note: VisitNote; created: boolean }> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireAuthor(ctx.db.db, actor, appointment, ctx.now());
  const existing = await findNoteByAppointment(ctx.db.db, appointment.id);
  if (existing !== null) {
    // Answering the existing note is a read of it.
    await ctx.audit({
      action: 'record.viewed',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: {
        section: 'note',
        appointmentId: appointment.id,
        noteId: existing.id,
        parts: ['note'],
        ...accessDetails(access),
      },
    });
    return { note: await presentFor(ctx, access, appointment, existing), created: false };
  }
  requireDocumentable(appointment);
  const now = ctx.now();
  const created = await ctx.db.db.transaction(async (tx) => {
    const row = await insertNoteIfAbsent(tx, {
      appointmentId: appointment.id,
      patientUserId: appointment.patientUserId,
      doctorUserId: appointment.doctorUserId,
      createdAt: now,
      updatedAt: now,
    });
    if (row !== null) {
      await auditIn(ctx, tx, {
        action: 'note.created',
        targetType: 'patient',
        targetId: appointment.patientUserId,
        details: { section: 'note', noteId: row.id, appointmentId: appointment.id, ...accessDetails(access) },
      });
    }
    return row;
  });
  // A concurrent create won the unique key: answer the note it made.
  const note = created ?? (await findNoteByAppointment(ctx.db.db, appointment.id));
  if (note === null) {
    throw notFound();
  }
  return { note: await presentFor(ctx, access, appointment, note), created: created !== null };
}

/**
 * `PATCH /appointments/:id/note`: the autosave. Sections are sanitized here (what the client sent
 * is a proposal); the write is conditional on the draft still being at `baseVersion`. The audit
 * trail gets `note.edited` at most once per note per 10 minutes (in the save's transaction, after
 * the row lock; inside the window this process skips even the look-up).
 */
export async function saveNote(
  ctx: ServiceContext,
  appointmentId: string,
  request: SaveNoteRequest,
): Promise<VisitNote> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireAuthor(ctx.db.db, actor, appointment, ctx.now());
  const note = await requireDraft(ctx, appointment);
  requireDocumentable(appointment);
  const changes: NoteSectionColumns = {};
  const changed: string[] = [];
  for (const [section, column] of Object.entries(sectionColumns)) {
    const html = request[section as keyof typeof sectionColumns];
    if (html !== undefined) {
      changes[column] = sanitizeHtml(html);
      changed.push(section);
    }
  }
  if (changed.length === 0) {
    if (note.version !== request.baseVersion) {
      throw await lostRace(ctx, access, appointment);
    }
    return presentFor(ctx, access, appointment, note);
  }
  const now = ctx.now();
  const seen = noteEditedSeen.get(note.id);
  const isAuditDue = seen === undefined || now.getTime() - seen >= noteEditedAuditWindowMs;
  let saved: NoteRow;
  try {
    saved = await ctx.db.db.transaction(async (tx) => {
      const row = await updateDraftSections(tx, note.id, request.baseVersion, changes, now);
      if (row === null) {
        throw new ConditionalWriteMissed();
      }
      if (isAuditDue) {
        await insertNoteEditedUnlessRecent(
          tx,
          {
            at: now,
            actorUserId: actor.userId,
            actorIp: ctx.request.ip,
            userAgent: ctx.request.userAgent,
            requestId: ctx.request.requestId,
            action: 'note.edited',
            targetType: 'patient',
            targetId: appointment.patientUserId,
            outcome: 'success',
            details: {
              section: 'note',
              noteId: note.id,
              appointmentId: appointment.id,
              sections: changed,
              version: row.version,
              ...accessDetails(access),
            },
          },
          note.id,
          new Date(now.getTime() - noteEditedAuditWindowMs),
        );
      }
      return row;
    });
  } catch (error) {
    if (error instanceof ConditionalWriteMissed) {
      throw await lostRace(ctx, access, appointment);
    }
    throw error;
  }
  if (isAuditDue) {
    // Written now, or one inside the window already existed (then the next one comes a little
    // later than it could: still at most one per window).
    rememberNoteEdited(note.id, now.getTime());
  }
  return presentFor(ctx, access, appointment, saved);
}

/** `PUT /appointments/:id/note/diagnoses`: the whole list, codes from the catalogue (else 400). */
export async function setNoteDiagnoses(
  ctx: ServiceContext,
  appointmentId: string,
  request: SetNoteDiagnosesRequest,
): Promise<VisitNote> {
  const actor = requireActor(ctx);
  const input = setNoteDiagnosesRequestSchema.parse(request);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireAuthor(ctx.db.db, actor, appointment, ctx.now());
  const note = await requireDraft(ctx, appointment);
  requireDocumentable(appointment);
  const known = await findExistingDiagnosisCodes(
    ctx.db.db,
    input.items.map((item) => item.code),
  );
  const unknownIndex = input.items.findIndex((item) => !known.has(item.code));
  if (unknownIndex >= 0) {
    throw validationError(
      `items.${unknownIndex}.code`,
      'records.validation.unknownDiagnosisCode',
      'unknown_code',
    );
  }
  const now = ctx.now();
  let saved: NoteRow;
  try {
    saved = await ctx.db.db.transaction(async (tx) => {
      const row = await updateDraftSections(tx, note.id, input.baseVersion, {}, now);
      if (row === null) {
        throw new ConditionalWriteMissed();
      }
      await replaceNoteDiagnoses(tx, note.id, input.items);
      await auditIn(ctx, tx, {
        action: 'note.diagnoses_set',
        targetType: 'patient',
        targetId: appointment.patientUserId,
        details: {
          section: 'note',
          noteId: note.id,
          appointmentId: appointment.id,
          count: input.items.length,
          hasPrimary: input.items.some((item) => item.primary),
          version: row.version,
          ...accessDetails(access),
        },
      });
      return row;
    });
  } catch (error) {
    if (error instanceof ConditionalWriteMissed) {
      throw await lostRace(ctx, access, appointment);
    }
    throw error;
  }
  return presentFor(ctx, access, appointment, saved);
}

// ---------------------------------------------------------------- signing

/**
 * `POST /appointments/:id/note/sign`: the visit's doctor signs the version they see. A note needs
 * an assessment, a plan or a diagnosis to be signed (422 otherwise). The visit summary PDF is
 * rendered and written to storage first; then ONE transaction signs the note (locked by the
 * database from then on), stores the file and its chart document, the email to the patient with
 * the PDF, the in-app notification and the audit event. A rollback removes the written file.
 * SMTP delivery and the socket push start after the commit.
 */
export async function signNote(
  ctx: ServiceContext,
  storage: FileStorage,
  appointmentId: string,
  request: SignNoteRequest,
): Promise<VisitNote> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireAuthor(ctx.db.db, actor, appointment, ctx.now());
  const note = await requireDraft(ctx, appointment);
  requireDocumentable(appointment);
  if (note.version !== request.baseVersion) {
    throw await lostRace(ctx, access, appointment);
  }
  const db = ctx.db.db;
  const diagnoses = await listNoteDiagnoses(db, note.id);
  if (!htmlHasText(note.assessmentHtml) && !htmlHasText(note.planHtml) && diagnoses.length === 0) {
    throw new AppError(
      422,
      'UNPROCESSABLE',
      'Write an assessment or a plan, or add a diagnosis, before signing the note.',
      { missing: ['assessment', 'plan', 'diagnoses'] },
    );
  }
  const people = await loadNotePeople(db, note.patientUserId, note.doctorUserId);
  if (people === null) {
    throw notFound();
  }
  const language: Language = people.patient.language === 'en' ? 'en' : 'es';
  const [settings, logo, prescriptionItems, vitals] = [
    await loadIdentitySettings(db, ctx.config),
    await readClinicLogo(ctx, storage).catch(() => null),
    await listAppointmentPrescriptionItems(db, appointment.id),
    await findVitals(db, appointment.id),
  ];
  const signedAt = ctx.now();
  const bytes = await renderVisitSummaryPdf({
    language,
    clinicName: settings.clinicName,
    logo:
      logo !== null && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg')
        ? logo.bytes
        : null,
    patient: {
      name: people.patient.name,
      dateOfBirth: people.patient.dateOfBirth,
      timeZone: people.patient.timeZone,
    },
    doctor: people.doctor,
    visitStartsAt: appointment.startsAt,
    signedAt,
    diagnoses,
    planHtml: note.planHtml,
    prescriptionItems,
    vitals,
  });
  const fileName = visitSummaryFileName(language, appointment.startsAt, people.patient.timeZone);
  const rendered = renderEmail(
    {
      template: 'visit-summary',
      data: {
        name: people.patient.name,
        doctorName: people.doctor.name,
        startsAt: appointment.startsAt,
        timeZone: people.patient.timeZone,
        link: appointmentLink(ctx, appointment.id, 'patient'),
      },
    },
    language,
    settings.clinicName,
  );
  const storagePath = await storage.write('visit-summaries', 'pdf', bytes);
  let outcome: { row: NoteRow; afterCommit: () => void };
  try {
    outcome = await db.transaction(async (tx) => {
      const row = await signDraft(tx, note.id, request.baseVersion, actor.userId, signedAt);
      if (row === null) {
        throw new ConditionalWriteMissed();
      }
      // Vitals reported between the rendering and the row lock would be missing from the PDF.
      const current = await findVitals(tx, appointment.id);
      if ((current?.reportedAt.getTime() ?? null) !== (vitals?.reportedAt.getTime() ?? null)) {
        throw new ConditionalWriteMissed();
      }
      const file = await insertFile(tx, {
        ownerUserId: appointment.patientUserId,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        contentType: 'application/pdf',
        size: bytes.length,
        storagePath,
        createdAt: signedAt,
      });
      const documentId = await insertChartDocument(tx, {
        patientUserId: appointment.patientUserId,
        fileId: file.id,
        kind: 'visit_summary',
        category: 'report',
        name: fileName,
        appointmentId: appointment.id,
        uploadedByUserId: actor.userId,
        createdAt: signedAt,
      });
      const email = await ctx.mailer.store(tx, {
        to: people.patient.email,
        language,
        template: 'visit-summary',
        ...rendered,
        attachments: [
          {
            filename: fileName,
            contentType: 'application/pdf',
            content: bytes.toString('base64'),
            encoding: 'base64',
            // The outbox keeps its name, type and size; the bytes go to the patient alone.
            isClinical: true,
          },
        ],
      });
      const push = await storeNotifications(ctx, tx, [
        {
          userId: appointment.patientUserId,
          kind: 'note.signed',
          data: {
            appointmentId: appointment.id,
            startsAt: appointment.startsAt.toISOString(),
            doctorId: appointment.doctorUserId,
            noteId: note.id,
            documentId,
          },
          createdAt: signedAt,
        },
      ]);
      await auditIn(ctx, tx, {
        action: 'note.signed',
        targetType: 'patient',
        targetId: appointment.patientUserId,
        details: {
          section: 'note',
          noteId: note.id,
          appointmentId: appointment.id,
          version: row.version,
          documentId,
          fileId: file.id,
          outboxId: email.id,
          diagnosesCount: diagnoses.length,
          ...accessDetails(access),
        },
      });
      return { row, afterCommit: runAll([email.deliver, push]) };
    });
  } catch (error) {
    await storage.remove(storagePath).catch(() => undefined);
    if (error instanceof ConditionalWriteMissed) {
      throw await lostRace(ctx, access, appointment);
    }
    throw error;
  }
  outcome.afterCommit();
  return presentFor(ctx, access, appointment, outcome.row);
}

/**
 * `POST /appointments/:id/note/addenda`: a signed, dated addition to a signed note (409
 * NOTE_NOT_SIGNED on a draft), by its doctor or another doctor treating the patient. Sanitized.
 */
export async function addAddendum(
  ctx: ServiceContext,
  appointmentId: string,
  request: CreateAddendumRequest,
): Promise<VisitNote> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireAmender(ctx.db.db, actor, appointment, ctx.now());
  const note = await findNoteByAppointment(ctx.db.db, appointment.id);
  if (note === null) {
    throw new AppError(404, 'NOT_FOUND', 'This visit has no note.');
  }
  if (note.status !== 'signed') {
    throw new AppError(409, 'NOTE_NOT_SIGNED', 'Addenda are added to signed notes; edit the draft instead.');
  }
  const body = sanitizeHtml(request.body);
  if (!htmlHasText(body)) {
    throw validationError('body', 'validation.required', 'empty');
  }
  const now = ctx.now();
  await ctx.db.db.transaction(async (tx) => {
    const id = randomUUID();
    await insertAddendum(tx, {
      id,
      noteId: note.id,
      authorUserId: actor.userId,
      bodyHtml: body,
      signedAt: now,
    });
    await auditIn(ctx, tx, {
      action: 'note.addendum_added',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: {
        section: 'note',
        noteId: note.id,
        appointmentId: appointment.id,
        addendumId: id,
        ...accessDetails(access),
      },
    });
  });
  return presentFor(ctx, access, appointment, note);
}

// ---------------------------------------------------------------- vitals

/** `GET /appointments/:id/vitals`: the patient's own report, or a doctor reading it. Audited when any. */
export async function getVitals(ctx: ServiceContext, appointmentId: string): Promise<VitalsResponse> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await resolveNoteAccess(ctx.db.db, actor, appointment, ctx.now());
  const vitals = await findVitals(ctx.db.db, appointment.id);
  if (vitals !== null) {
    await ctx.audit({
      action: 'record.viewed',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: { section: 'vitals', appointmentId: appointment.id, ...accessDetails(access) },
    });
  }
  return { vitals: vitals === null ? null : presentVitals(vitals) };
}

/**
 * `PUT /appointments/:id/vitals`: the patient replaces what they reported, until the note is signed
 * (409 NOTE_SIGNED; the note's row lock orders this against signing) and never on a cancelled visit.
 */
export async function reportVitals(
  ctx: ServiceContext,
  appointmentId: string,
  request: ReportVitalsRequest,
): Promise<VitalsResponse> {
  const actor = requireActor(ctx);
  const appointment = await loadAppointment(ctx, appointmentId);
  const access = await requireVitalsReporter(ctx.db.db, actor, appointment, ctx.now());
  if (!vitalsStatuses.includes(appointment.status)) {
    throw new AppError(
      409,
      'CONFLICT',
      `Vitals cannot be reported: the appointment is ${appointment.status.replace('_', ' ')}.`,
      { status: appointment.status },
    );
  }
  const now = ctx.now();
  const values = Object.fromEntries(vitalNames.map((name) => [name, request[name] ?? null])) as Record<
    (typeof vitalNames)[number],
    number | null
  >;
  const row = await ctx.db.db.transaction(async (tx) => {
    if ((await lockNoteStatus(tx, appointment.id)) === 'signed') {
      throw noteSigned();
    }
    const stored = await upsertVitals(tx, {
      appointmentId: appointment.id,
      patientUserId: appointment.patientUserId,
      ...values,
      reportedAt: now,
    });
    await auditIn(ctx, tx, {
      action: 'vitals.reported',
      targetType: 'patient',
      targetId: appointment.patientUserId,
      details: {
        section: 'vitals',
        appointmentId: appointment.id,
        fields: vitalNames.filter((name) => values[name] !== null),
        ...accessDetails(access),
      },
    });
    return stored;
  });
  return { vitals: presentVitals(row) };
}
