import {
  type SaveNoteRequest,
  type SetNoteDiagnosesRequest,
  type VisitNote,
  setNoteDiagnosesRequestSchema,
} from '@telemedicina/shared/notes';
import { invalidField } from '../../lib/app-error.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { type ServiceContext, requireActor } from '../context.js';
import {
  ConditionalWriteMissed,
  auditIn,
  loadAppointment,
  lostRace,
  presentFor,
  requireDocumentable,
  requireDraft,
} from './note-loading.js';
import { accessDetails, notFound, requireAuthor } from './notes.policy.js';
import {
  findExistingDiagnosisCodes,
  findNoteByAppointment,
  insertNoteEditedUnlessRecent,
  insertNoteIfAbsent,
  replaceNoteDiagnoses,
  updateDraftSections,
  type NoteRow,
  type NoteSectionColumns,
} from './notes.repository.js';

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
  const access = await requireAuthor(ctx.db, actor, appointment, ctx.now());
  const existing = await findNoteByAppointment(ctx.db, appointment.id);
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
  const created = await ctx.db.transaction(async (tx) => {
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
  const note = created ?? (await findNoteByAppointment(ctx.db, appointment.id));
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
  const access = await requireAuthor(ctx.db, actor, appointment, ctx.now());
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
    saved = await ctx.db.transaction(async (tx) => {
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
  const access = await requireAuthor(ctx.db, actor, appointment, ctx.now());
  const note = await requireDraft(ctx, appointment);
  requireDocumentable(appointment);
  const known = await findExistingDiagnosisCodes(
    ctx.db,
    input.items.map((item) => item.code),
  );
  const unknownIndex = input.items.findIndex((item) => !known.has(item.code));
  if (unknownIndex >= 0) {
    throw invalidField(
      `items.${unknownIndex}.code`,
      'records.validation.unknownDiagnosisCode',
      'unknown_code',
    );
  }
  const now = ctx.now();
  let saved: NoteRow;
  try {
    saved = await ctx.db.transaction(async (tx) => {
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
