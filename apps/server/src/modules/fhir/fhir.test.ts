import type { Binary, CapabilityStatement, Resource } from '@medplum/fhirtypes';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import { tinyPdf } from '../../test/document-fixtures.js';
import {
  createAppointment,
  createUser,
  nextRemoteAddress,
  send,
  signIn,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';
import type { FhirAccess } from './fhir-access.js';
import {
  bundleOf,
  expectValid,
  idsOf,
  outcomeOf,
  seedFhirRecord,
  scopedFhirMount,
} from './fhir-test-support.js';
import { resourceHandlers } from './fhir-table.js';

const clock = createClock('2026-05-04T09:00:00Z');
let context: TestContext;
let doctor: TestUser;
let otherDoctor: TestUser;
let staff: TestUser;
let patient: TestUser;
let otherPatient: TestUser;
let visitId: string;
let otherVisitId: string;
let documentId: string;
let prescriptionId: string;
const sessions = new Map<TestUser, string>();
/** Accesses a SMART token would carry, served by a second mount of the same plugin. */
const scoped = scopedFhirMount();

async function sessionOf(user: TestUser): Promise<string> {
  const known = sessions.get(user);
  if (known !== undefined) {
    return known;
  }
  const token = (await signIn(context.app, user)).token;
  sessions.set(user, token);
  return token;
}

/** A GET on /fhir/R4 with the user's session (or none). */
async function fhir(user: TestUser | null, path: string, headers: Record<string, string> = {}) {
  const session = user === null ? null : await sessionOf(user);
  return context.app.inject({
    method: 'GET',
    url: `/fhir/R4${path}`,
    headers: { ...(session === null ? {} : { cookie: `tm_session=${session}` }), ...headers },
    remoteAddress: nextRemoteAddress(),
  });
}

/** A GET on the scoped mount with a Bearer token standing for `access`. */
const withAccess = (access: Omit<FhirAccess, 'tokenExpiresAt'>, path: string) =>
  scoped.get(context.app, access, path);

beforeAll(async () => {
  context = await createTestContext({
    now: clock.now,
    configure: scoped.register,
  });
  const app = context.app;
  doctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Tratante' });
  otherDoctor = await createUser(app, { roles: ['doctor'], name: 'Dr. Ajeno' });
  staff = await createUser(app, { roles: ['staff'], name: 'Recepción Uno' });
  patient = await createUser(app, { roles: ['patient'], name: 'Paciente Ana' });
  otherPatient = await createUser(app, { roles: ['patient'], name: 'Paciente Beto' });
  visitId = (
    await createAppointment(app, {
      doctorId: doctor.id,
      patientId: patient.id,
      startsAt: '2026-05-04T10:00:00Z',
    })
  ).id;
  for (const day of ['05', '06', '07', '08']) {
    await createAppointment(app, {
      doctorId: doctor.id,
      patientId: patient.id,
      startsAt: `2026-05-${day}T10:00:00Z`,
      ...(day === '05'
        ? { status: 'completed' as const, startedAt: '2026-05-05T10:01:00Z', endedAt: '2026-05-05T10:25:00Z' }
        : {}),
    });
  }
  otherVisitId = (
    await createAppointment(app, {
      doctorId: otherDoctor.id,
      patientId: otherPatient.id,
      startsAt: '2026-05-04T11:00:00Z',
    })
  ).id;
  ({ documentId, prescriptionId } = await seedFhirRecord(context, {
    patient,
    otherPatient,
    visitId,
    otherVisitId,
    patientSession: await sessionOf(patient),
    doctorSession: await sessionOf(doctor),
  }));
});

afterAll(async () => {
  await context.close();
});

describe('GET /fhir/R4/metadata', () => {
  it('is a valid CapabilityStatement generated from the resource table, with the SMART endpoints', async () => {
    const response = await fhir(null, '/metadata');
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const statement = JSON.parse(response.body) as CapabilityStatement;
    expectValid(statement);
    expect(statement.fhirVersion).toBe('4.0.1');
    expect(statement.instantiates).toEqual(['http://hl7.org/fhir/uv/ipa/CapabilityStatement/ipa-server']);
    const rest = statement.rest![0]!;
    expect(rest.security!.service![0]!.coding![0]!.code).toBe('SMART-on-FHIR');
    const uris = Object.fromEntries(
      rest.security!.extension![0]!.extension!.map((uri) => [uri.url, uri.valueUri]),
    );
    expect(uris).toEqual({
      authorize: `${testAppOrigin}/oauth/auth`,
      token: `${testAppOrigin}/oauth/token`,
      revoke: `${testAppOrigin}/oauth/token/revocation`,
      register: `${testAppOrigin}/oauth/reg`,
    });
    expect(rest.resource!.map((resource) => resource.type)).toEqual(
      resourceHandlers.map((handler) => handler.type),
    );
    for (const resource of rest.resource!) {
      const handler = resourceHandlers.find((one) => one.type === resource.type)!;
      expect(resource.searchParam?.map((param) => param.name) ?? []).toEqual(
        handler.search === undefined ? [] : (handler.searchParams ?? []).map((param) => param.name),
      );
      // Every search it advertises answers (a patient's own, one per page).
      if (handler.search !== undefined) {
        const probe = await fhir(patient, `/${resource.type}?_count=1`);
        expect(probe.statusCode, `${resource.type}: ${probe.body}`).toBe(200);
      }
    }
  });
});

describe('authentication, formats and errors', () => {
  it('answers 401 OperationOutcome with WWW-Authenticate: Bearer without credentials or with an unknown token', async () => {
    const anonymous = await fhir(null, `/Patient/${patient.id}`);
    outcomeOf(anonymous, 401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer realm="/);
    const unknown = await fhir(null, `/Patient/${patient.id}`, { authorization: 'Bearer not-a-token' });
    outcomeOf(unknown, 401);
    expect(unknown.headers['www-authenticate']).toContain('error="invalid_token"');
    outcomeOf(await fhir(null, '/Observation?patient=' + patient.id), 401);
    outcomeOf(await fhir(patient, `/Patient/${patient.id}`, { authorization: 'Basic abc' }), 401);
  });

  it('never honours the session cookie from another origin; CORS allows any origin without credentials', async () => {
    const foreign = await fhir(patient, `/Patient/${patient.id}`, { origin: 'https://evil.example' });
    outcomeOf(foreign, 401);
    expect(foreign.headers['access-control-allow-origin']).toBe('*');
    expect(foreign.headers['access-control-allow-credentials']).toBeUndefined();
    const own = await fhir(patient, `/Patient/${patient.id}`, { origin: testAppOrigin });
    expect(own.statusCode).toBe(200);
    const preflight = await context.app.inject({
      method: 'OPTIONS',
      url: `/fhir/R4/Patient/${patient.id}`,
      headers: { origin: 'https://app.example', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('Authorization');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers JSON only: _format=xml and Accept XML → 406, _format=json → 200', async () => {
    outcomeOf(await fhir(patient, `/Patient/${patient.id}?_format=xml`), 406);
    outcomeOf(await fhir(patient, `/Patient/${patient.id}`, { accept: 'application/fhir+xml' }), 406);
    expect((await fhir(patient, `/Patient/${patient.id}?_format=json`)).statusCode).toBe(200);
  });

  it('answers bad search parameters with 400 OperationOutcome naming them, unknown paths with 404', async () => {
    for (const query of [
      '/Appointment?unknown=1',
      '/Appointment?date=yesterday',
      '/Appointment?date=2026-02-30',
      '/Appointment?status=whatever',
      '/Appointment?_count=abc',
      '/Appointment?_count=1&_count=2',
      '/Appointment?_cursor=garbage',
      '/Appointment?patient=not-an-id',
      '/Observation?name:exact=x',
      '/MedicationRequest?status=draft',
    ]) {
      const outcome = outcomeOf(await fhir(patient, query), 400);
      expect(outcome.issue[0]!.code, query).toBe('invalid');
    }
    outcomeOf(await fhir(patient, '/Questionnaire'), 404);
    outcomeOf(await fhir(patient, '/Patient/not$an$id'), 404);
    outcomeOf(await fhir(patient, '/Patient/00000000-0000-4000-8000-000000000000'), 404);
  });
});

describe('a patient (first-party session: patient/*.rs, the patient in context)', () => {
  it('reads their own record as valid resources', async () => {
    const own = await fhir(patient, `/Patient/${patient.id}`);
    expect(own.statusCode).toBe(200);
    const resource = JSON.parse(own.body) as Resource;
    expectValid(resource);
    expect(resource).toMatchObject({
      resourceType: 'Patient',
      id: patient.id,
      name: [{ text: 'Paciente Ana' }],
    });

    const appointments = bundleOf(await fhir(patient, `/Appointment?patient=Patient/${patient.id}`));
    expect(appointments.total).toBe(5);
    const visit = appointments.entry![0]!.resource!;
    expect(visit).toMatchObject({ resourceType: 'Appointment', id: visitId, status: 'booked' });
    expect(JSON.stringify(visit)).toContain(`${testAppOrigin}/visits/${visitId}`);

    const vitals = bundleOf(await fhir(patient, `/Observation?patient=${patient.id}&category=vital-signs`));
    expect(vitals.total).toBe(7);
    const codes = vitals.entry!.map(
      (entry) => (entry.resource as { code: { coding: { code: string }[] } }).code.coding[0]!.code,
    );
    expect(codes).toEqual(
      expect.arrayContaining(['85354-9', '8867-4', '8310-5', '59408-5', '29463-7', '8302-2', '9279-1']),
    );
    const all = bundleOf(await fhir(patient, `/Observation?patient=${patient.id}`));
    expect(all.total).toBe(8);
    const heart = bundleOf(await fhir(patient, `/Observation?code=http://loinc.org|8867-4`));
    expect(heart.entry![0]!.resource).toMatchObject({
      valueQuantity: { value: 72, system: 'http://unitsofmeasure.org', code: '/min' },
    });

    const requests = bundleOf(await fhir(patient, `/MedicationRequest?patient=${patient.id}`));
    expect(requests.total).toBe(2);
    expect(requests.entry![0]!.resource).toMatchObject({ status: 'active', intent: 'order' });

    const documents = bundleOf(await fhir(patient, `/DocumentReference?patient=${patient.id}`));
    expect(idsOf(documents).sort()).toEqual([documentId, `rx-${prescriptionId}`].sort());
  });

  it('reads held visits as Encounters (the ids vitals and documents refer to)', async () => {
    const encounters = bundleOf(await fhir(patient, `/Encounter?patient=${patient.id}`));
    expect(encounters.total).toBe(1);
    expect(encounters.entry![0]!.resource).toMatchObject({
      status: 'finished',
      period: { start: '2026-05-05T10:01:00.000Z' },
    });
    outcomeOf(await fhir(patient, `/Encounter/${visitId}`), 404);
    outcomeOf(await fhir(otherDoctor, `/Encounter/${encounters.entry![0]!.resource!.id!}`), 404);
  });

  it('reads the chart lists: allergies, conditions with ICD-10 as recorded, medications', async () => {
    const allergies = bundleOf(await fhir(patient, `/AllergyIntolerance?patient=${patient.id}`));
    expect(allergies.entry![0]!.resource).toMatchObject({
      code: { text: 'Penicilina' },
      reaction: [{ severity: 'severe' }],
    });
    const conditions = bundleOf(await fhir(patient, `/Condition?patient=${patient.id}`));
    expect(conditions.entry![0]!.resource).toMatchObject({
      code: {
        coding: [{ system: 'http://hl7.org/fhir/sid/icd-10', code: 'I10' }],
        text: 'Hipertensión arterial',
      },
      onsetDateTime: '2020-03-01',
    });
    const medications = bundleOf(await fhir(patient, `/MedicationStatement?patient=${patient.id}`));
    expect(medications.entry![0]!.resource).toMatchObject({
      status: 'active',
      medicationCodeableConcept: { text: 'Enalapril' },
    });
    const conditionId = conditions.entry![0]!.resource!.id!;
    expect((await fhir(doctor, `/Condition/${conditionId}`)).statusCode).toBe(200);
    outcomeOf(await fhir(otherDoctor, `/Condition/${conditionId}`), 404);
    outcomeOf(await fhir(staff, `/Condition/${conditionId}`), 404);
    outcomeOf(await fhir(otherPatient, `/AllergyIntolerance/${allergies.entry![0]!.resource!.id!}`), 404);
  });

  it('gets the bytes behind a DocumentReference as a Binary (FHIR JSON) or raw', async () => {
    const binary = await fhir(patient, `/Binary/${documentId}`, { accept: 'application/fhir+json' });
    expect(binary.statusCode).toBe(200);
    const resource = JSON.parse(binary.body) as Binary & { contentType: string; data: string };
    expectValid(resource);
    expect(resource.contentType).toBe('application/pdf');
    expect(Buffer.from(resource.data, 'base64').equals(tinyPdf('analitica'))).toBe(true);
    const raw = await fhir(patient, `/Binary/${documentId}`, { accept: 'application/pdf' });
    expect(raw.headers['content-type']).toBe('application/pdf');
    expect(raw.rawPayload.equals(tinyPdf('analitica'))).toBe(true);
    const prescription = await fhir(patient, `/Binary/rx-${prescriptionId}`);
    expect(prescription.statusCode).toBe(200);
    expect(prescription.headers['content-type']).toBe('application/pdf');
    expect(prescription.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('never reads another patient: reads 404, searches only their own', async () => {
    outcomeOf(await fhir(patient, `/Patient/${otherPatient.id}`), 404);
    outcomeOf(await fhir(patient, `/Appointment/${otherVisitId}`), 404);
    outcomeOf(await fhir(patient, `/Observation/${otherVisitId}-hr`), 404);
    expect(bundleOf(await fhir(patient, `/Appointment?patient=${otherPatient.id}`)).total).toBe(0);
    expect(bundleOf(await fhir(patient, `/Observation?patient=${otherPatient.id}`)).total).toBe(0);
    expect(bundleOf(await fhir(patient, `/DocumentReference?patient=${otherPatient.id}`)).total).toBe(0);
    const patients = bundleOf(await fhir(patient, '/Patient'));
    expect(idsOf(patients)).toEqual([patient.id]);
    expect(bundleOf(await fhir(patient, `/Patient?_id=${otherPatient.id}`)).total).toBe(0);
  });

  it('pages with next links to the end', async () => {
    const seen: string[] = [];
    let url: string | undefined = `/fhir/R4/Appointment?patient=${patient.id}&_count=2`;
    let pages = 0;
    while (url !== undefined) {
      const bundle = bundleOf(
        await context.app.inject({
          method: 'GET',
          url,
          headers: { cookie: `tm_session=${await sessionOf(patient)}` },
        }),
      );
      expect(bundle.total).toBe(5);
      expect(bundle.entry!.length).toBeLessThanOrEqual(2);
      seen.push(...idsOf(bundle).map(String));
      const next = bundle.link!.find((link) => link.relation === 'next')?.url;
      url = next === undefined ? undefined : next.replace(testAppOrigin, '');
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    const capped = bundleOf(await fhir(patient, `/Observation?_count=500`));
    expect(capped.link!.find((link) => link.relation === 'self')!.url).toContain('_count=100');
  });
});

describe('clinicians and staff follow the app’s rules', () => {
  it('a treating doctor reads the patient; another doctor does not', async () => {
    expect((await fhir(doctor, `/Observation/${visitId}-hr`)).statusCode).toBe(200);
    expect(bundleOf(await fhir(doctor, `/MedicationRequest?patient=${patient.id}`)).total).toBe(2);
    expect(idsOf(bundleOf(await fhir(doctor, '/Patient')))).toEqual([patient.id]);
    outcomeOf(await fhir(otherDoctor, `/Patient/${patient.id}`), 404);
    outcomeOf(await fhir(otherDoctor, `/Observation/${visitId}-hr`), 404);
    expect(bundleOf(await fhir(otherDoctor, `/Observation?patient=${patient.id}`)).total).toBe(0);
    expect(bundleOf(await fhir(otherDoctor, `/Appointment?patient=${patient.id}`)).total).toBe(0);
    // Without a patient, a doctor's own appointments.
    expect(idsOf(bundleOf(await fhir(otherDoctor, '/Appointment')))).toEqual([otherVisitId]);
  });

  it('staff read the administrative record (Patient, Appointment) but nothing clinical', async () => {
    expect((await fhir(staff, `/Patient/${patient.id}`)).statusCode).toBe(200);
    expect((await fhir(staff, `/Appointment/${visitId}`)).statusCode).toBe(200);
    outcomeOf(await fhir(staff, `/Observation/${visitId}-hr`), 404);
    outcomeOf(await fhir(staff, `/DocumentReference/${documentId}`), 404);
    outcomeOf(await fhir(staff, `/Binary/${documentId}`), 404);
    expect(bundleOf(await fhir(staff, `/MedicationRequest?patient=${patient.id}`)).total).toBe(0);
    outcomeOf(await fhir(staff, '/Observation'), 400);
  });
});

describe('SMART scopes on the access the plugin builds', () => {
  const asPatient = (scopes: string[], patientId: string | null = null) => ({
    userId: patient.id,
    client: { id: 'app-1', name: 'Salud App' },
    patientId: patientId ?? patient.id,
    scopes,
  });

  it('answers 403 when the scopes are narrower than the request', async () => {
    outcomeOf(await withAccess(asPatient(['patient/Patient.rs']), `/Observation?patient=${patient.id}`), 403);
    outcomeOf(
      await withAccess(asPatient(['patient/Observation.r']), `/Observation?patient=${patient.id}`),
      403,
    );
    outcomeOf(await withAccess(asPatient(['openid', 'fhirUser']), `/Patient/${patient.id}`), 403);
    const restricted = asPatient(['patient/Observation.rs?category=vital-signs']);
    outcomeOf(await withAccess(restricted, `/Observation?patient=${patient.id}`), 403);
    outcomeOf(await withAccess(restricted, `/Observation/${visitId}-glucose`), 403);
    expect(
      bundleOf(await withAccess(restricted, `/Observation?patient=${patient.id}&category=vital-signs`)).total,
    ).toBe(7);
    expect((await withAccess(restricted, `/Observation/${visitId}-hr`)).statusCode).toBe(200);
    expect((await withAccess(asPatient(['patient/*.read']), `/Patient/${patient.id}`)).statusCode).toBe(200);
  });

  it('limits patient/ scopes to the patient in context and user/ scopes to the person’s own rules', async () => {
    // A doctor's token with patient scopes for one patient sees only that patient.
    const doctorForPatient = {
      userId: doctor.id,
      client: { id: 'app-2', name: 'Clinic App' },
      patientId: patient.id,
      scopes: ['patient/*.rs'],
    };
    expect((await withAccess(doctorForPatient, `/Patient/${patient.id}`)).statusCode).toBe(200);
    expect(bundleOf(await withAccess(doctorForPatient, '/Patient')).total).toBe(1);
    const userScoped = { ...doctorForPatient, patientId: null, scopes: ['user/*.rs'] };
    expect(bundleOf(await withAccess(userScoped, `/Observation?patient=${patient.id}`)).total).toBe(8);
    expect(
      bundleOf(
        await withAccess({ ...userScoped, userId: otherDoctor.id }, `/Observation?patient=${patient.id}`),
      ).total,
    ).toBe(0);
    outcomeOf(await withAccess({ ...doctorForPatient, patientId: null }, `/Patient/${patient.id}`), 403);
    // A patient's token naming someone else in context still passes the app's rules: nothing.
    outcomeOf(
      await withAccess(asPatient(['patient/*.rs'], otherPatient.id), `/Patient/${otherPatient.id}`),
      404,
    );
  });

  it('audits every read with the app and the person it acts for', async () => {
    await withAccess(asPatient(['patient/*.rs']), `/Observation?patient=${patient.id}&category=vital-signs`);
    expect((await fhir(doctor, `/Patient/${patient.id}`)).statusCode).toBe(200);
    await context.app.services.background.idle();
    const events = await context.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'record.viewed'), eq(auditEvents.targetId, patient.id)))
      .orderBy(asc(auditEvents.id));
    const viaApp = events.filter(
      (event) => (event.details as { client?: { id: string } | null }).client?.id === 'app-1',
    );
    expect(viaApp.length).toBeGreaterThan(0);
    expect(viaApp.at(-1)).toMatchObject({
      actorUserId: patient.id,
      details: {
        section: 'fhir',
        resourceType: 'Observation',
        interaction: 'search',
        client: { id: 'app-1', name: 'Salud App' },
      },
    });
    // The patient's access log shows the app, the person it acted for and what it read.
    const log = await send(context.app, 'GET', '/api/v1/me/record-access?pageSize=100', {
      session: await sessionOf(patient),
    });
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json<{
      data: {
        actor: { id: string } | null;
        section: string | null;
        client?: unknown;
        resourceType?: unknown;
      }[];
    }>().data;
    expect(entries).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: patient.id }),
        section: 'fhir',
        client: { id: 'app-1', name: 'Salud App' },
        resourceType: 'Observation',
      }),
    );
    // Reads through the app's own session carry no client (the patient's own are left out, as in the app).
    expect(entries).toContainEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ id: doctor.id }),
        section: 'fhir',
        client: null,
        resourceType: 'Patient',
      }),
    );
    expect(
      entries.filter(
        (entry) => entry.section === 'fhir' && entry.actor?.id === patient.id && entry.client === null,
      ),
    ).toEqual([]);
  });
});
