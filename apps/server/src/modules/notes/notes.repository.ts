import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  appointments,
  chartDocuments,
  diagnosisCodes,
  doctorProfiles,
  prescriptionItems,
  prescriptions,
  users,
  visitNoteAddenda,
  visitNoteDiagnoses,
  visitNotes,
  visitVitals,
} from '../../db/schema.js';
import type { AuditEventRow } from '../audit/audit.repository.js';

export type NoteRow = typeof visitNotes.$inferSelect;
export type VitalsRow = typeof visitVitals.$inferSelect;
export type AppointmentRow = typeof appointments.$inferSelect;
export type NoteSectionColumns = Partial<
  Pick<NoteRow, 'subjectiveHtml' | 'objectiveHtml' | 'assessmentHtml' | 'planHtml'>
>;

/** A diagnosis of a note with its catalogue names. */
export interface NoteDiagnosisRow {
  code: string;
  chapter: string;
  nameEs: string;
  nameEn: string;
  isPrimary: boolean;
}

export interface NoteAddendumRow {
  id: string;
  authorUserId: string;
  authorName: string;
  bodyHtml: string;
  signedAt: Date;
}

/** The two people a note names, with what the presenter, the PDF and the email need. */
export interface NotePeople {
  patient: {
    id: string;
    name: string;
    email: string;
    dateOfBirth: string | null;
    language: string;
    timeZone: string;
  };
  doctor: { id: string; name: string; licenseNumber: string | null };
}

export async function findAppointmentRow(db: Database, id: string): Promise<AppointmentRow | null> {
  const [row] = await db.select().from(appointments).where(eq(appointments.id, id)).limit(1);
  return row ?? null;
}

export async function findNoteByAppointment(db: Database, appointmentId: string): Promise<NoteRow | null> {
  const [row] = await db
    .select()
    .from(visitNotes)
    .where(eq(visitNotes.appointmentId, appointmentId))
    .limit(1);
  return row ?? null;
}

/** Inserts the draft unless the appointment already has a note; null when it had one. */
export async function insertNoteIfAbsent(
  db: Database,
  values: typeof visitNotes.$inferInsert,
): Promise<NoteRow | null> {
  const [row] = await db
    .insert(visitNotes)
    .values(values)
    .onConflictDoNothing({ target: visitNotes.appointmentId })
    .returning();
  return row ?? null;
}

/**
 * Saves sections of a draft when it is still at `baseVersion`; the version grows by one. Null when
 * the note was signed or saved by someone else meanwhile (the caller reloads to tell which).
 */
export async function updateDraftSections(
  db: Database,
  id: string,
  baseVersion: number,
  sections: NoteSectionColumns,
  now: Date,
): Promise<NoteRow | null> {
  const [row] = await db
    .update(visitNotes)
    .set({ ...sections, version: sql`${visitNotes.version} + 1`, updatedAt: now })
    .where(and(eq(visitNotes.id, id), eq(visitNotes.status, 'draft'), eq(visitNotes.version, baseVersion)))
    .returning();
  return row ?? null;
}

/** Signs a draft still at `baseVersion` (the trigger locks it from then on); null otherwise. */
export async function signDraft(
  db: Database,
  id: string,
  baseVersion: number,
  signedByUserId: string,
  now: Date,
): Promise<NoteRow | null> {
  const [row] = await db
    .update(visitNotes)
    .set({
      status: 'signed',
      signedAt: now,
      signedByUserId,
      version: sql`${visitNotes.version} + 1`,
      updatedAt: now,
    })
    .where(and(eq(visitNotes.id, id), eq(visitNotes.status, 'draft'), eq(visitNotes.version, baseVersion)))
    .returning();
  return row ?? null;
}

/** Replaces a draft's diagnoses, in order (the caller already bumped the version in its transaction). */
export async function replaceNoteDiagnoses(
  db: Database,
  noteId: string,
  items: readonly { code: string; primary: boolean }[],
): Promise<void> {
  await db.delete(visitNoteDiagnoses).where(eq(visitNoteDiagnoses.noteId, noteId));
  if (items.length > 0) {
    await db.insert(visitNoteDiagnoses).values(
      items.map((item, index) => ({
        noteId,
        code: item.code,
        position: index + 1,
        isPrimary: item.primary,
      })),
    );
  }
}

/** Which of `codes` exist in the catalogue. */
export async function findExistingDiagnosisCodes(
  db: Database,
  codes: readonly string[],
): Promise<Set<string>> {
  if (codes.length === 0) {
    return new Set();
  }
  const rows = await db
    .select({ code: diagnosisCodes.code })
    .from(diagnosisCodes)
    .where(inArray(diagnosisCodes.code, [...codes]));
  return new Set(rows.map((row) => row.code));
}

export async function listNoteDiagnoses(db: Database, noteId: string): Promise<NoteDiagnosisRow[]> {
  return db
    .select({
      code: visitNoteDiagnoses.code,
      chapter: diagnosisCodes.chapter,
      nameEs: diagnosisCodes.nameEs,
      nameEn: diagnosisCodes.nameEn,
      isPrimary: visitNoteDiagnoses.isPrimary,
    })
    .from(visitNoteDiagnoses)
    .innerJoin(diagnosisCodes, eq(diagnosisCodes.code, visitNoteDiagnoses.code))
    .where(eq(visitNoteDiagnoses.noteId, noteId))
    .orderBy(asc(visitNoteDiagnoses.position));
}

export async function listNoteAddenda(db: Database, noteId: string): Promise<NoteAddendumRow[]> {
  return db
    .select({
      id: visitNoteAddenda.id,
      authorUserId: visitNoteAddenda.authorUserId,
      authorName: users.name,
      bodyHtml: visitNoteAddenda.bodyHtml,
      signedAt: visitNoteAddenda.signedAt,
    })
    .from(visitNoteAddenda)
    .innerJoin(users, eq(users.id, visitNoteAddenda.authorUserId))
    .where(eq(visitNoteAddenda.noteId, noteId))
    .orderBy(asc(visitNoteAddenda.signedAt), asc(visitNoteAddenda.id));
}

export async function insertAddendum(
  db: Database,
  values: typeof visitNoteAddenda.$inferInsert,
): Promise<void> {
  await db.insert(visitNoteAddenda).values(values);
}

export async function loadNotePeople(
  db: Database,
  patientUserId: string,
  doctorUserId: string,
): Promise<NotePeople | null> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      dateOfBirth: users.dateOfBirth,
      language: users.language,
      timeZone: users.timeZone,
      licenseNumber: doctorProfiles.licenseNumber,
    })
    .from(users)
    .leftJoin(doctorProfiles, eq(doctorProfiles.userId, users.id))
    .where(inArray(users.id, [patientUserId, doctorUserId]));
  const patient = rows.find((row) => row.id === patientUserId);
  const doctor = rows.find((row) => row.id === doctorUserId);
  if (patient === undefined || doctor === undefined) {
    return null;
  }
  return {
    patient: {
      id: patient.id,
      name: patient.name,
      email: patient.email,
      dateOfBirth: patient.dateOfBirth,
      language: patient.language,
      timeZone: patient.timeZone,
    },
    doctor: { id: doctor.id, name: doctor.name, licenseNumber: doctor.licenseNumber },
  };
}

/** The visit summary stored for an appointment (never removed by the documents module's users). */
export async function findSummaryDocumentId(db: Database, appointmentId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: chartDocuments.id })
    .from(chartDocuments)
    .where(and(eq(chartDocuments.appointmentId, appointmentId), eq(chartDocuments.kind, 'visit_summary')))
    .limit(1);
  return row?.id ?? null;
}

export async function insertChartDocument(
  db: Database,
  values: typeof chartDocuments.$inferInsert,
): Promise<string> {
  const [row] = await db.insert(chartDocuments).values(values).returning({ id: chartDocuments.id });
  if (row === undefined) {
    throw new Error('insert into chart_documents returned nothing');
  }
  return row.id;
}

/** Items of the prescriptions issued in an appointment and still in force, in order. */
export async function listAppointmentPrescriptionItems(db: Database, appointmentId: string) {
  return db
    .select({
      prescriptionId: prescriptions.id,
      verificationCode: prescriptions.verificationCode,
      medication: prescriptionItems.medication,
      dose: prescriptionItems.dose,
      route: prescriptionItems.route,
      frequency: prescriptionItems.frequency,
      duration: prescriptionItems.duration,
      instructions: prescriptionItems.instructions,
    })
    .from(prescriptionItems)
    .innerJoin(prescriptions, eq(prescriptions.id, prescriptionItems.prescriptionId))
    .where(and(eq(prescriptions.appointmentId, appointmentId), ne(prescriptions.status, 'cancelled')))
    .orderBy(asc(prescriptions.issuedAt), asc(prescriptions.id), asc(prescriptionItems.position));
}
export type PrescriptionItemLine = Awaited<ReturnType<typeof listAppointmentPrescriptionItems>>[number];

export async function findVitals(db: Database, appointmentId: string): Promise<VitalsRow | null> {
  const [row] = await db
    .select()
    .from(visitVitals)
    .where(eq(visitVitals.appointmentId, appointmentId))
    .limit(1);
  return row ?? null;
}

/** Stores what the patient reported for the visit, replacing what was there. */
export async function upsertVitals(
  db: Database,
  values: typeof visitVitals.$inferInsert,
): Promise<VitalsRow> {
  const { appointmentId: _key, ...changes } = values;
  const [row] = await db
    .insert(visitVitals)
    .values(values)
    .onConflictDoUpdate({ target: visitVitals.appointmentId, set: changes })
    .returning();
  if (row === undefined) {
    throw new Error('upsert into visit_vitals returned nothing');
  }
  return row;
}

/**
 * The note's status under a row lock (the vitals of a visit change only while its note, if any,
 * is a draft; signing takes the same lock). Null when there is no note.
 */
export async function lockNoteStatus(db: Database, appointmentId: string): Promise<NoteRow['status'] | null> {
  const [row] = await db
    .select({ status: visitNotes.status })
    .from(visitNotes)
    .where(eq(visitNotes.appointmentId, appointmentId))
    .for('update');
  return row?.status ?? null;
}

/** A chart's notes, newest visit first (signed only for the patient), with diagnoses and addenda counts. */
export async function listChartNotes(db: Database, patientUserId: string, signedOnly: boolean) {
  const doctor = users;
  const rows = await db
    .select({
      id: visitNotes.id,
      appointmentId: visitNotes.appointmentId,
      visitStartsAt: appointments.startsAt,
      doctorId: doctor.id,
      doctorName: doctor.name,
      status: visitNotes.status,
      signedAt: visitNotes.signedAt,
      addendaCount: sql<number>`(select count(*)::int from ${visitNoteAddenda} where ${visitNoteAddenda.noteId} = ${visitNotes.id})`,
    })
    .from(visitNotes)
    .innerJoin(appointments, eq(appointments.id, visitNotes.appointmentId))
    .innerJoin(doctor, eq(doctor.id, visitNotes.doctorUserId))
    .where(
      and(
        eq(visitNotes.patientUserId, patientUserId),
        signedOnly ? eq(visitNotes.status, 'signed') : undefined,
      ),
    )
    .orderBy(desc(appointments.startsAt), desc(visitNotes.id))
    .limit(500);
  const ids = rows.map((row) => row.id);
  const diagnoses =
    ids.length === 0
      ? []
      : await db
          .select({
            noteId: visitNoteDiagnoses.noteId,
            code: visitNoteDiagnoses.code,
            nameEs: diagnosisCodes.nameEs,
            nameEn: diagnosisCodes.nameEn,
          })
          .from(visitNoteDiagnoses)
          .innerJoin(diagnosisCodes, eq(diagnosisCodes.code, visitNoteDiagnoses.code))
          .where(inArray(visitNoteDiagnoses.noteId, ids))
          .orderBy(asc(visitNoteDiagnoses.noteId), asc(visitNoteDiagnoses.position));
  return rows.map((row) => ({
    ...row,
    diagnoses: diagnoses
      .filter((diagnosis) => diagnosis.noteId === row.id)
      .map(({ code, nameEs, nameEn }) => ({ code, nameEs, nameEn })),
  }));
}
export type ChartNoteRow = Awaited<ReturnType<typeof listChartNotes>>[number];

/**
 * Appends a `note.edited` event unless one for the same note was written after `windowStart`
 * (one look-up of the audit trail's target index). Runs in the save's transaction, after the
 * note's row lock, so two saves of one note cannot both write. True when it wrote.
 */
export async function insertNoteEditedUnlessRecent(
  db: Database,
  event: AuditEventRow & { targetId: string },
  noteId: string,
  windowStart: Date,
): Promise<boolean> {
  const result = await db.execute(sql`
    insert into audit_events
      (at, actor_user_id, actor_ip, user_agent, request_id, action, target_type, target_id, outcome, details)
    select ${event.at.toISOString()}::timestamptz, ${event.actorUserId ?? null}::uuid, ${event.actorIp ?? null},
      ${event.userAgent ?? null}, ${event.requestId ?? null}, ${event.action}, ${event.targetType ?? null},
      ${event.targetId}, ${event.outcome ?? 'success'}, ${JSON.stringify(event.details ?? {})}::jsonb
    where not exists (
      select 1 from audit_events
      where target_type = ${event.targetType ?? null} and target_id = ${event.targetId}
        and action = ${event.action} and at > ${windowStart.toISOString()}::timestamptz
        and details ->> 'noteId' = ${noteId}
    )
    returning id`);
  return (result as { rows: unknown[] }).rows.length > 0;
}
