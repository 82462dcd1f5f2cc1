import type { Chart, PatientPage, RecordAccessPage } from '@telemedicina/shared/records';
import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEvents, notifications, patientAllergies } from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import { solidPng, tinyPdf, uploadChartDocument } from '../../test/document-fixtures.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

const clock = createClock('2026-05-04T09:00:00Z');
let context: TestContext;
let treatingDoctor: TestUser;
let otherDoctor: TestUser;
let staff: TestUser;
let patient: TestUser;
let otherPatient: TestUser;
/** Exports records (records.export): the one caller of `POST /patients/:patientId/export`. */
let admin: TestUser;
const sessions = new Map<TestUser, string>();

/** A session of the user at the current (test) time; signed in again after the clock moved. */
async function sessionOf(user: TestUser): Promise<string> {
  const known = sessions.get(user);
  if (known !== undefined) {
    return known;
  }
  const token = (await signIn(context.app, user)).token;
  sessions.set(user, token);
  return token;
}

function as(user: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) {
  return sessionOf(user).then((session) =>
    send(context.app, method, `/api/v1${url}`, { session, ...(body === undefined ? {} : { body }) }),
  );
}

const goodBodies: Record<string, unknown> = {
  'PATCH /api/v1/patients/:patientId/profile': { address: 'Calle Mayor 1, Madrid' },
  'POST /api/v1/patients/:patientId/allergies': { substance: 'Penicilina', severity: 'severe' },
  'POST /api/v1/patients/:patientId/conditions': { description: 'Hipertensión arterial' },
  'POST /api/v1/patients/:patientId/medications': { name: 'Enalapril', dose: '10 mg' },
  'POST /api/v1/patients/:patientId/prescriptions': {
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
  },
  // Sent as multipart by the audit walk (uploadChartDocument); as JSON it must still answer 404 to strangers.
  'POST /api/v1/patients/:patientId/documents': { category: 'lab' },
  'POST /api/v1/patients/:patientId/export': {
    reason: 'Solicitud escrita de la paciente para cambiar de clínica',
  },
  'POST /api/v1/patients/:patientId/emergency-access': {
    reason: 'Paciente inconsciente en urgencias, necesito sus alergias.',
  },
};

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  const app = context.app;
  treatingDoctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Tratante' });
  otherDoctor = await createUser(app, { roles: ['doctor'], name: 'Dr. Ajeno' });
  staff = await createUser(app, { roles: ['staff'], name: 'Recepción Uno' });
  patient = await createUser(app, { roles: ['patient'], name: 'Paciente Ana' });
  otherPatient = await createUser(app, { roles: ['patient'], name: 'Paciente Beto' });
  admin = await createUser(app, { roles: ['admin'], name: 'Admin Export' });
  await createAppointment(app, {
    doctorId: treatingDoctor.id,
    patientId: patient.id,
    startsAt: '2026-05-01T10:00:00Z',
    status: 'completed',
  });
  await context.db.execute(sql`
    insert into diagnosis_codes (code, chapter, name_es, name_en, search_text)
    values ('I10', 'IX', 'Hipertensión esencial (primaria)', 'Essential (primary) hypertension', 'i10 hipertension')
    on conflict (code) do nothing`);
});

afterAll(async () => {
  await context?.close();
});

beforeEach(() => {
  clock.set('2026-05-04T09:00:00Z');
  sessions.clear();
});

describe('patients list', () => {
  it('gives a doctor their own patients and staff every patient, in the spec pagination shape', async () => {
    const own = (await as(treatingDoctor, 'GET', '/patients')).json<PatientPage>();
    expect(own).toMatchObject({ page: 1, pageSize: 20, total: 1 });
    expect(own.data.map((row) => row.id)).toEqual([patient.id]);
    expect(own.data[0]?.lastVisitAt).toBe('2026-05-01T10:00:00.000Z');
    expect((await as(otherDoctor, 'GET', '/patients')).json<PatientPage>().total).toBe(0);

    const all = (
      await as(staff, 'GET', `/patients?q=${encodeURIComponent('Paciente')}&pageSize=1`)
    ).json<PatientPage>();
    expect(all).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(all.data).toHaveLength(1);
    expect((await as(patient, 'GET', '/patients')).statusCode).toBe(403);
    expect((await as(staff, 'GET', '/patients?pageSize=500')).statusCode).toBe(400);
  });

  it('gives the last past visit and the next visit apart (a booked future visit is not the "last")', async () => {
    const app = context.app;
    const doctor = await createUser(app, { roles: ['doctor'], name: 'Dr. Agenda' });
    const carla = await createUser(app, { roles: ['patient'], name: 'Carla Futura' });
    const diego = await createUser(app, { roles: ['patient'], name: 'Diego Nuevo' });
    // Now is 2026-05-04 09:00 UTC.
    for (const [startsAt, status] of [
      ['2026-04-20T10:00:00Z', 'completed'],
      ['2026-05-06T10:00:00Z', 'cancelled'],
      ['2026-05-10T10:00:00Z', 'confirmed'],
      ['2026-06-01T10:00:00Z', 'requested'],
    ] as const) {
      await createAppointment(app, { doctorId: doctor.id, patientId: carla.id, startsAt, status });
    }
    await createAppointment(app, {
      doctorId: doctor.id,
      patientId: diego.id,
      startsAt: '2026-05-05T08:00:00Z',
    });

    const own = (await as(doctor, 'GET', '/patients')).json<PatientPage>();
    expect(
      own.data.map(({ name, lastVisitAt, nextVisitAt }) => ({ name, lastVisitAt, nextVisitAt })),
    ).toEqual([
      {
        name: 'Carla Futura',
        lastVisitAt: '2026-04-20T10:00:00.000Z',
        nextVisitAt: '2026-05-10T10:00:00.000Z',
      },
      { name: 'Diego Nuevo', lastVisitAt: null, nextVisitAt: '2026-05-05T08:00:00.000Z' },
    ]);
    const clinic = (await as(staff, 'GET', '/patients?q=Carla')).json<PatientPage>();
    expect(clinic.data[0]).toMatchObject({
      lastVisitAt: '2026-04-20T10:00:00.000Z',
      nextVisitAt: '2026-05-10T10:00:00.000Z',
    });
  });
});

describe('chart access policy', () => {
  it('answers 404 on every chart endpoint to a doctor without a relationship', async () => {
    const chartRoutes = [...context.app.accessRegistry].filter(
      (entry) =>
        entry.url.startsWith('/api/v1/patients/:patientId') &&
        !entry.url.endsWith('/emergency-access') &&
        !entry.url.endsWith('/export'),
    );
    expect(chartRoutes.length).toBeGreaterThanOrEqual(8);
    for (const entry of chartRoutes) {
      const url = entry.url
        .replace('/api/v1', '')
        .replace(':patientId', patient.id)
        .replace(':entryId', crypto.randomUUID());
      const response = await as(
        otherDoctor,
        entry.method as 'GET',
        url,
        goodBodies[`${entry.method} ${entry.url}`],
      );
      expect(response.statusCode, `${entry.method} ${entry.url}`).toBe(404);
    }
    // The administrators' export is refused by permission (records.export) before any data is read.
    const exportKey = 'POST /api/v1/patients/:patientId/export';
    expect(
      (await as(otherDoctor, 'POST', `/patients/${patient.id}/export`, goodBodies[exportKey])).statusCode,
    ).toBe(403);
  });

  it('lets a patient read only their own chart, with the clinical lists', async () => {
    const own = await as(patient, 'GET', `/patients/${patient.id}/chart`);
    expect(own.statusCode).toBe(200);
    expect(own.json<Chart>()).toMatchObject({ access: 'self', patientId: patient.id });
    expect(own.json<Chart>().clinical).not.toBeNull();
    expect((await as(patient, 'GET', `/patients/${otherPatient.id}/chart`)).statusCode).toBe(404);
    expect((await as(patient, 'GET', `/patients/${treatingDoctor.id}/chart`)).statusCode).toBe(404);
    expect((await as(patient, 'GET', '/patients/not-a-uuid/chart')).statusCode).toBe(404);
  });

  it('gives staff the administrative part only, visits without reasons', async () => {
    const response = await as(staff, 'GET', `/patients/${patient.id}/chart`);
    expect(response.statusCode).toBe(200);
    const chart = response.json<Chart>();
    expect(chart.access).toBe('administrative');
    expect(chart.clinical).toBeNull();
    expect(chart.demographics.name).toBe('Paciente Ana');
    expect(chart.visits).toHaveLength(1);
    expect(chart.visits[0]?.reason).toBeNull();
    expect(
      (await as(staff, 'POST', `/patients/${patient.id}/allergies`, { substance: 'Látex' })).statusCode,
    ).toBe(403);
    // A user who is not a patient has no chart.
    expect((await as(staff, 'GET', `/patients/${treatingDoctor.id}/chart`)).statusCode).toBe(404);
  });

  it('lets the patient edit contact details and emergency contact, not the rest', async () => {
    const ok = await as(patient, 'PATCH', `/patients/${patient.id}/profile`, {
      phone: '+34 600 000 000',
      emergencyContact: { name: 'Luis Pérez', phone: '+34 611 111 111', relation: 'Hermano' },
    });
    expect(ok.statusCode).toBe(204);
    const refused = await as(patient, 'PATCH', `/patients/${patient.id}/profile`, { sex: 'female' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN', details: { fields: ['sex'] } } });
    expect(
      (await as(patient, 'POST', `/patients/${patient.id}/allergies`, { substance: 'Polen' })).statusCode,
    ).toBe(403);
    const chart = (await as(treatingDoctor, 'GET', `/patients/${patient.id}/chart`)).json<Chart>();
    expect(chart.emergencyContact).toEqual({
      name: 'Luis Pérez',
      phone: '+34 611 111 111',
      relation: 'Hermano',
    });
    expect(chart.demographics.phone).toBe('+34 600 000 000');
  });
});

describe('chart edits', () => {
  it('records lists, keeps removed entries as history, and validates input (400, never 500)', async () => {
    const base = `/patients/${patient.id}`;
    const allergy = await as(treatingDoctor, 'POST', `${base}/allergies`, {
      substance: 'Ibuprofeno',
      reaction: 'Urticaria',
      severity: 'moderate',
    });
    expect(allergy.statusCode).toBe(201);
    const allergyId = allergy.json<{ id: string }>().id;
    const condition = await as(treatingDoctor, 'POST', `${base}/conditions`, {
      description: 'Hipertensión',
      diagnosisCode: 'i10',
    });
    expect(condition.statusCode).toBe(201);
    expect(condition.json()).toMatchObject({
      diagnosisCode: 'I10',
      diagnosisName: 'Hipertensión esencial (primaria)',
    });
    const unknownCode = await as(treatingDoctor, 'POST', `${base}/conditions`, {
      description: 'Algo',
      diagnosisCode: 'ZZZ99',
    });
    expect(unknownCode.statusCode).toBe(400);
    expect(unknownCode.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'diagnosisCode' }] } },
    });

    for (const [url, body] of [
      [`${base}/allergies`, { substance: '' }],
      [`${base}/allergies`, { substance: 'X', severity: 'lethal' }],
      [`${base}/allergies`, { substance: 'x'.repeat(500) }],
      [`${base}/conditions`, { description: 'Y', onsetDate: '2026-13-40' }],
      [`${base}/medications`, { name: 'Z', startedOn: '2026-05-02', stoppedOn: '2026-05-01' }],
      [`${base}/profile`, { phone: 'abc' }],
      [`${base}/profile`, { unknownField: 1 }],
      [`${base}/profile`, {}],
    ] as const) {
      const response = await as(treatingDoctor, url.endsWith('profile') ? 'PATCH' : 'POST', url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBe(400);
      expect(response.json<{ error: { code: string } }>().error.code).toBe('VALIDATION_FAILED');
    }

    const removed = await as(treatingDoctor, 'DELETE', `${base}/allergies/${allergyId}`);
    expect(removed.statusCode).toBe(204);
    expect((await as(treatingDoctor, 'DELETE', `${base}/allergies/${allergyId}`)).statusCode).toBe(404);
    expect((await as(treatingDoctor, 'DELETE', `${base}/allergies/not-a-uuid`)).statusCode).toBe(404);
    // Another patient's entry cannot be removed through this patient's chart.
    expect(
      (await as(treatingDoctor, 'DELETE', `/patients/${patient.id}/conditions/${allergyId}`)).statusCode,
    ).toBe(404);

    const active = (await as(treatingDoctor, 'GET', `${base}/chart`)).json<Chart>();
    expect(active.clinical?.allergies.map((entry) => entry.id)).not.toContain(allergyId);
    const history = (await as(treatingDoctor, 'GET', `${base}/chart?include=removed`)).json<Chart>();
    const kept = history.clinical?.allergies.find((entry) => entry.id === allergyId);
    expect(kept).toMatchObject({
      substance: 'Ibuprofeno',
      removedAt: '2026-05-04T09:00:00.000Z',
      removedBy: { id: treatingDoctor.id, name: 'Dra. Tratante' },
      recordedBy: { id: treatingDoctor.id, name: 'Dra. Tratante' },
    });
    const [row] = await context.db.select().from(patientAllergies).where(eq(patientAllergies.id, allergyId));
    expect(row?.removedByUserId).toBe(treatingDoctor.id);
    expect((await as(treatingDoctor, 'GET', `${base}/chart?include=everything`)).statusCode).toBe(400);

    const [update] = (await auditEventsOf(context.app, 'record.updated')).filter(
      (event) => event.details.entryId === allergyId && event.details.operation === 'added',
    );
    expect(update).toMatchObject({ targetType: 'patient', targetId: patient.id });
    expect(update?.details.fields).toEqual(['substance', 'reaction', 'severity']);
    // Names of the fields only, never the clinical text.
    expect(JSON.stringify(update?.details)).not.toContain('Urticaria');
  });
});

describe('emergency access', () => {
  it('requires a reason, opens the chart for 60 minutes only, is audited and notifies the patient', async () => {
    const url = `/patients/${patient.id}/emergency-access`;
    expect((await as(otherDoctor, 'GET', `/patients/${patient.id}/chart`)).statusCode).toBe(404);
    const missing = await as(otherDoctor, 'POST', url, {});
    expect(missing.statusCode).toBe(400);
    const short = await as(otherDoctor, 'POST', url, { reason: 'urgente' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ error: { details: { issues: [{ path: 'reason' }] } } });
    expect(
      (
        await as(
          otherDoctor,
          'POST',
          `/patients/${crypto.randomUUID()}/emergency-access`,
          goodBodies[`POST /api/v1${url.replace(patient.id, ':patientId')}`],
        )
      ).statusCode,
    ).toBe(404);
    expect(
      (await as(treatingDoctor, 'POST', url, goodBodies['POST /api/v1/patients/:patientId/emergency-access']))
        .statusCode,
    ).toBe(409);
    expect(
      (await as(staff, 'POST', url, goodBodies['POST /api/v1/patients/:patientId/emergency-access']))
        .statusCode,
    ).toBe(403);

    const reason = 'Paciente inconsciente en urgencias, necesito sus alergias.';
    const granted = await as(otherDoctor, 'POST', url, { reason });
    expect(granted.statusCode).toBe(201);
    expect(granted.json()).toMatchObject({ patientId: patient.id, expiresAt: '2026-05-04T10:00:00.000Z' });

    const [event] = (await auditEventsOf(context.app, 'record.emergency_access')).filter(
      (row) => row.actorUserId === otherDoctor.id,
    );
    expect(event).toMatchObject({ targetType: 'patient', targetId: patient.id, details: { reason } });
    const [notice] = await context.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, patient.id), eq(notifications.kind, 'record.emergencyAccess')));
    expect(notice?.data).toMatchObject({ doctorId: otherDoctor.id, expiresAt: '2026-05-04T10:00:00.000Z' });

    const chart = await as(otherDoctor, 'GET', `/patients/${patient.id}/chart`);
    expect(chart.statusCode).toBe(200);
    expect(chart.json<Chart>()).toMatchObject({
      access: 'emergency',
      emergencyExpiresAt: '2026-05-04T10:00:00.000Z',
    });
    const viewed = (await auditEventsOf(context.app, 'record.viewed')).at(-1);
    expect(viewed).toMatchObject({
      actorUserId: otherDoctor.id,
      targetId: patient.id,
      details: { emergency: true, reason },
    });

    clock.set('2026-05-04T09:59:00Z');
    sessions.clear();
    expect((await as(otherDoctor, 'GET', `/patients/${patient.id}/chart`)).statusCode).toBe(200);
    clock.set('2026-05-04T10:00:01Z');
    sessions.clear();
    expect((await as(otherDoctor, 'GET', `/patients/${patient.id}/chart`)).statusCode).toBe(404);
    expect(
      (await as(otherDoctor, 'POST', `/patients/${patient.id}/allergies`, { substance: 'Látex' })).statusCode,
    ).toBe(404);
  });
});

describe('audit of every chart endpoint', () => {
  it('writes an audit event targeting the patient for every route under /patients', async () => {
    const db = context.db;
    const registry = [...context.app.accessRegistry].filter(
      // The chart's routes and the doctor's list. Reception's patient lookup and registration
      // (modules/reception) are audited as a list view and an account creation, in their own tests.
      (entry) =>
        (entry.url === '/api/v1/patients' && entry.method === 'GET') ||
        entry.url.startsWith('/api/v1/patients/:patientId'),
    );
    expect(registry.length).toBeGreaterThanOrEqual(10);
    const walked: string[] = [];
    const missing: string[] = [];
    for (const entry of registry) {
      const key = `${entry.method} ${entry.url}`;
      const isEmergency = entry.url.endsWith('/emergency-access');
      const isExport = entry.url.endsWith('/export');
      const caller = isEmergency ? otherDoctor : isExport ? admin : treatingDoctor;
      let entryId: string = crypto.randomUUID();
      // Document routes take multipart uploads; the ones naming a document get a fresh one.
      const isDocumentRoute = entry.url.includes('/patients/:patientId/documents');
      if (isDocumentRoute && entry.url.includes(':documentId')) {
        const created = await uploadChartDocument(context.app, await sessionOf(caller), patient.id, {
          name: 'recorrido.pdf',
          type: 'application/pdf',
          bytes: tinyPdf(),
        });
        expect(created.statusCode, `upload for ${key}`).toBe(201);
        entryId = created.json<{ id: string }>().id;
      } else if (entry.method === 'DELETE') {
        const list = /\/patients\/:patientId\/(\w+)\/:entryId$/.exec(entry.url)?.[1] ?? '';
        const created = await as(
          caller,
          'POST',
          `/patients/${patient.id}/${list}`,
          goodBodies[`POST /api/v1/patients/:patientId/${list}`],
        );
        expect(created.statusCode, `create for ${key}`).toBe(201);
        entryId = created.json<{ id: string }>().id;
      }
      const [{ maxId } = { maxId: 0 }] = await db
        .select({ maxId: sql<number>`coalesce(max(${auditEvents.id}), 0)::int` })
        .from(auditEvents);
      const url = entry.url
        .replace('/api/v1', '')
        .replace(':patientId', patient.id)
        .replace(':entryId', entryId)
        .replace(':documentId', entryId);
      const body = entry.method === 'GET' || entry.method === 'DELETE' ? undefined : goodBodies[key];
      if (body === undefined && entry.method !== 'GET' && entry.method !== 'DELETE') {
        missing.push(`${key}: no request body in goodBodies (add one for the new endpoint)`);
        continue;
      }
      const response =
        isDocumentRoute && entry.method === 'POST'
          ? await uploadChartDocument(context.app, await sessionOf(caller), patient.id, {
              name: 'recorrido.png',
              type: 'image/png',
              bytes: solidPng(2, 2),
            })
          : await as(caller, entry.method as 'GET', url, body);
      expect(response.statusCode, key).toBeLessThan(300);
      const written = await db
        .select()
        .from(auditEvents)
        .where(and(gt(auditEvents.id, maxId), eq(auditEvents.actorUserId, caller.id)));
      const isList = entry.url === '/api/v1/patients';
      const hit = written.find((event) =>
        isList
          ? event.action === 'patient.list_viewed'
          : event.targetType === 'patient' && event.targetId === patient.id,
      );
      if (hit === undefined) {
        missing.push(`${key}: no audit event`);
      }
      walked.push(key);
    }
    expect(missing).toEqual([]);
    expect(walked).toContain('GET /api/v1/patients/:patientId/chart');
  });
});

describe('access log', () => {
  it('shows the patient who viewed and changed their record, newest first, with emergency reasons', async () => {
    clock.set('2026-05-04T11:00:00Z');
    const viewed = await as(treatingDoctor, 'GET', `/patients/${patient.id}/chart`);
    expect(viewed.statusCode, viewed.body).toBe(200);
    const log = await as(patient, 'GET', '/me/record-access?pageSize=100');
    expect(log.statusCode).toBe(200);
    const page = log.json<RecordAccessPage>();
    expect(page.total).toBeGreaterThan(3);
    const times = page.data.map((entry) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(page.data[0]).toMatchObject({
      action: 'record.viewed',
      at: '2026-05-04T11:00:00.000Z',
      actor: { id: treatingDoctor.id, name: 'Dra. Tratante', roleKey: 'doctor' },
      section: 'chart',
      isEmergency: false,
    });
    const emergency = page.data.find((entry) => entry.action === 'record.emergency_access');
    expect(emergency).toMatchObject({
      actor: { id: otherDoctor.id, roleKey: 'doctor' },
      isEmergency: true,
      emergencyReason: 'Paciente inconsciente en urgencias, necesito sus alergias.',
    });
    // Their own views are not listed; other patients' logs do not include this record.
    expect(
      page.data.some((entry) => entry.action === 'record.viewed' && entry.actor?.id === patient.id),
    ).toBe(false);
    const other = (await as(otherPatient, 'GET', '/me/record-access')).json<RecordAccessPage>();
    expect(other.total).toBe(0);
    expect((await as(treatingDoctor, 'GET', '/me/record-access')).statusCode).toBe(403);
    expect((await as(patient, 'GET', '/me/record-access?page=0')).statusCode).toBe(400);
  });
});
