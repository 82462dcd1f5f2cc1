import type { Bundle, Resource } from '@medplum/fhirtypes';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';
import {
  createAppointment,
  createUser,
  nextRemoteAddress,
  send,
  signIn,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { consentDocuments } from '../../db/schema.js';
import type { FhirAccess } from './fhir-access.js';
import { bundleOf, expectValid, idsOf, outcomeOf, scopedFhirMount } from './fhir-test-support.js';

const clock = createClock('2026-05-04T06:00:00Z');
let context: TestContext;
let doctor: TestDoctor;
let patient: TestUser;
let otherPatient: TestUser;
/** Accesses a SMART token would carry, served by a second mount of the same plugin. */
const scoped = scopedFhirMount();

/** A GET on the scoped mount with a Bearer token standing for `access`. */
const withAccess = (access: Omit<FhirAccess, 'tokenExpiresAt'>, path: string) =>
  scoped.get(context.app, access, path);

const asPatient = (who: TestUser, path: string, scopes = ['patient/*.rs']) =>
  withAccess({ userId: who.id, client: { id: 'app-1', name: 'Salud App' }, patientId: who.id, scopes }, path);

beforeAll(async () => {
  context = await createTestContext({
    now: clock.now,
    configure: scoped.register,
  });
  doctor = await createDoctor(context.app, { timeZone: 'Europe/Madrid', rules: everyDay('09:00', '12:00') });
  patient = await createUser(context.app, { roles: ['patient'], name: 'Paciente Ana' });
  otherPatient = await createUser(context.app, { roles: ['patient'], name: 'Paciente Beto' });
  await createAppointment(context.app, {
    doctorId: doctor.id,
    patientId: patient.id,
    startsAt: '2026-05-05T07:00:00Z',
  });
  // The doctor opens the chart once: an event of the patient's access log.
  const session = (await signIn(context.app, doctor)).token;
  await context.app.inject({
    method: 'GET',
    url: `/fhir/R4/Patient/${patient.id}`,
    headers: { cookie: `tm_session=${session}` },
    remoteAddress: nextRemoteAddress(),
  });
});

afterAll(async () => {
  await context.close();
});

describe('Schedule, Slot, PractitionerRole', () => {
  it('serves the doctor as valid Schedule, free Slots (a taken time left out) and PractitionerRole', async () => {
    const schedule = JSON.parse((await asPatient(patient, `/Schedule/${doctor.id}`)).body) as Resource;
    expectValid(schedule);
    const slots = bundleOf(
      await asPatient(
        patient,
        `/Slot?schedule=Schedule/${doctor.id}&start=ge2026-05-05&start=lt2026-05-06&_count=2`,
      ),
    );
    // 09:00–12:00 Madrid = 07:00–10:00 UTC, 30-minute slots, 07:00 taken: 5 free.
    expect(slots.total).toBe(5);
    expect((slots.entry ?? []).map((entry) => (entry.resource as { start: string }).start)).toEqual([
      '2026-05-05T07:30:00.000Z',
      '2026-05-05T08:00:00.000Z',
    ]);
    expect(slots.link?.find((link) => link.relation === 'next')).toBeDefined();
    const slotRead = await asPatient(patient, `/Slot/${idsOf(slots)[0]!}`);
    expect(slotRead.statusCode).toBe(200);
    outcomeOf(await asPatient(patient, `/Slot/${doctor.id}.20260505T0700Z`), 404);
    outcomeOf(
      await asPatient(patient, `/Slot?schedule=${doctor.id}&start=ge2026-05-05&start=le2026-07-05`),
      400,
    );
    const roles = bundleOf(
      await asPatient(patient, `/PractitionerRole?practitioner=Practitioner/${doctor.id}`),
    );
    expect(roles.total).toBe(1);
    expect((roles.entry![0]!.resource as { availableTime?: unknown[] }).availableTime).toHaveLength(1);
  });

  it('answers 403 when the scopes do not include the type', async () => {
    outcomeOf(await asPatient(patient, `/Slot?schedule=${doctor.id}`, ['patient/Observation.rs']), 403);
    outcomeOf(await asPatient(patient, `/Schedule/${doctor.id}`, ['patient/Observation.rs']), 403);
  });
});

describe('AuditEvent and Consent', () => {
  it("lists the patient's access log as valid AuditEvents; another patient gets nothing", async () => {
    const own = bundleOf(await asPatient(patient, '/AuditEvent'));
    expect(own.total).toBeGreaterThan(0);
    const first = own.entry![0]!.resource as Resource;
    expectValid(first);
    expect((await asPatient(patient, `/AuditEvent/${first.id}`)).statusCode).toBe(200);
    outcomeOf(await asPatient(otherPatient, `/AuditEvent/${first.id}`), 404);
    const other: Bundle = bundleOf(await asPatient(otherPatient, `/AuditEvent?patient=${patient.id}`));
    expect(other.total).toBe(0);
    outcomeOf(await asPatient(patient, '/AuditEvent', ['patient/Patient.rs']), 403);
    outcomeOf(await asPatient(patient, '/Consent', ['patient/Patient.rs']), 403);
    expect(bundleOf(await asPatient(patient, '/Consent')).total).toBe(0);
  });

  it('serves a signed consent as a valid Consent with its PDF as DocumentReference; another patient gets 404', async () => {
    const [telemedicine] = await context.db
      .select({ id: consentDocuments.id })
      .from(consentDocuments)
      .where(eq(consentDocuments.kind, 'telemedicine'));
    const session = (await signIn(context.app, patient)).token;
    const document = await send(context.app, 'GET', `/api/v1/consent-documents/${telemedicine!.id}`, {
      session,
    });
    const versionId = document.json<{ current: { id: string } }>().current.id;
    const signed = await send(
      context.app,
      'POST',
      `/api/v1/consent-documents/${telemedicine!.id}/signatures`,
      {
        session,
        body: { versionId, language: 'es', method: 'typed', typedName: 'Paciente Ana' },
      },
    );
    expect(signed.statusCode, signed.body).toBe(201);
    const bundle = bundleOf(await asPatient(patient, '/Consent?status=active'));
    expect(bundle.total).toBe(1);
    const consent = bundle.entry![0]!.resource as { id: string; sourceReference?: { reference: string } };
    expect(consent.sourceReference?.reference).toMatch(/^DocumentReference\//);
    expect((await asPatient(patient, `/${consent.sourceReference!.reference}`)).statusCode).toBe(200);
    outcomeOf(await asPatient(otherPatient, `/Consent/${consent.id}`), 404);
    expect(bundleOf(await asPatient(patient, '/Consent?status=inactive')).total).toBe(0);
  });
});
