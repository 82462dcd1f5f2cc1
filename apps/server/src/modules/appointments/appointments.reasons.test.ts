import { appointmentPageSchema, appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { clinicSettingsSchema } from '@telemedicina/shared/clinic-settings';
import type { Chart } from '@telemedicina/shared/records';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../db/schema.js';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

/**
 * The reason for a visit is clinical, so it is kept from whoever does not treat: its doctor and its patient always read
 * it; anyone else who sees the appointment (reception, administrators) only when the clinic's
 * privacy setting allows it, which is off by default. Every answer that carries the reason obeys.
 */

// Wednesday 2026-03-25 10:00 UTC; doctors in Madrid open 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let reception: SignedInClient;
let admin: SignedInClient;
let doctor: TestDoctor & { client: SignedInClient };
let patient: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  reception = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  const created = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  doctor = { ...created, client: await signIn(context.app, created) };
  patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
});

afterEach(async () => {
  await setStaffMayRead(false);
});

afterAll(async () => {
  await context?.close();
});

async function setStaffMayRead(value: boolean): Promise<void> {
  const response = await send(context.app, 'PATCH', '/api/v1/settings', {
    session: admin.token,
    body: { privacy: { canStaffReadVisitReasons: value } },
  });
  expect(response.statusCode, response.body).toBe(200);
}

let nextSlot = 0;
/** A free slot of the doctor (08:00–12:00 UTC from the 27th on), a new one each call. */
function slot(): string {
  const day = Math.floor(nextSlot / 8);
  const start = Date.parse('2026-03-27T08:00:00Z') + day * 24 * 3_600_000 + (nextSlot % 8) * 30 * 60_000;
  nextSlot += 1;
  return new Date(start).toISOString();
}

async function bookAs(session: string, body: Record<string, unknown>): Promise<Appointment> {
  const response = await send(context.app, 'POST', '/api/v1/appointments', { session, body });
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

async function detailAs(session: string, id: string): Promise<Appointment> {
  const response = await send(context.app, 'GET', `/api/v1/appointments/${id}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return appointmentSchema.parse(response.json());
}

async function listedAs(session: string, id: string): Promise<Appointment | undefined> {
  const response = await send(context.app, 'GET', `/api/v1/appointments?pageSize=100&doctorId=${doctor.id}`, {
    session,
  });
  expect(response.statusCode, response.body).toBe(200);
  return appointmentPageSchema.parse(response.json()).data.find((entry) => entry.id === id);
}

describe('the reason for a visit, minimum necessary', () => {
  it('is the doctor’s and the patient’s: reception and administrators get it withheld in list and detail', async () => {
    const reason = 'Dolor torácico opresivo al subir escaleras';
    const booked = await bookAs(patient.token, { doctorId: doctor.id, startsAt: slot(), reason });
    expect(booked).toMatchObject({ reason, isReasonWithheld: false });
    for (const session of [patient.token, doctor.client.token]) {
      expect(await detailAs(session, booked.id)).toMatchObject({ reason, isReasonWithheld: false });
      expect(await listedAs(session, booked.id)).toMatchObject({ reason, isReasonWithheld: false });
    }
    for (const session of [reception.token, admin.token]) {
      const detail = await send(context.app, 'GET', `/api/v1/appointments/${booked.id}`, { session });
      expect(detail.statusCode).toBe(200);
      expect(detail.body).not.toContain(reason);
      expect(detail.json()).toMatchObject({ reason: null, isReasonWithheld: true });
      const listed = await listedAs(session, booked.id);
      expect(listed).toMatchObject({ reason: null, isReasonWithheld: true });
    }
    // An appointment booked without a reason is not "withheld": there is nothing to withhold.
    const bare = await createAppointment(context.app, {
      doctorId: doctor.id,
      patientId: patient.me.user.id,
      startsAt: slot(),
    });
    expect(await detailAs(reception.token, bare.id)).toMatchObject({ reason: null, isReasonWithheld: false });
  });

  it('lets reception write the reason when booking for a patient, not read it back', async () => {
    const reason = 'Revisión de la herida quirúrgica';
    const byReception = await bookAs(reception.token, {
      doctorId: doctor.id,
      startsAt: slot(),
      reason,
      patientId: patient.me.user.id,
    });
    expect(byReception).toMatchObject({ reason: null, isReasonWithheld: true });
    // Stored as written: the patient and the doctor read it.
    expect((await detailAs(patient.token, byReception.id)).reason).toBe(reason);
    expect((await detailAs(doctor.client.token, byReception.id)).reason).toBe(reason);
  });

  it('withholds it in the answers of cancel, reschedule and status changes made by staff', async () => {
    const reason = 'Control de tensión arterial elevada';
    const toMove = await bookAs(patient.token, { doctorId: doctor.id, startsAt: slot(), reason });
    const moved = await send(context.app, 'POST', `/api/v1/appointments/${toMove.id}/reschedule`, {
      session: reception.token,
      body: { startsAt: slot() },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ reason: null, isReasonWithheld: true });
    const requested = await createAppointment(context.app, {
      doctorId: doctor.id,
      patientId: patient.me.user.id,
      startsAt: slot(),
      status: 'requested',
    });
    await context.db.update(appointments).set({ reason }).where(eq(appointments.id, requested.id));
    const confirmed = await send(context.app, 'POST', `/api/v1/appointments/${requested.id}/status`, {
      session: reception.token,
      body: { status: 'confirmed' },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ status: 'confirmed', reason: null, isReasonWithheld: true });
    const toCancel = await bookAs(patient.token, { doctorId: doctor.id, startsAt: slot(), reason });
    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${toCancel.id}/cancel`, {
      session: admin.token,
      body: { reason: 'Agenda del médico cerrada' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // The clinic's own cancellation reason is not clinical and stays.
    expect(cancelled.json()).toMatchObject({
      reason: null,
      isReasonWithheld: true,
      cancellationReason: 'Agenda del médico cerrada',
    });
    // The doctor's own answer carries it.
    const byDoctor = await bookAs(patient.token, { doctorId: doctor.id, startsAt: slot(), reason });
    const confirmedByDoctor = await send(context.app, 'POST', `/api/v1/appointments/${byDoctor.id}/cancel`, {
      session: doctor.client.token,
      body: { reason: 'Indisposición' },
    });
    expect(confirmedByDoctor.json()).toMatchObject({ reason, isReasonWithheld: false });
  });

  it('reaches staff nowhere else: chart, search, dashboard, notifications, calendar file, outbox', async () => {
    const reason = 'Sangrado digestivo intermitente';
    const booked = await bookAs(patient.token, { doctorId: doctor.id, startsAt: slot(), reason });
    const urls = [
      `/api/v1/patients/${patient.me.user.id}/chart`,
      `/api/v1/search?q=${encodeURIComponent('Sangrado')}`,
      `/api/v1/search?q=${encodeURIComponent(patient.me.user.name)}`,
      '/api/v1/dashboard',
      '/api/v1/notifications',
      `/api/v1/appointments/${booked.id}/calendar.ics`,
      '/api/v1/outbox',
      `/api/v1/patients?q=${encodeURIComponent(patient.me.user.name)}`,
    ];
    let answered = 0;
    for (const session of [reception.token, admin.token]) {
      for (const url of urls) {
        const response = await send(context.app, 'GET', url, { session });
        if (response.statusCode === 200) {
          answered += 1;
        }
        expect(response.body, `${url}`).not.toContain(reason);
      }
    }
    // Most of these are open to one of the two: the sweep looked at real answers.
    expect(answered).toBeGreaterThanOrEqual(urls.length);
    const chart = await send(context.app, 'GET', `/api/v1/patients/${patient.me.user.id}/chart`, {
      session: reception.token,
    });
    expect(chart.json<Chart>().visits.every((visit) => visit.reason === null)).toBe(true);
    // The audit trail never held it either.
    const events = await auditEventsOf(context.app, 'appointment.booked');
    expect(JSON.stringify(events)).not.toContain(reason);
  });

  it('shows staff the reason once the clinic allows it, and only then', async () => {
    const reason = 'Seguimiento de diabetes tipo 2';
    const booked = await bookAs(patient.token, { doctorId: doctor.id, startsAt: slot(), reason });
    await setStaffMayRead(true);
    for (const session of [reception.token, admin.token]) {
      expect(await detailAs(session, booked.id)).toMatchObject({ reason, isReasonWithheld: false });
      expect(await listedAs(session, booked.id)).toMatchObject({ reason, isReasonWithheld: false });
    }
    const chart = await send(context.app, 'GET', `/api/v1/patients/${patient.me.user.id}/chart`, {
      session: reception.token,
    });
    expect(chart.json<Chart>().visits.find((visit) => visit.id === booked.id)?.reason).toBe(reason);
    await setStaffMayRead(false);
    expect(await detailAs(reception.token, booked.id)).toMatchObject({
      reason: null,
      isReasonWithheld: true,
    });
  });
});

describe('the privacy setting', () => {
  it('is off by default, changed by administrators only, validated and audited', async () => {
    const read = await send(context.app, 'GET', '/api/v1/settings', { session: admin.token });
    expect(read.statusCode).toBe(200);
    expect(clinicSettingsSchema.parse(read.json()).privacy).toEqual({ canStaffReadVisitReasons: false });
    for (const privacy of [
      { canStaffReadVisitReasons: 'yes' },
      {},
      { canStaffReadVisitReasons: true, x: 1 },
    ]) {
      const bad = await send(context.app, 'PATCH', '/api/v1/settings', {
        session: admin.token,
        body: { privacy },
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    const byReception = await send(context.app, 'PATCH', '/api/v1/settings', {
      session: reception.token,
      body: { privacy: { canStaffReadVisitReasons: true } },
    });
    expect(byReception.statusCode).toBe(403);
    await setStaffMayRead(true);
    const [event] = (await auditEventsOf(context.app, 'settings.updated')).slice(-1);
    expect(event?.details).toMatchObject({
      changes: { 'privacy.canStaffReadVisitReasons': { before: false, after: true } },
    });
  });
});
