import { createHash, randomUUID } from 'node:crypto';
import type { Language } from '@telemedicina/shared/i18n';
import type { CreateAddendumRequest, SignNoteRequest, VisitNote } from '@telemedicina/shared/notes';
import { appError, invalidField } from '../../lib/app-error.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { type ServiceContext, requireActor } from '../context.js';
import { renderEmail } from '../email/templates.js';
import type { FileStorage } from '../files/file-storage.js';
import { insertFile } from '../files/files.repository.js';
import { appointmentLink, runAll } from '../appointments/appointment-notices.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { readClinicLogo } from '../settings/clinic-logo.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { htmlHasText } from './html-to-blocks.js';
import {
  ConditionalWriteMissed,
  auditIn,
  loadAppointment,
  lostRace,
  presentFor,
  requireDocumentable,
  requireDraft,
} from './note-loading.js';
import { accessDetails, notFound, requireAmender, requireAuthor } from './notes.policy.js';
import {
  findNoteByAppointment,
  findVitals,
  insertAddendum,
  insertChartDocument,
  listAppointmentPrescriptionItems,
  listNoteDiagnoses,
  loadNotePeople,
  signDraft,
  type NoteRow,
} from './notes.repository.js';
import { renderVisitSummaryPdf, visitSummaryFileName } from './visit-summary-pdf.js';

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
  const access = await requireAuthor(ctx.db, actor, appointment, ctx.now());
  const note = await requireDraft(ctx, appointment);
  requireDocumentable(appointment);
  if (note.version !== request.baseVersion) {
    throw await lostRace(ctx, access, appointment);
  }
  const db = ctx.db;
  const diagnoses = await listNoteDiagnoses(db, note.id);
  if (!htmlHasText(note.assessmentHtml) && !htmlHasText(note.planHtml) && diagnoses.length === 0) {
    throw appError(
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
  const access = await requireAmender(ctx.db, actor, appointment, ctx.now());
  const note = await findNoteByAppointment(ctx.db, appointment.id);
  if (note === null) {
    throw appError('NOT_FOUND', 'This visit has no note.');
  }
  if (note.status !== 'signed') {
    throw appError('NOTE_NOT_SIGNED', 'Addenda are added to signed notes; edit the draft instead.');
  }
  const body = sanitizeHtml(request.body);
  if (!htmlHasText(body)) {
    throw invalidField('body', 'validation.required', 'empty');
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
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
