import type { NoteEnvelope, VisitNote, VitalsResponse } from '@telemedicina/shared/notes';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { visitNotes } from '../../db/schema.js';
import { auditEventsOf, type TestUser } from '../../test/factories.js';
import type { TestContext } from '../../test/test-context.js';
import {
  as,
  moveClock,
  people,
  save,
  setUpNotesTests,
  startNote,
  visit,
  type Method,
} from './notes-test-fixture.js';

let context: TestContext;
let doctor: TestUser;
let colleague: TestUser;
let stranger: TestUser;
let staff: TestUser;
let patient: TestUser;
let otherPatient: TestUser;

setUpNotesTests();
beforeAll(() => {
  ({ context, doctor, colleague, stranger, staff, patient, otherPatient } = people());
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
    const [row] = await context.db.select().from(visitNotes).where(eq(visitNotes.id, note.id));
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
