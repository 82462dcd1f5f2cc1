import { aliasedTable, and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  appointments,
  chartDocuments,
  diagnosisCodes,
  doctorProfiles,
  files,
  prescriptions,
  users,
  visitNoteAddenda,
  visitNoteDiagnoses,
  visitNotes,
  visitVitals,
} from '../../db/schema.js';

/**
 * The reads of an export that no other module offers yet (appointments with all their times,
 * signed notes with diagnoses and addenda, vitals, chart documents with their stored files).
 * Each query is scoped to one patient.
 */

const doctor = aliasedTable(users, 'doctor');
const signer = aliasedTable(users, 'signer');
const author = aliasedTable(users, 'author');
const uploader = aliasedTable(users, 'uploader');

/** Every appointment of the patient, oldest first. */
export async function listExportAppointments(db: Database, patientId: string) {
  return db
    .select({
      id: appointments.id,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      status: appointments.status,
      reason: appointments.reason,
      checkedInAt: appointments.checkedInAt,
      startedAt: appointments.startedAt,
      endedAt: appointments.endedAt,
      cancelledAt: appointments.cancelledAt,
      cancellationReason: appointments.cancellationReason,
      doctorId: appointments.doctorUserId,
      doctorName: doctor.name,
    })
    .from(appointments)
    .innerJoin(doctor, eq(doctor.id, appointments.doctorUserId))
    .where(eq(appointments.patientUserId, patientId))
    .orderBy(asc(appointments.startsAt), asc(appointments.id));
}

export type ExportAppointmentRow = Awaited<ReturnType<typeof listExportAppointments>>[number];

/** The patient's signed notes (drafts are never read here), oldest visit first. */
export async function listSignedNotes(db: Database, patientId: string) {
  return (
    db
      .select({
        id: visitNotes.id,
        appointmentId: visitNotes.appointmentId,
        visitStartsAt: appointments.startsAt,
        doctorId: visitNotes.doctorUserId,
        doctorName: doctor.name,
        licenseNumber: doctorProfiles.licenseNumber,
        status: visitNotes.status,
        subjectiveHtml: visitNotes.subjectiveHtml,
        objectiveHtml: visitNotes.objectiveHtml,
        assessmentHtml: visitNotes.assessmentHtml,
        planHtml: visitNotes.planHtml,
        createdAt: visitNotes.createdAt,
        signedAt: visitNotes.signedAt,
        signedById: visitNotes.signedByUserId,
        signedByName: signer.name,
      })
      .from(visitNotes)
      // A left join: drizzle types an inner join followed by a left join of two aliases as never.
      .leftJoin(doctor, eq(doctor.id, visitNotes.doctorUserId))
      .leftJoin(doctorProfiles, eq(doctorProfiles.userId, visitNotes.doctorUserId))
      .leftJoin(signer, eq(signer.id, visitNotes.signedByUserId))
      .leftJoin(appointments, eq(appointments.id, visitNotes.appointmentId))
      .where(and(eq(visitNotes.patientUserId, patientId), eq(visitNotes.status, 'signed')))
      .orderBy(asc(appointments.startsAt), asc(visitNotes.createdAt), asc(visitNotes.id))
  );
}

export type SignedNoteRow = Awaited<ReturnType<typeof listSignedNotes>>[number];

export async function listNoteDiagnoses(db: Database, noteIds: readonly string[]) {
  if (noteIds.length === 0) {
    return [];
  }
  return db
    .select({
      noteId: visitNoteDiagnoses.noteId,
      code: visitNoteDiagnoses.code,
      isPrimary: visitNoteDiagnoses.isPrimary,
      nameEs: diagnosisCodes.nameEs,
      nameEn: diagnosisCodes.nameEn,
    })
    .from(visitNoteDiagnoses)
    .innerJoin(diagnosisCodes, eq(diagnosisCodes.code, visitNoteDiagnoses.code))
    .where(inArray(visitNoteDiagnoses.noteId, [...noteIds]))
    .orderBy(asc(visitNoteDiagnoses.noteId), asc(visitNoteDiagnoses.position));
}

export async function listNoteAddenda(db: Database, noteIds: readonly string[]) {
  if (noteIds.length === 0) {
    return [];
  }
  return db
    .select({
      id: visitNoteAddenda.id,
      noteId: visitNoteAddenda.noteId,
      authorId: visitNoteAddenda.authorUserId,
      authorName: author.name,
      bodyHtml: visitNoteAddenda.bodyHtml,
      signedAt: visitNoteAddenda.signedAt,
    })
    .from(visitNoteAddenda)
    .innerJoin(author, eq(author.id, visitNoteAddenda.authorUserId))
    .where(inArray(visitNoteAddenda.noteId, [...noteIds]))
    .orderBy(asc(visitNoteAddenda.signedAt), asc(visitNoteAddenda.id));
}

export async function listVitals(db: Database, patientId: string) {
  return db
    .select()
    .from(visitVitals)
    .where(eq(visitVitals.patientUserId, patientId))
    .orderBy(asc(visitVitals.reportedAt), asc(visitVitals.appointmentId));
}

/** The patient's prescriptions (ids only, oldest first); each is then loaded whole for its PDF. */
export async function listPrescriptionIds(db: Database, patientId: string): Promise<string[]> {
  const rows = await db
    .select({ id: prescriptions.id })
    .from(prescriptions)
    .where(eq(prescriptions.patientUserId, patientId))
    .orderBy(asc(prescriptions.issuedAt), asc(prescriptions.id));
  return rows.map((row) => row.id);
}

/** Documents in the chart that were not removed, with their stored file, oldest first. */
export async function listLiveDocuments(db: Database, patientId: string) {
  return db
    .select({
      id: chartDocuments.id,
      kind: chartDocuments.kind,
      category: chartDocuments.category,
      name: chartDocuments.name,
      appointmentId: chartDocuments.appointmentId,
      createdAt: chartDocuments.createdAt,
      uploadedById: chartDocuments.uploadedByUserId,
      uploadedByName: uploader.name,
      visitStartsAt: appointments.startsAt,
      fileId: files.id,
      contentType: files.contentType,
      size: files.size,
      sha256: files.sha256,
      storagePath: files.storagePath,
    })
    .from(chartDocuments)
    .innerJoin(files, eq(files.id, chartDocuments.fileId))
    .leftJoin(uploader, eq(uploader.id, chartDocuments.uploadedByUserId))
    .leftJoin(appointments, eq(appointments.id, chartDocuments.appointmentId))
    .where(and(eq(chartDocuments.patientUserId, patientId), isNull(chartDocuments.removedAt)))
    .orderBy(asc(chartDocuments.createdAt), asc(chartDocuments.id));
}

export type LiveDocumentRow = Awaited<ReturnType<typeof listLiveDocuments>>[number];
