import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  ChartNoteList,
  NoteEnvelope,
  RecordAccessPage,
  VisitNote,
  VitalsResponse,
} from '@telemedicina/shared';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEvents,
  chartDocuments,
  emailOutbox,
  files,
  notifications,
  visitNotes,
} from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { pdfText } from '../../test/pdf-text.js';

const clock = createClock('2026-05-04T09:00:00Z');
let context: TestContext;
let doctor: TestUser;
let colleague: TestUser;
let stranger: TestUser;
let staff: TestUser;
let patient: TestUser;
let otherPatient: TestUser;
const sessions = new Map<TestUser, string>();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function as(user: TestUser, method: Method, url: string, body?: unknown) {
  let session = sessions.get(user);
  if (session === undefined) {
    session = (await signIn(context.app, user)).token;
    sessions.set(user, session);
  }
  return send(context.app, method, `/api/v1${url}`, { session, ...(body === undefined ? {} : { body }) });
}

let visitCount = 0;

/** A visit of `doctor` with `patient` (in progress unless told), each in its own hour from June on. */
async function visit(
  status: 'in_progress' | 'confirmed' | 'cancelled' | 'completed' = 'in_progress',
  startsAt?: string,
) {
  visitCount += 1;
  const row = await createAppointment(context.app, {
    doctorId: doctor.id,
    patientId: patient.id,
    startsAt: startsAt ?? new Date(Date.parse('2026-06-01T00:00:00Z') + visitCount * 3_600_000),
    status,
  });
  return row.id;
}

/** Moves the test clock; sessions are signed in again at the new time (idle timeouts). */
function moveClock(iso: string): void {
  clock.set(iso);
  sessions.clear();
}

async function startNote(appointmentId: string): Promise<VisitNote> {
  const response = await as(doctor, 'POST', `/appointments/${appointmentId}/note`);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<VisitNote>();
}

async function save(appointmentId: string, body: Record<string, unknown>, user = doctor) {
  return as(user, 'PATCH', `/appointments/${appointmentId}/note`, body);
}

async function storedSummaries(): Promise<string[]> {
  return readdir(path.join(context.config.uploadsDir, 'visit-summaries')).catch(() => []);
}

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  const app = context.app;
  doctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Lucía Ortega', language: 'es' });
  colleague = await createUser(app, { roles: ['doctor'], name: 'Dr. Colega', language: 'es' });
  stranger = await createUser(app, { roles: ['doctor'], name: 'Dr. Ajeno' });
  staff = await createUser(app, { roles: ['staff'] });
  patient = await createUser(app, { roles: ['patient'], name: 'Emma Patient', language: 'en' });
  otherPatient = await createUser(app, { roles: ['patient'], name: 'Otro Paciente' });
  // The colleague treats the patient too (another visit); the stranger never did.
  await createAppointment(app, {
    doctorId: colleague.id,
    patientId: patient.id,
    startsAt: '2026-04-01T10:00:00Z',
    status: 'completed',
  });
  await createAppointment(app, {
    doctorId: doctor.id,
    patientId: otherPatient.id,
    startsAt: '2026-04-02T10:00:00Z',
    status: 'completed',
  });
  await context.db.db.execute(sql`
    insert into diagnosis_codes (code, chapter, name_es, name_en, search_text) values
      ('I10', 'IX', 'Hipertensión esencial (primaria)', 'Essential (primary) hypertension', 'i10 hipertension'),
      ('J06.9', 'X', 'Infección aguda de las vías respiratorias superiores', 'Acute upper respiratory infection', 'j06.9 infeccion')
    on conflict (code) do nothing`);
  await context.db.db.execute(sql`
    insert into doctor_profiles (user_id, license_number, languages, visit_minutes)
    values (${doctor.id}, 'MED-28-12345', '{es}', 30)`);
});

afterAll(async () => {
  await context?.close();
});

beforeEach(() => {
  moveClock('2026-05-04T09:00:00Z');
});

describe('the draft', () => {
  it('is created once by the visit’s doctor, and hidden from the patient until signed', async () => {
    const appointmentId = await visit();
    const created = await startNote(appointmentId);
    expect(created).toMatchObject({ status: 'draft', version: 1, canEdit: true, canAmend: false });
    expect(created.doctor).toEqual({
      id: doctor.id,
      name: 'Dra. Lucía Ortega',
      licenseNumber: 'MED-28-12345',
    });
    const again = await as(doctor, 'POST', `/appointments/${appointmentId}/note`);
    expect(again.statusCode).toBe(200);
    expect(again.json<VisitNote>().id).toBe(created.id);
    const reread = (await auditEventsOf(context.app, 'record.viewed')).filter(
      (event) => event.details.noteId === created.id && event.actorUserId === doctor.id,
    );
    expect(reread).toHaveLength(1);
    const createdEvents = (await auditEventsOf(context.app, 'note.created')).filter(
      (event) => event.details.noteId === created.id,
    );
    expect(createdEvents).toHaveLength(1);
    expect(createdEvents[0]).toMatchObject({ targetType: 'patient', targetId: patient.id });

    const byPatient = await as(patient, 'GET', `/appointments/${appointmentId}/note`);
    expect(byPatient.statusCode).toBe(200);
    expect(byPatient.json<NoteEnvelope>()).toEqual({ note: null, vitals: null });
    // Another treating doctor reads the draft but may not write it.
    const byColleague = await as(colleague, 'GET', `/appointments/${appointmentId}/note`);
    expect(byColleague.json<NoteEnvelope>().note).toMatchObject({ id: created.id, canEdit: false });
    expect((await save(appointmentId, { baseVersion: 1, plan: '<p>x</p>' }, colleague)).statusCode).toBe(403);
    expect((await as(colleague, 'POST', `/appointments/${appointmentId}/note`)).statusCode).toBe(403);
  });

  it('refuses cancelled and requested visits', async () => {
    const cancelled = await visit('cancelled');
    const response = await as(doctor, 'POST', `/appointments/${cancelled}/note`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: { code: 'CONFLICT' } });
  });

  it('stores only sanitized HTML', async () => {
    const appointmentId = await visit();
    await startNote(appointmentId);
    const response = await save(appointmentId, {
      baseVersion: 1,
      subjective: '<p>Dolor <img src=x onerror=alert(1)>de cabeza</p><script>alert(2)</script>',
      objective: '<p><a href="javascript:alert(3)">enlace</a> y <a href="https://example.org">web</a></p>',
      assessment: '<p onclick="alert(4)" style="color:red">Bien</p><iframe src="https://evil.test"></iframe>',
    });
    expect(response.statusCode, response.body).toBe(200);
    const note = response.json<VisitNote>();
    expect(note.version).toBe(2);
    const [row] = await context.db.db.select().from(visitNotes).where(eq(visitNotes.id, note.id));
    const stored = [row!.subjectiveHtml, row!.objectiveHtml, row!.assessmentHtml].join('\n');
    expect(stored).not.toMatch(/<img|onerror|<script|alert\(2\)|javascript:|onclick|style=|<iframe/i);
    expect(row!.subjectiveHtml).toBe('<p>Dolor de cabeza</p>');
    expect(row!.objectiveHtml).toContain(
      '<a href="https://example.org" rel="noopener noreferrer nofollow">web</a>',
    );
    expect(note.sections.assessment).toBe('<p>Bien</p>');
  });

  it('answers 409 NOTE_VERSION_CONFLICT with the current note to a stale save', async () => {
    const appointmentId = await visit();
    await startNote(appointmentId);
    expect((await save(appointmentId, { baseVersion: 1, plan: '<p>Primera</p>' })).statusCode).toBe(200);
    const stale = await save(appointmentId, { baseVersion: 1, plan: '<p>Otra pestaña</p>' });
    expect(stale.statusCode).toBe(409);
    const error = stale.json<{ error: { code: string; details: { note: VisitNote } } }>().error;
    expect(error.code).toBe('NOTE_VERSION_CONFLICT');
    expect(error.details.note).toMatchObject({ version: 2, sections: { plan: '<p>Primera</p>' } });
    expect((await save(appointmentId, { baseVersion: 0, plan: 'x' })).statusCode).toBe(400);
  });

  it('audits autosaves as one note.edited per note per 10 minutes', async () => {
    const appointmentId = await visit();
    const note = await startNote(appointmentId);
    const editsOf = async () =>
      (await auditEventsOf(context.app, 'note.edited')).filter((event) => event.details.noteId === note.id);
    let version = note.version;
    for (let second = 0; second < 30; second += 5) {
      moveClock(new Date(Date.parse('2026-05-04T09:00:00Z') + second * 1000).toISOString());
      const response = await save(appointmentId, { baseVersion: version, subjective: `<p>${second}</p>` });
      expect(response.statusCode).toBe(200);
      version = response.json<VisitNote>().version;
    }
    const first = await editsOf();
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ actorUserId: doctor.id, targetType: 'patient', targetId: patient.id });
    expect(first[0]!.details).toMatchObject({ section: 'note', sections: ['subjective'] });
    moveClock('2026-05-04T09:09:00Z');
    expect((await save(appointmentId, { baseVersion: version, plan: '<p>a</p>' })).statusCode).toBe(200);
    expect(await editsOf()).toHaveLength(1);
    moveClock('2026-05-04T09:10:30Z');
    expect((await save(appointmentId, { baseVersion: version + 1, plan: '<p>b</p>' })).statusCode).toBe(200);
    expect(await editsOf()).toHaveLength(2);
  });

  it('sets diagnoses from the catalogue only', async () => {
    const appointmentId = await visit();
    const note = await startNote(appointmentId);
    const unknown = await as(doctor, 'PUT', `/appointments/${appointmentId}/note/diagnoses`, {
      baseVersion: note.version,
      items: [{ code: 'I10' }, { code: 'Z99.9' }],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'items.1.code' }] } },
    });
    const twoPrimaries = await as(doctor, 'PUT', `/appointments/${appointmentId}/note/diagnoses`, {
      baseVersion: note.version,
      items: [
        { code: 'I10', primary: true },
        { code: 'J06.9', primary: true },
      ],
    });
    expect(twoPrimaries.statusCode).toBe(400);
    const ok = await as(doctor, 'PUT', `/appointments/${appointmentId}/note/diagnoses`, {
      baseVersion: note.version,
      items: [{ code: 'j06.9' }, { code: 'I10', primary: true }],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<VisitNote>()).toMatchObject({ version: 2 });
    expect(ok.json<VisitNote>().diagnoses.map((item) => [item.code, item.primary])).toEqual([
      ['J06.9', false],
      ['I10', true],
    ]);
    const events = (await auditEventsOf(context.app, 'note.diagnoses_set')).filter(
      (event) => event.details.noteId === note.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.details).toMatchObject({ count: 2, hasPrimary: true });
  });
});

describe('vitals', () => {
  it('are reported by the patient within ranges, read by the doctor, and audited', async () => {
    const appointmentId = await visit('confirmed');
    const url = `/appointments/${appointmentId}/vitals`;
    const outOfRange = await as(patient, 'PUT', url, { temperatureC: 48, heartRateBpm: 72.5 });
    expect(outOfRange.statusCode).toBe(400);
    const paths = outOfRange
      .json<{ error: { details: { issues: { path: string }[] } } }>()
      .error.details.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['temperatureC', 'heartRateBpm']));
    const pressure = await as(patient, 'PUT', url, { systolicMmHg: 80, diastolicMmHg: 90 });
    expect(pressure.statusCode).toBe(400);
    expect(pressure.json()).toMatchObject({
      error: { details: { issues: [{ path: 'diastolicMmHg', message: 'validation.bloodPressure' }] } },
    });
    expect((await as(patient, 'PUT', url, {})).statusCode).toBe(400);

    const reported = await as(patient, 'PUT', url, {
      temperatureC: 37.8,
      systolicMmHg: 128,
      diastolicMmHg: 84,
      heartRateBpm: 88,
      weightKg: 70.5,
    });
    expect(reported.statusCode, reported.body).toBe(200);
    expect(reported.json<VitalsResponse>().vitals).toMatchObject({
      temperatureC: 37.8,
      systolicMmHg: 128,
      weightKg: 70.5,
      glucoseMgDl: null,
      reportedAt: '2026-05-04T09:00:00.000Z',
    });
    const [event] = (await auditEventsOf(context.app, 'vitals.reported')).filter(
      (row) => row.details.appointmentId === appointmentId,
    );
    expect(event).toMatchObject({ actorUserId: patient.id, targetType: 'patient', targetId: patient.id });
    expect(event!.details.fields).toEqual([
      'temperatureC',
      'heartRateBpm',
      'systolicMmHg',
      'diastolicMmHg',
      'weightKg',
    ]);

    const read = await as(doctor, 'GET', url);
    expect(read.json<VitalsResponse>().vitals?.heartRateBpm).toBe(88);
    const viewed = (await auditEventsOf(context.app, 'record.viewed')).filter(
      (row) => row.actorUserId === doctor.id && row.details.appointmentId === appointmentId,
    );
    expect(viewed.map((row) => row.details.section)).toEqual(['vitals']);
    // The doctor reads them with the note too; they do not report them.
    expect(
      (await as(doctor, 'GET', `/appointments/${appointmentId}/note`)).json<NoteEnvelope>().vitals,
    ).toMatchObject({
      temperatureC: 37.8,
    });
    expect((await as(doctor, 'PUT', url, { heartRateBpm: 60 })).statusCode).toBe(403);
    expect((await as(otherPatient, 'PUT', url, { heartRateBpm: 60 })).statusCode).toBe(404);
    const cancelled = await visit('cancelled');
    expect(
      (await as(patient, 'PUT', `/appointments/${cancelled}/vitals`, { heartRateBpm: 60 })).statusCode,
    ).toBe(409);
  });
});

describe('access', () => {
  it('answers 404 on every note and vitals endpoint to a doctor without a relationship, and to another patient', async () => {
    const appointmentId = await visit();
    await startNote(appointmentId);
    const routes = [...context.app.accessRegistry].filter((entry) =>
      /^\/api\/v1\/appointments\/:appointmentId\/(note|vitals)/.test(entry.url),
    );
    expect(routes.length).toBe(8);
    const bodies: Record<string, unknown> = {
      'PATCH /api/v1/appointments/:appointmentId/note': { baseVersion: 1, plan: '<p>x</p>' },
      'PUT /api/v1/appointments/:appointmentId/note/diagnoses': { baseVersion: 1, items: [] },
      'POST /api/v1/appointments/:appointmentId/note/sign': { baseVersion: 1 },
      'POST /api/v1/appointments/:appointmentId/note/addenda': { body: '<p>x</p>' },
      'PUT /api/v1/appointments/:appointmentId/vitals': { heartRateBpm: 70 },
    };
    for (const entry of routes) {
      const key = `${entry.method} ${entry.url}`;
      const url = entry.url.replace('/api/v1', '').replace(':appointmentId', appointmentId);
      const byStranger = await as(stranger, entry.method as Method, url, bodies[key]);
      expect(byStranger.statusCode, `stranger ${key}`).toBe(404);
      const unknown = url.replace(appointmentId, crypto.randomUUID());
      expect(
        (await as(doctor, entry.method as Method, unknown, bodies[key])).statusCode,
        `unknown ${key}`,
      ).toBe(404);
      if (entry.method === 'GET') {
        expect((await as(otherPatient, 'GET', url)).statusCode, `other patient ${key}`).toBe(404);
        expect((await as(staff, 'GET', url)).statusCode, `staff ${key}`).toBe(403);
      }
    }
    expect((await as(stranger, 'GET', `/patients/${patient.id}/notes`)).statusCode).toBe(404);
    expect((await as(otherPatient, 'GET', `/patients/${patient.id}/notes`)).statusCode).toBe(404);
    expect((await as(staff, 'GET', `/patients/${patient.id}/notes`)).statusCode).toBe(403);
    expect((await as(doctor, 'GET', '/appointments/not-a-uuid/note')).statusCode).toBe(404);
  });
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

    const db = context.db.db;
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
    const stored = await context.app.services.db.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, patient.email), eq(emailOutbox.template, 'visit-summary')));
    expect(stored).toHaveLength(1);
    const email = stored[0]!;
    expect(email.language).toBe('en');
    expect(email.subject).toContain('Summary of your visit');
    // The patient is linked to the visit in their portal (issue 20), not to the admin area.
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
    const db = context.db.db;
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
    const db = context.db.db;
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
