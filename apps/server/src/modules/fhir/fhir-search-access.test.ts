import type { AuditEvent, Consent, DocumentReference } from '@medplum/fhirtypes';
import { isPermission } from '@telemedicina/shared/permission-catalogue';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, consentDocuments, visitVitals } from '../../db/schema.js';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';
import { createAppointment, createUser, send, signIn, type TestUser } from '../../test/factories.js';
import { tinyPdf, uploadChartDocument } from '../../test/document-fixtures.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import type { Actor } from '../context.js';
import { authorizeChartRead, authorizeChartReads } from '../records/records.policy.js';
import type { FhirAccess } from './fhir-access.js';
import { bundleOf, expectValid, idsOf, outcomeOf, scopedFhirMount } from './fhir-test-support.js';
import { findUserGrants } from './fhir.repository.js';

/*
 * Searches whose page holds many patients decide access for the whole page at once
 * (records.policy authorizeChartReads) and audit it in one INSERT: the same answers and the same
 * audit rows as one decision per patient.
 */

const clock = createClock('2026-05-04T06:00:00Z');
let context: TestContext;
let doctor: TestDoctor;
let otherDoctor: TestDoctor;
let staff: TestUser;
let admin: TestUser;
/** Treated by `doctor`. */
let treated: TestUser;
let treatedToo: TestUser;
/** Only a cancelled appointment with `doctor`: not treated. */
let cancelledOnly: TestUser;
/** A cancelled appointment with `doctor` and their live emergency access. */
let underEmergency: TestUser;
const appointmentOf = new Map<string, string[]>();
/** Accesses a SMART token would carry, served by a second mount of the same plugin. */
const scoped = scopedFhirMount();

/** A GET on the scoped mount with a Bearer token standing for `access`. */
const withAccess = (access: Omit<FhirAccess, 'tokenExpiresAt'>, path: string) =>
  scoped.get(context.app, access, path);

const client = { id: 'app-search', name: 'Agenda App' };
const asUser = (who: TestUser, path: string) =>
  withAccess({ userId: who.id, client, patientId: null, scopes: ['user/*.rs'] }, path);
const asPatient = (who: TestUser, path: string) =>
  withAccess({ userId: who.id, client, patientId: who.id, scopes: ['patient/*.rs'] }, path);

async function actorOf(user: TestUser): Promise<Actor> {
  const grants = (await findUserGrants(context.db, user.id))!;
  const now = clock.now();
  return {
    userId: user.id,
    sessionId: 'test',
    permissions: new Set(grants.permissions.filter(isPermission)),
    roleKeys: grants.roleKeys,
    mfaEnrollmentRequired: false,
    session: { createdAt: now, idleTimeoutSeconds: 0, expiresAt: now },
  };
}

/** The FHIR search audit rows written since `since` (an audit id), as [patient id, details]. */
async function fhirAuditSince(since: number, resourceType: string) {
  const rows = await context.db
    .select({ id: auditEvents.id, targetId: auditEvents.targetId, details: auditEvents.details })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'record.viewed'),
        sql`${auditEvents.id} > ${since}`,
        sql`${auditEvents.details}->>'resourceType' = ${resourceType}`,
      ),
    )
    .orderBy(auditEvents.id);
  return rows.map((row) => ({ patientId: row.targetId, details: row.details }));
}

async function lastAuditId(): Promise<number> {
  const [row] = await context.db
    .select({ id: sql<number>`coalesce(max(${auditEvents.id}), 0)` })
    .from(auditEvents);
  return Number(row!.id);
}

beforeAll(async () => {
  context = await createTestContext({
    now: clock.now,
    configure: scoped.register,
  });
  const { app } = context;
  doctor = await createDoctor(app, { timeZone: 'Europe/Madrid', rules: everyDay('09:00', '12:00') });
  otherDoctor = await createDoctor(app, { timeZone: 'Europe/Madrid', rules: everyDay('15:00', '17:00') });
  staff = await createUser(app, { roles: ['staff'], name: 'Recepción Uno' });
  admin = await createUser(app, { roles: ['admin'], name: 'Admin Uno' });
  treated = await createUser(app, { roles: ['patient'], name: 'Paciente Ana' });
  treatedToo = await createUser(app, { roles: ['patient'], name: 'Paciente Beto' });
  cancelledOnly = await createUser(app, { roles: ['patient'], name: 'Paciente Carla' });
  underEmergency = await createUser(app, { roles: ['patient'], name: 'Paciente Dani' });
  const book = async (patient: TestUser, day: string, status?: 'cancelled') => {
    const row = await createAppointment(app, {
      doctorId: doctor.id,
      patientId: patient.id,
      startsAt: `2026-05-${day}T08:00:00Z`,
      ...(status === undefined ? {} : { status, cancelledAt: '2026-05-01T08:00:00Z' }),
    });
    appointmentOf.set(patient.id, [...(appointmentOf.get(patient.id) ?? []), row.id]);
  };
  // Interleaved so that every page of 2 mixes patients.
  await book(treated, '05');
  await book(cancelledOnly, '06', 'cancelled');
  await book(underEmergency, '07', 'cancelled');
  await book(treatedToo, '08');
  await book(treated, '09');
  await book(cancelledOnly, '10', 'cancelled');
  const session = (await signIn(app, doctor)).token;
  const emergency = await send(app, 'POST', `/api/v1/patients/${underEmergency.id}/emergency-access`, {
    session,
    body: { reason: 'Paciente inconsciente en urgencias, necesito sus alergias.' },
  });
  expect(emergency.statusCode, emergency.body).toBe(201);
});

afterAll(async () => {
  await context.close();
});

describe('pages of many patients', () => {
  it('decide access for a page at once exactly as one patient at a time does', async () => {
    const ids = [
      treated.id,
      treatedToo.id,
      cancelledOnly.id,
      underEmergency.id,
      doctor.id, // not a patient
      crypto.randomUUID(), // nobody
      'not-an-id',
    ];
    for (const reader of [doctor, otherDoctor, staff, admin, treated, underEmergency]) {
      const actor = await actorOf(reader);
      const batch = await authorizeChartReads(context.db, actor, ids, clock.now());
      const single = new Map();
      for (const id of ids) {
        const grant = await authorizeChartRead(context.db, actor, id, clock.now()).catch(() => null);
        if (grant !== null) {
          single.set(id, grant);
        }
      }
      expect(batch, reader.name).toEqual(single);
    }
    const doctorsView = await authorizeChartReads(context.db, await actorOf(doctor), ids, clock.now());
    expect(new Map([...doctorsView].map(([id, grant]) => [id, grant.access]))).toEqual(
      new Map([
        [treated.id, 'treating'],
        [treatedToo.id, 'treating'],
        [underEmergency.id, 'emergency'],
      ]),
    );
  });

  it("a doctor's Appointment pages show only the patients they may read, one audit row per patient", async () => {
    const since = await lastAuditId();
    const seen: (string | undefined)[] = [];
    let path: string | null = '/Appointment?_count=2';
    let pages = 0;
    while (path !== null) {
      const bundle = bundleOf(await asUser(doctor, path));
      seen.push(...idsOf(bundle));
      pages += 1;
      const next = bundle.link?.find((link) => link.relation === 'next')?.url;
      path = next === undefined ? null : next.slice(next.indexOf('/Appointment'));
    }
    expect(pages).toBe(3);
    const readable = [
      ...appointmentOf.get(treated.id)!,
      ...appointmentOf.get(treatedToo.id)!,
      ...appointmentOf.get(underEmergency.id)!,
    ];
    expect(seen.toSorted()).toEqual(readable.toSorted());
    for (const hidden of appointmentOf.get(cancelledOnly.id)!) {
      expect(seen).not.toContain(hidden);
    }
    const audit = await fhirAuditSince(since, 'Appointment');
    // Every page audits each of its readable patients once; nobody else.
    const perPage = new Map<string, number>();
    for (const row of audit) {
      perPage.set(row.patientId!, (perPage.get(row.patientId!) ?? 0) + 1);
      expect(row.details).toMatchObject({ section: 'fhir', interaction: 'search', client });
    }
    expect(perPage.has(cancelledOnly.id)).toBe(false);
    expect(new Set(perPage.keys())).toEqual(new Set([treated.id, treatedToo.id, underEmergency.id]));
    expect(audit.length).toBe(
      new Set(audit.map((row) => `${JSON.stringify(row.details.resourceIds)}|${row.patientId}`)).size,
    );
    const emergencyRow = audit.find((row) => row.patientId === underEmergency.id)!;
    expect(emergencyRow.details).toMatchObject({
      access: 'emergency',
      emergency: true,
      reason: 'Paciente inconsciente en urgencias, necesito sus alergias.',
    });
    expect(audit.find((row) => row.patientId === treated.id)!.details).toMatchObject({
      access: 'treating',
      emergency: false,
    });
  });

  it('another doctor sees none of them; staff see every patient administratively', async () => {
    const other = bundleOf(await asUser(otherDoctor, '/Appointment'));
    expect(other.total).toBe(0);
    const since = await lastAuditId();
    const patients = bundleOf(await asUser(staff, '/Patient?_count=50'));
    expect(idsOf(patients)).toEqual(
      expect.arrayContaining([treated.id, treatedToo.id, cancelledOnly.id, underEmergency.id]),
    );
    const audit = await fhirAuditSince(since, 'Patient');
    expect(audit.map((row) => row.patientId).toSorted()).toEqual(idsOf(patients).toSorted());
    expect(new Set(audit.map((row) => row.details.access))).toEqual(new Set(['administrative']));
    // A doctor's Patient search lists the patients they treat (an emergency access opens one chart, read by id).
    const doctorsPatients = bundleOf(await asUser(doctor, '/Patient?_count=50'));
    expect(idsOf(doctorsPatients).toSorted()).toEqual([treated.id, treatedToo.id].toSorted());
    expect((await asUser(doctor, `/Patient/${underEmergency.id}`)).statusCode).toBe(200);
    outcomeOf(await asUser(doctor, `/Patient/${cancelledOnly.id}`), 404);
  });
});

describe('AuditEvent, Consent and Slot for staff and clinicians', () => {
  it("staff with audit.read read a patient's access log as valid AuditEvents; staff without it get none", async () => {
    // The doctor's reads above are events of the treated patient's log.
    const bundle = bundleOf(await asUser(admin, `/AuditEvent?patient=${treated.id}`));
    expect(bundle.total).toBeGreaterThan(0);
    const events = (bundle.entry ?? []).map((entry) => entry.resource as AuditEvent);
    for (const event of events) {
      expectValid(event);
      expect(event.entity?.[0]?.what?.reference).toBe(`Patient/${treated.id}`);
    }
    expect(events.some((event) => event.agent.some((agent) => agent.who?.display === client.name))).toBe(
      true,
    );
    const one = await asUser(admin, `/AuditEvent/${events[0]!.id}`);
    expect(one.statusCode, one.body).toBe(200);
    expectValid(JSON.parse(one.body) as AuditEvent);
    // Staff without audit.read, and a doctor, do not read the log.
    expect(bundleOf(await asUser(staff, `/AuditEvent?patient=${treated.id}`)).total).toBe(0);
    expect(bundleOf(await asUser(doctor, `/AuditEvent?patient=${treated.id}`)).total).toBe(0);
    outcomeOf(await asUser(staff, `/AuditEvent/${events[0]!.id}`), 404);
  });

  it("a clinician reads a treated patient's Consent; without a care relationship, 404 and an empty search", async () => {
    const [telemedicine] = await context.db
      .select({ id: consentDocuments.id })
      .from(consentDocuments)
      .where(eq(consentDocuments.kind, 'telemedicine'));
    const session = (await signIn(context.app, treated)).token;
    const document = await send(context.app, 'GET', `/api/v1/consent-documents/${telemedicine!.id}`, {
      session,
    });
    const versionId = document.json<{ current: { id: string } }>().current.id;
    const signed = await send(
      context.app,
      'POST',
      `/api/v1/consent-documents/${telemedicine!.id}/signatures`,
      { session, body: { versionId, language: 'es', method: 'typed', typedName: 'Paciente Ana' } },
    );
    expect(signed.statusCode, signed.body).toBe(201);
    const own = bundleOf(await asPatient(treated, '/Consent'));
    expect(own.total).toBe(1);
    const consentId = own.entry![0]!.resource!.id!;

    const read = await asUser(doctor, `/Consent/${consentId}`);
    expect(read.statusCode, read.body).toBe(200);
    const consent = JSON.parse(read.body) as Consent;
    expectValid(consent);
    expect(consent.patient?.reference).toBe(`Patient/${treated.id}`);
    expect(bundleOf(await asUser(doctor, `/Consent?patient=${treated.id}`)).total).toBe(1);

    outcomeOf(await asUser(otherDoctor, `/Consent/${consentId}`), 404);
    expect(bundleOf(await asUser(otherDoctor, `/Consent?patient=${treated.id}`)).total).toBe(0);
    // Staff see the administrative record only: no consents.
    outcomeOf(await asUser(staff, `/Consent/${consentId}`), 404);
  });

  it('answers a Slot search without schedule with every doctor’s free times, soonest first', async () => {
    const bundle = bundleOf(
      await asPatient(treated, '/Slot?start=ge2026-05-05&start=lt2026-05-06&_count=50'),
    );
    const slots = (bundle.entry ?? []).map(
      (entry) => entry.resource as { schedule: { reference?: string }; start: string },
    );
    expect(slots.length).toBeGreaterThan(0);
    expect(new Set(slots.map((slot) => slot.schedule.reference))).toEqual(
      new Set([`Schedule/${doctor.id}`, `Schedule/${otherDoctor.id}`]),
    );
    const starts = slots.map((slot) => slot.start);
    expect(starts).toEqual(starts.toSorted());
    for (const start of starts) {
      expect(start >= '2026-05-05' && start < '2026-05-06').toBe(true);
    }
    // The doctor's booked 08:00 UTC (10:00 Madrid) on the 5th is not free.
    expect(
      slots.some(
        (slot) =>
          slot.schedule.reference === `Schedule/${doctor.id}` && slot.start === '2026-05-05T08:00:00.000Z',
      ),
    ).toBe(false);
  });
});

describe('Observation pages in SQL', () => {
  it('pages vitals observations with next links in report order, filtered by category, code and date', async () => {
    const [first, second] = appointmentOf.get(treated.id)!;
    const third = appointmentOf.get(treatedToo.id)![0]!;
    await context.db.insert(visitVitals).values([
      // Blood pressure with one component, heart rate, glucose (laboratory).
      {
        appointmentId: first!,
        patientUserId: treated.id,
        systolicMmHg: 130,
        heartRateBpm: 70,
        glucoseMgDl: 101,
        reportedAt: new Date('2026-05-05T08:30:00Z'),
      },
      {
        appointmentId: second!,
        patientUserId: treated.id,
        temperatureC: 37.2,
        weightKg: 70.5,
        oxygenSaturation: 97,
        reportedAt: new Date('2026-05-09T08:30:00Z'),
      },
      { appointmentId: third, patientUserId: treatedToo.id, heartRateBpm: 90 },
    ]);
    const pageThrough = async (query: string) => {
      const ids: string[] = [];
      const totals = new Set<number | undefined>();
      let path: string | null = `/Observation?patient=${treated.id}&_count=2${query}`;
      while (path !== null) {
        const bundle = bundleOf(await asPatient(treated, path));
        totals.add(bundle.total);
        ids.push(...idsOf(bundle).map(String));
        const next = bundle.link?.find((link) => link.relation === 'next')?.url;
        path = next === undefined ? null : next.slice(next.indexOf('/Observation'));
      }
      return { ids, totals: [...totals] };
    };
    expect(await pageThrough('')).toEqual({
      ids: [
        `${second}-temp`,
        `${second}-spo2`,
        `${second}-weight`,
        `${first}-bp`,
        `${first}-hr`,
        `${first}-glucose`,
      ],
      totals: [6],
    });
    expect(await pageThrough('&category=vital-signs&date=lt2026-05-08')).toEqual({
      ids: [`${first}-bp`, `${first}-hr`],
      totals: [2],
    });
    expect(await pageThrough('&code=http://loinc.org|8867-4,http://loinc.org|2339-0')).toEqual({
      ids: [`${first}-hr`, `${first}-glucose`],
      totals: [2],
    });
    expect(await pageThrough('&category=http://example.org|vital-signs')).toEqual({ ids: [], totals: [0] });
    // The last page and past the end: the same total.
    const at = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
    const last = bundleOf(
      await asPatient(treated, `/Observation?patient=${treated.id}&_count=5&_cursor=${at(5)}`),
    );
    expect({ ids: idsOf(last), total: last.total }).toEqual({ ids: [`${first}-glucose`], total: 6 });
    const beyond = bundleOf(
      await asPatient(treated, `/Observation?patient=${treated.id}&_count=5&_cursor=${at(10)}`),
    );
    expect({ ids: idsOf(beyond), total: beyond.total }).toEqual({ ids: [], total: 6 });
  });
});

describe('DocumentReference pages in SQL', () => {
  it('pages documents and prescription PDFs together, newest first, ties by id, with next links', async () => {
    // What the patient had before (the signed consent's PDF, older than all below).
    const before = idsOf(bundleOf(await asPatient(treated, `/DocumentReference?patient=${treated.id}`))).map(
      String,
    );
    clock.set('2026-05-06T09:00:00Z');
    const patientSession = (await signIn(context.app, treated)).token;
    const doctorSession = (await signIn(context.app, doctor)).token;
    const upload = async (name: string) => {
      const response = await uploadChartDocument(
        context.app,
        patientSession,
        treated.id,
        { name, type: 'application/pdf', bytes: tinyPdf(name) },
        { category: 'lab' },
      );
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ id: string }>().id;
    };
    const prescribe = async (medication: string) => {
      const response = await send(context.app, 'POST', `/api/v1/patients/${treated.id}/prescriptions`, {
        session: doctorSession,
        body: {
          items: [
            {
              medication,
              dose: '1',
              route: 'oral',
              frequency: 'cada 8 horas',
              duration: '5 días',
              quantity: '1',
            },
          ],
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      return `rx-${response.json<{ id: string }>().id}`;
    };
    // Two at the same instant (a tie broken by id), then newer ones.
    const tied = [await upload('a.pdf'), await prescribe('Ibuprofeno 400 mg')];
    clock.set('2026-05-06T09:05:00Z');
    const newerDocument = await upload('b.pdf');
    clock.set('2026-05-06T09:10:00Z');
    const newestPrescription = await prescribe('Omeprazol 20 mg');
    const expected = [newestPrescription, newerDocument, ...tied.toSorted(), ...before];

    const ids: string[] = [];
    const totals = new Set<number | undefined>();
    let path: string | null = `/DocumentReference?patient=${treated.id}&_count=3`;
    while (path !== null) {
      const bundle = bundleOf(await asPatient(treated, path));
      totals.add(bundle.total);
      ids.push(...idsOf(bundle).map(String));
      const next = bundle.link?.find((link) => link.relation === 'next')?.url;
      path = next === undefined ? null : next.slice(next.indexOf('/DocumentReference'));
    }
    expect({ ids, totals: [...totals] }).toEqual({ ids: expected, totals: [expected.length] });
    // A treating doctor sees the same list; the prescriptions' PDFs read back as DocumentReference.
    const doctors = bundleOf(await asUser(doctor, `/DocumentReference?patient=${treated.id}&_count=50`));
    expect(idsOf(doctors)).toEqual(expected);
    const rx = doctors.entry![0]!.resource as DocumentReference;
    expect(rx.content[0]!.attachment.contentType).toBe('application/pdf');
    // Past the end: nothing, the same total.
    const at = Buffer.from(JSON.stringify({ o: 10 })).toString('base64url');
    const beyond = bundleOf(
      await asPatient(treated, `/DocumentReference?patient=${treated.id}&_count=3&_cursor=${at}`),
    );
    expect({ ids: idsOf(beyond), total: beyond.total }).toEqual({ ids: [], total: expected.length });
  });
});
