import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ChartNoteList, NoteEnvelope, VisitNote } from '@telemedicina/shared/notes';
import type { RecordAccessPage } from '@telemedicina/shared/records';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  chartDocuments,
  emailOutbox,
  files,
  notifications,
  visitNotes,
} from '../../db/schema.js';
import { auditEventsOf, type TestUser } from '../../test/factories.js';
import { pdfText } from '../../test/pdf-text.js';
import type { TestContext } from '../../test/test-context.js';
import {
  as,
  moveClock,
  people,
  save,
  setUpNotesTests,
  startNote,
  storedSummaries,
  visit,
} from './notes-test-fixture.js';

let context: TestContext;
let doctor: TestUser;
let colleague: TestUser;
let stranger: TestUser;
let patient: TestUser;

setUpNotesTests();
beforeAll(() => {
  ({ context, doctor, colleague, stranger, patient } = people());
});

describe('signing', () => {
  it('needs an assessment, a plan or a diagnosis', async () => {
    const appointmentId = await visit();
    await startNote(appointmentId);
    const saved = await save(appointmentId, { baseVersion: 1, subjective: '<p>Tos</p>', plan: '<p> </p>' });
    const response = await as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, {
      baseVersion: saved.json<VisitNote>().version,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ error: { code: 'UNPROCESSABLE' } });
    const stale = await as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, { baseVersion: 1 });
    expect(stale.json()).toMatchObject({ error: { code: 'NOTE_VERSION_CONFLICT' } });
  });

  it('locks the note and files one summary PDF in the patient’s language, emailed and notified', async () => {
    // 09:00 in Mexico City (the patient's zone), on 4 May.
    const appointmentId = await visit('in_progress', '2026-05-04T15:00:00Z');
    await startNote(appointmentId);
    const prescription = await as(doctor, 'POST', `/patients/${patient.id}/prescriptions`, {
      appointmentId,
      items: [
        {
          medication: 'Amoxicilina 500 mg',
          dose: '1 cápsula',
          route: 'oral',
          frequency: 'cada 8 horas',
          duration: '7 días',
          quantity: '21',
        },
      ],
    });
    expect(prescription.statusCode, prescription.body).toBe(201);
    expect(
      (
        await as(patient, 'PUT', `/appointments/${appointmentId}/vitals`, {
          temperatureC: 38.2,
          heartRateBpm: 96,
        })
      ).statusCode,
    ).toBe(200);
    let version = (
      await save(appointmentId, {
        baseVersion: 1,
        assessment: '<p>Faringitis</p>',
        plan: '<h3>Tratamiento</h3><ul><li>Reposo &amp; líquidos</li><li>Volver si hay <strong>fiebre</strong></li></ul><p><script>x</script>Control en 7 días</p>',
      })
    ).json<VisitNote>().version;
    version = (
      await as(doctor, 'PUT', `/appointments/${appointmentId}/note/diagnoses`, {
        baseVersion: version,
        items: [{ code: 'J06.9', primary: true }],
      })
    ).json<VisitNote>().version;
    moveClock('2026-05-04T09:40:00Z');
    const signed = await as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, {
      baseVersion: version,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const note = signed.json<VisitNote>();
    expect(note).toMatchObject({
      status: 'signed',
      signedAt: '2026-05-04T09:40:00.000Z',
      canEdit: false,
      canAmend: true,
    });
    expect(note.summaryDocumentId).not.toBeNull();

    const db = context.db;
    const documents = await db
      .select()
      .from(chartDocuments)
      .where(eq(chartDocuments.appointmentId, appointmentId));
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({
      id: note.summaryDocumentId,
      patientUserId: patient.id,
      kind: 'visit_summary',
      category: 'report',
      uploadedByUserId: doctor.id,
    });
    expect(documents[0]!.name).toMatch(/^visit-summary-2026-05-04\.pdf$/);
    const [file] = await db.select().from(files).where(eq(files.id, documents[0]!.fileId));
    expect(file).toMatchObject({ ownerUserId: patient.id, contentType: 'application/pdf' });
    const stored = await context.app.services.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, patient.email), eq(emailOutbox.template, 'visit-summary')));
    expect(stored).toHaveLength(1);
    const email = stored[0]!;
    expect(email.language).toBe('en');
    expect(email.subject).toContain('Summary of your visit');
    // The patient is linked to the visit in their portal, where patients live, not to the admin area.
    expect(email.text).toContain(`/portal/appointments/${appointmentId}`);
    expect(email.text).not.toContain('/admin/');
    expect(email.attachments).toHaveLength(1);
    // The outbox keeps the clinical PDF's name, type and size only; the bytes are the chart's file.
    expect(email.attachments[0]).toEqual({
      filename: 'visit-summary-2026-05-04.pdf',
      contentType: 'application/pdf',
      content: '',
      size: file!.size,
      isClinical: true,
    });
    const pdf = await readFile(path.join(context.config.uploadsDir, file!.storagePath));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBe(file!.size);
    const text = pdfText(pdf);
    // English labels for the English-speaking patient, though the doctor writes in Spanish.
    for (const expected of [
      'Visit summary',
      'Emma Patient',
      'Dra. Lucía Ortega',
      'MED-28-12345',
      'J06.9',
      'Acute upper respiratory infection',
      'Plan and recommendations',
      'Reposo & líquidos',
      'Control en 7 días',
      'Amoxicilina 500 mg',
      'Temperature: 38.2 °C',
      'Note signed electronically on',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).not.toContain('Resumen de la consulta');
    expect(text).not.toMatch(/<li>|<script|&amp;/);
    expect(await storedSummaries()).toContain(path.basename(file!.storagePath));

    const [notification] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patient.id), eq(notifications.kind, 'note.signed')));
    expect(notification?.data).toMatchObject({ appointmentId, documentId: note.summaryDocumentId });
    const [signedEvent] = (await auditEventsOf(context.app, 'note.signed')).filter(
      (event) => event.details.noteId === note.id,
    );
    expect(signedEvent).toMatchObject({
      targetType: 'patient',
      targetId: patient.id,
      actorUserId: doctor.id,
    });

    // Locked: the API refuses every change, and so does the database.
    const patch = await save(appointmentId, { baseVersion: note.version, plan: '<p>cambio</p>' });
    expect(patch.json()).toMatchObject({ error: { code: 'NOTE_SIGNED' } });
    expect(patch.statusCode).toBe(409);
    const diagnoses = await as(doctor, 'PUT', `/appointments/${appointmentId}/note/diagnoses`, {
      baseVersion: note.version,
      items: [],
    });
    expect(diagnoses.statusCode).toBe(409);
    expect(diagnoses.json()).toMatchObject({ error: { code: 'NOTE_SIGNED' } });
    const again = await as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, {
      baseVersion: note.version,
    });
    expect(again.json()).toMatchObject({ error: { code: 'NOTE_SIGNED' } });
    const vitals = await as(patient, 'PUT', `/appointments/${appointmentId}/vitals`, { heartRateBpm: 70 });
    expect(vitals.statusCode).toBe(409);
    expect(vitals.json()).toMatchObject({ error: { code: 'NOTE_SIGNED' } });
    await expect(
      db.execute(sql`update visit_notes set plan_html = 'tampered' where id = ${note.id}`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from visit_note_diagnoses where note_id = ${note.id}`),
    ).rejects.toThrow();
    const [after] = await db.select().from(visitNotes).where(eq(visitNotes.id, note.id));
    expect(after!.planHtml).toContain('Control en 7 días');

    // The patient now sees it, read-only, with the summary.
    const byPatient = (await as(patient, 'GET', `/appointments/${appointmentId}/note`)).json<NoteEnvelope>();
    expect(byPatient.note).toMatchObject({
      id: note.id,
      canEdit: false,
      canAmend: false,
      summaryDocumentId: note.summaryDocumentId,
    });
    expect(byPatient.vitals?.temperatureC).toBe(38.2);

    // Addenda: the author and a treating colleague, sanitized; never by the patient or a stranger.
    const addendumUrl = `/appointments/${appointmentId}/note/addenda`;
    moveClock('2026-05-05T08:00:00Z');
    const own = await as(doctor, 'POST', addendumUrl, {
      body: '<p>Cultivo negativo<img src=x onerror=alert(1)></p>',
    });
    expect(own.statusCode, own.body).toBe(201);
    moveClock('2026-05-05T08:05:00Z');
    const byColleague = await as(colleague, 'POST', addendumUrl, { body: '<p>Revisado</p>' });
    expect(byColleague.statusCode).toBe(201);
    const addenda = byColleague.json<VisitNote>().addenda;
    expect(addenda.map((addendum) => [addendum.author.id, addendum.body])).toEqual([
      [doctor.id, '<p>Cultivo negativo</p>'],
      [colleague.id, '<p>Revisado</p>'],
    ]);
    expect(addenda[0]!.signedAt).toBe('2026-05-05T08:00:00.000Z');
    expect((await as(patient, 'POST', addendumUrl, { body: '<p>x</p>' })).statusCode).toBe(403);
    expect((await as(stranger, 'POST', addendumUrl, { body: '<p>x</p>' })).statusCode).toBe(404);
    expect((await as(doctor, 'POST', addendumUrl, { body: '<script>x</script>' })).statusCode).toBe(400);
    expect(
      (await auditEventsOf(context.app, 'note.addendum_added')).filter((e) => e.details.noteId === note.id),
    ).toHaveLength(2);
    await expect(
      db.execute(sql`update visit_note_addenda set body_html = 'x' where note_id = ${note.id}`),
    ).rejects.toThrow();
  });

  it('signs once when two signs race: one summary, one email, the loser told NOTE_SIGNED', async () => {
    const appointmentId = await visit();
    await startNote(appointmentId);
    const version = (await save(appointmentId, { baseVersion: 1, plan: '<p>Reposo</p>' })).json<VisitNote>()
      .version;
    const before = await storedSummaries();
    const answers = await Promise.all(
      [0, 1].map(() =>
        as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, { baseVersion: version }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.json()).toMatchObject({
      error: { code: 'NOTE_SIGNED' },
    });
    const db = context.db;
    expect(
      await db.select().from(chartDocuments).where(eq(chartDocuments.appointmentId, appointmentId)),
    ).toHaveLength(1);
    expect((await storedSummaries()).length).toBe(before.length + 1);
    const signedEvents = (await auditEventsOf(context.app, 'note.signed')).filter(
      (event) => event.details.appointmentId === appointmentId,
    );
    expect(signedEvents).toHaveLength(1);
  });

  it('refuses addenda on a draft', async () => {
    const appointmentId = await visit();
    await startNote(appointmentId);
    const response = await as(doctor, 'POST', `/appointments/${appointmentId}/note/addenda`, {
      body: '<p>x</p>',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'NOTE_NOT_SIGNED' } });
  });

  it('leaves a draft and nothing stored when the transaction fails', async () => {
    const appointmentId = await visit();
    const note = await startNote(appointmentId);
    const version = (await save(appointmentId, { baseVersion: 1, plan: '<p>Reposo</p>' })).json<VisitNote>()
      .version;
    const filesBefore = await storedSummaries();
    const db = context.db;
    await db.execute(
      sql.raw(
        `alter table email_outbox add constraint test_refuse_summary check (template <> 'visit-summary' or to_address <> '${patient.email}') not valid`,
      ),
    );
    try {
      const failed = await as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, {
        baseVersion: version,
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      await db.execute(sql`alter table email_outbox drop constraint if exists test_refuse_summary`);
    }
    const [row] = await db.select().from(visitNotes).where(eq(visitNotes.id, note.id));
    expect(row).toMatchObject({ status: 'draft', signedAt: null, version });
    expect(
      await db.select().from(chartDocuments).where(eq(chartDocuments.appointmentId, appointmentId)),
    ).toEqual([]);
    expect(await storedSummaries()).toEqual(filesBefore);
    const [{ count } = { count: -1 }] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'note.signed'), sql`${auditEvents.details} ->> 'noteId' = ${note.id}`),
      );
    expect(count).toBe(0);
    const notified = await db
      .select()
      .from(notifications)
      .where(
        and(eq(notifications.kind, 'note.signed'), sql`${notifications.data} ->> 'noteId' = ${note.id}`),
      );
    expect(notified).toEqual([]);
    // Once the cause is gone, the same version signs.
    const retried = await as(doctor, 'POST', `/appointments/${appointmentId}/note/sign`, {
      baseVersion: version,
    });
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await storedSummaries()).length).toBe(filesBefore.length + 1);
  });
});

describe('the chart’s notes', () => {
  it('lists every note to a treating doctor, the signed ones to the patient, and is audited', async () => {
    const draftVisit = await visit();
    const draft = await startNote(draftVisit);
    const signedVisit = await visit();
    await startNote(signedVisit);
    const version = (await save(signedVisit, { baseVersion: 1, assessment: '<p>Sano</p>' })).json<VisitNote>()
      .version;
    expect(
      (await as(doctor, 'POST', `/appointments/${signedVisit}/note/sign`, { baseVersion: version }))
        .statusCode,
    ).toBe(200);
    const byDoctor = await as(colleague, 'GET', `/patients/${patient.id}/notes`);
    expect(byDoctor.statusCode).toBe(200);
    const all = byDoctor.json<ChartNoteList>().items;
    expect(all.map((item) => item.id)).toContain(draft.id);
    expect(all.some((item) => item.appointmentId === signedVisit && item.status === 'signed')).toBe(true);
    const starts = all.map((item) => item.visitStartsAt);
    expect([...starts].sort().reverse()).toEqual(starts);
    const own = (await as(patient, 'GET', `/patients/${patient.id}/notes`)).json<ChartNoteList>().items;
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((item) => item.status === 'signed')).toBe(true);
    expect(own.map((item) => item.id)).not.toContain(draft.id);
    const viewed = (await auditEventsOf(context.app, 'record.viewed')).filter(
      (event) => event.actorUserId === colleague.id && event.details.section === 'notes',
    );
    expect(viewed.at(-1)).toMatchObject({ targetType: 'patient', targetId: patient.id });
  });

  it('shows note and vitals events in the patient’s access log', async () => {
    const log = (await as(patient, 'GET', '/me/record-access?pageSize=100')).json<RecordAccessPage>();
    const actions = new Set(log.data.map((entry) => entry.action));
    for (const action of [
      'note.created',
      'note.edited',
      'note.diagnoses_set',
      'note.signed',
      'note.addendum_added',
    ]) {
      expect(actions, action).toContain(action);
    }
    // The patient's own actions (reporting vitals, reading) are not listed back to them.
    expect(log.data.some((entry) => entry.actor?.id === patient.id && entry.action === 'record.viewed')).toBe(
      false,
    );
  });
});
