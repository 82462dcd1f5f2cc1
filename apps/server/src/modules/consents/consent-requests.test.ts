import { appointmentSchema } from '@telemedicina/shared/appointment';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, notifications } from '../../db/schema.js';
import { createClock, createDoctor, everyDay } from '../../test/booking-fixtures.js';
import { createUser, latestEmail, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import type { ServiceContext } from '../context.js';
import { requestConsentsAtBooking } from './consent-requests.service.js';

// Wednesday 2026-03-25 10:00 UTC; the doctor (Madrid) sees patients 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let doctorId: string;
let reception: SignedInClient;
let admin: SignedInClient;
let telemedicineId: string;

type Patient = SignedInClient & { email: string };

async function patientWith(language: 'es' | 'en'): Promise<Patient> {
  const user = await createUser(context.app, { roles: ['patient'], language });
  return { ...(await signIn(context.app, user)), email: user.email };
}

function as(client: SignedInClient, method: 'GET' | 'POST', url: string, body?: unknown) {
  return send(context.app, method, `/api/v1${url}`, { session: client.token, body });
}

async function book(by: SignedInClient, startsAt: string, patientId?: string): Promise<string> {
  const booked = await as(by, 'POST', '/appointments', { doctorId, startsAt, patientId, reason: 'Control' });
  expect(booked.statusCode, booked.body).toBe(201);
  return appointmentSchema.parse(booked.json()).id;
}

async function requestsOf(patient: SignedInClient) {
  return context.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, patient.me.user.id), eq(notifications.kind, 'consent.toSign')));
}

async function emailsOf(patient: Patient) {
  await context.app.services.background.idle();
  return context.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, patient.email), eq(emailOutbox.template, 'consent-to-sign')));
}

async function currentVersionId(): Promise<string> {
  const document = await as(admin, 'GET', `/consent-documents/${telemedicineId}`);
  return document.json<{ current: { id: string } }>().current.id;
}

async function signTyped(patient: SignedInClient): Promise<void> {
  const signed = await as(patient, 'POST', `/consent-documents/${telemedicineId}/signatures`, {
    versionId: await currentVersionId(),
    language: 'es',
    method: 'typed',
    typedName: patient.me.user.name,
  });
  expect(signed.statusCode, signed.body).toBe(201);
}

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  doctorId = (await createDoctor(context.app, { rules: everyDay('09:00', '13:00') })).id;
  reception = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  const list = await as(admin, 'GET', '/admin/consent-documents');
  const items = list.json<{ items: { id: string; kind: string; isSystem: boolean }[] }>().items;
  telemedicineId = items.find((item) => item.kind === 'telemedicine' && item.isSystem)!.id;
});

afterAll(async () => {
  await context?.close();
});

describe('asking for consent at booking', () => {
  it('asks a patient who books without having signed: in the app and by email, in Spanish, to the portal', async () => {
    const patient = await patientWith('es');
    const appointmentId = await book(patient, '2026-03-27T08:00:00Z');

    const requests = await requestsOf(patient);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.data).toEqual({
      appointmentId,
      startsAt: '2026-03-27T08:00:00.000Z',
      documentId: telemedicineId,
      versionId: await currentVersionId(),
    });
    const email = await latestEmail(context.app, patient.email, 'consent-to-sign');
    expect(email?.language).toBe('es');
    expect(email?.subject).toContain('Un consentimiento por firmar antes de su consulta');
    expect(email?.text).toContain('Consentimiento informado para la atención por telemedicina');
    expect(email?.text).toContain(`/portal/consents/${telemedicineId}`);
    expect(email?.text).not.toContain('/admin/');
  });

  it('asks a patient booked by reception, in the patient’s language (English)', async () => {
    const patient = await patientWith('en');
    await book(reception, '2026-03-27T09:00:00Z', patient.me.user.id);
    expect(await requestsOf(patient)).toHaveLength(1);
    const email = await latestEmail(context.app, patient.email, 'consent-to-sign');
    expect(email?.language).toBe('en');
    expect(email?.subject).toContain('A consent to sign before your visit');
    expect(email?.text).toContain('Informed consent to care by telemedicine');
    expect(email?.text).toContain(`/portal/consents/${telemedicineId}`);
  });

  it('asks nothing of a patient who signed the current version; asks again once a new version is published', async () => {
    const patient = await patientWith('es');
    await signTyped(patient);
    await book(patient, '2026-03-27T10:00:00Z');
    expect(await requestsOf(patient)).toHaveLength(0);
    expect(await emailsOf(patient)).toHaveLength(0);

    const current = (await as(admin, 'GET', `/consent-documents/${telemedicineId}`)).json<{
      current: { titleEs: string; titleEn: string; bodyEs: string; bodyEn: string };
    }>().current;
    const published = await as(admin, 'POST', `/admin/consent-documents/${telemedicineId}/versions`, {
      ...current,
      bodyEs: `${current.bodyEs}\n\nCambio de prueba.`,
    });
    expect(published.statusCode, published.body).toBe(200);
    const appointmentId = await book(patient, '2026-03-27T10:30:00Z');
    const requests = await requestsOf(patient);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.data).toMatchObject({ appointmentId, versionId: await currentVersionId() });
    expect(await emailsOf(patient)).toHaveLength(1);
  });

  it('never asks twice for the same document version and appointment', async () => {
    const patient = await patientWith('es');
    const appointmentId = await book(patient, '2026-03-27T11:00:00Z');
    expect(await requestsOf(patient)).toHaveLength(1);
    const ctx: ServiceContext = {
      ...context.app.services,
      actor: null,
      request: { ip: null, userAgent: null, requestId: null },
      audit: () => Promise.resolve(),
    };
    const again = await requestConsentsAtBooking(ctx, context.db, {
      id: appointmentId,
      patientUserId: patient.me.user.id,
      startsAt: new Date('2026-03-27T11:00:00Z'),
    });
    again();
    expect(await requestsOf(patient)).toHaveLength(1);
    expect(await emailsOf(patient)).toHaveLength(1);
  });
});
