import { errorResponseSchema } from '@telemedicina/shared/api';
import { appointmentPageSchema, appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { slotTakenDetailsSchema } from '@telemedicina/shared/booking';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorProfiles } from '../../db/schema.js';
import { writeSetting } from '../settings/settings.repository.js';
import { settingKeys } from '../settings/settings.service.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';

// Wednesday 2026-03-25 10:00 UTC; doctors in Madrid (UTC+1 until the 29th) open 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let staff: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

async function newDoctor(
  options: Parameters<typeof createDoctor>[1] = {},
): Promise<TestDoctor & { client: SignedInClient }> {
  const doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00'), ...options });
  return { ...doctor, client: await signIn(context.app, doctor) };
}

async function newPatient(): Promise<SignedInClient> {
  return signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
}

function book(session: string, body: Record<string, unknown>) {
  return send(context.app, 'POST', '/api/v1/appointments', { session, body });
}

async function booked(session: string, body: Record<string, unknown>): Promise<Appointment> {
  const response = await book(session, { reason: 'Control anual', ...body });
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

describe('POST /appointments', () => {
  it('books a free slot for the patient, confirmed, audited without the reason', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    const appointment = await booked(patient.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T08:00:00Z',
      reason: 'Dolor de cabeza persistente',
    });
    expect(appointment).toMatchObject({
      status: 'confirmed',
      startsAt: '2026-03-27T08:00:00.000Z',
      endsAt: '2026-03-27T08:30:00.000Z',
      reason: 'Dolor de cabeza persistente',
      doctor: { id: doctor.id, timeZone: 'Europe/Madrid' },
      patient: { id: patient.me.user.id },
    });
    const [event] = (await auditEventsOf(context.app, 'appointment.booked')).filter(
      (entry) => entry.targetId === appointment.id,
    );
    expect(event?.details).toEqual({
      doctorId: doctor.id,
      patientId: patient.me.user.id,
      startsAt: '2026-03-27T08:00:00.000Z',
      forOther: false,
    });
  });

  it('answers 409 SLOT_TAKEN with the next three free slots, 400 for a time that is no slot', async () => {
    const doctor = await newDoctor();
    const first = await newPatient();
    const second = await newPatient();
    await booked(first.token, { doctorId: doctor.id, startsAt: '2026-03-27T08:00:00Z' });
    await booked(first.token, { doctorId: doctor.id, startsAt: '2026-03-27T08:30:00Z' });
    const lost = await book(second.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T08:00:00Z',
      reason: 'Control',
    });
    expect(lost.statusCode).toBe(409);
    const error = errorResponseSchema.parse(lost.json()).error;
    expect(error.code).toBe('SLOT_TAKEN');
    expect(slotTakenDetailsSchema.parse(error.details).nextSlots.map((slot) => slot.startsAt)).toEqual([
      '2026-03-27T09:00:00.000Z',
      '2026-03-27T09:30:00.000Z',
      '2026-03-27T10:00:00.000Z',
    ]);
    for (const startsAt of [
      '2026-03-27T08:10:00Z', // off the grid
      '2026-03-27T15:00:00Z', // outside the hours
      '2026-03-25T11:00:00Z', // inside the minimum notice (two hours)
      '2026-03-20T08:00:00Z', // in the past
    ]) {
      const response = await book(second.token, { doctorId: doctor.id, startsAt, reason: 'Control' });
      expect(response.statusCode, startsAt).toBe(400);
      expect(response.json(), startsAt).toMatchObject({
        error: { details: { issues: [{ path: 'startsAt', message: 'validation.slotUnavailable' }] } },
      });
    }
  });

  it('lets staff book for a patient only, and keeps patients to themselves', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    const other = await newPatient();
    const forOther = await book(patient.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T09:00:00Z',
      reason: 'Control',
      patientId: other.me.user.id,
    });
    expect(forOther.statusCode).toBe(403);
    expect(codeOf(forOther)).toBe('FORBIDDEN');
    const own = await booked(patient.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T09:00:00Z',
      patientId: patient.me.user.id,
    });
    expect(own.patient.id).toBe(patient.me.user.id);
    const withoutPatient = await book(staff.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T09:30:00Z',
      reason: 'Control',
    });
    expect(withoutPatient.statusCode).toBe(400);
    const forDoctor = await book(staff.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T09:30:00Z',
      reason: 'Control',
      patientId: doctor.id,
    });
    expect(forDoctor.statusCode).toBe(400);
    const byStaff = await booked(staff.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T09:30:00Z',
      patientId: other.me.user.id,
    });
    expect(byStaff.patient.id).toBe(other.me.user.id);
    const notDoctor = await book(patient.token, {
      doctorId: other.me.user.id,
      startsAt: '2026-03-27T09:30:00Z',
      reason: 'Control',
    });
    expect(notDoctor.statusCode).toBe(404);
    // Doctors and admins hold no booking permission.
    expect(
      (
        await book(doctor.client.token, {
          doctorId: doctor.id,
          startsAt: '2026-03-27T10:00:00Z',
          reason: 'Control',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('turns new patients away from a doctor who takes none, but not returning ones', async () => {
    const doctor = await newDoctor({ acceptsNewPatients: false });
    const returning = await newPatient();
    const newcomer = await newPatient();
    await createAppointment(context.app, {
      doctorId: doctor.id,
      patientId: returning.me.user.id,
      startsAt: '2026-03-10T09:00:00Z',
      status: 'completed',
    });
    const refused = await book(newcomer.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T08:00:00Z',
      reason: 'Control',
    });
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('NOT_ACCEPTING_NEW_PATIENTS');
    await booked(returning.token, { doctorId: doctor.id, startsAt: '2026-03-27T08:00:00Z' });
  });
});

describe('reading appointments', () => {
  it('shows patients and doctors only their own (404 for others), staff all, with filters and paging', async () => {
    const doctor = await newDoctor();
    const otherDoctor = await newDoctor();
    const patient = await newPatient();
    const stranger = await newPatient();
    const mine = await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-27T08:00:00Z' });
    const theirs = await booked(stranger.token, {
      doctorId: otherDoctor.id,
      startsAt: '2026-03-27T08:00:00Z',
    });
    const get = (id: string, session: string) =>
      send(context.app, 'GET', `/api/v1/appointments/${id}`, { session });
    expect((await get(mine.id, patient.token)).statusCode).toBe(200);
    expect((await get(mine.id, doctor.client.token)).statusCode).toBe(200);
    expect((await get(mine.id, staff.token)).statusCode).toBe(200);
    const hidden = await get(mine.id, stranger.token);
    expect(hidden.statusCode).toBe(404);
    expect(codeOf(hidden)).toBe('NOT_FOUND');
    expect((await get(mine.id, otherDoctor.client.token)).statusCode).toBe(404);
    expect((await get('00000000-0000-4000-8000-000000000000', patient.token)).statusCode).toBe(404);

    const list = async (session: string, query = '') => {
      const response = await send(context.app, 'GET', `/api/v1/appointments?${query}`, { session });
      expect(response.statusCode, response.body).toBe(200);
      return appointmentPageSchema.parse(response.json());
    };
    expect((await list(patient.token)).data.map((entry) => entry.id)).toEqual([mine.id]);
    expect((await list(doctor.client.token)).data.map((entry) => entry.id)).toEqual([mine.id]);
    // Asking for someone else's appointments still only shows one's own (none).
    expect((await list(patient.token, `doctorId=${otherDoctor.id}`)).total).toBe(0);
    const all = await list(staff.token, `doctorId=${otherDoctor.id}`);
    expect(all.data.map((entry) => entry.id)).toEqual([theirs.id]);
    await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-28T08:00:00Z' });
    const paged = await list(patient.token, 'pageSize=1&page=2&order=desc');
    expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.data.map((entry) => entry.id)).toEqual([mine.id]);
    expect((await list(patient.token, 'from=2026-03-28T00:00:00Z')).total).toBe(1);
    expect((await list(patient.token, 'status=cancelled')).total).toBe(0);
    // The section search matches the doctor's or the patient's name.
    const byName = await list(staff.token, `q=${encodeURIComponent(otherDoctor.name)}`);
    expect(byName.data.map((entry) => entry.id)).toEqual([theirs.id]);
    expect((await list(staff.token, `q=${encodeURIComponent(stranger.me.user.name)}`)).total).toBe(1);
    expect(
      (await send(context.app, 'GET', '/api/v1/appointments?status=lost', { session: patient.token }))
        .statusCode,
    ).toBe(400);
  });
});

describe('changing appointments', () => {
  it('lets the patient cancel outside the window only, and frees the slot', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    const soon = await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-26T08:00:00Z' });
    const later = await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-27T08:00:00Z' });
    const cancel = (id: string, session: string, body: Record<string, unknown> = {}) =>
      send(context.app, 'POST', `/api/v1/appointments/${id}/cancel`, { session, body });
    const tooLate = await cancel(soon.id, patient.token);
    expect(tooLate.statusCode).toBe(409);
    expect(codeOf(tooLate)).toBe('CANCELLATION_WINDOW_PASSED');
    const cancelled = await cancel(later.id, patient.token);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(appointmentSchema.parse(cancelled.json())).toMatchObject({
      status: 'cancelled',
      cancellationReason: null,
      // Kept, so each reader is told "you cancelled" or who did.
      cancelledBy: 'patient',
    });
    const twice = await cancel(later.id, patient.token);
    expect(codeOf(twice)).toBe('INVALID_TRANSITION');
    // The slot is free again.
    await booked((await newPatient()).token, { doctorId: doctor.id, startsAt: '2026-03-27T08:00:00Z' });
    // Someone else's appointment stays hidden.
    expect((await cancel(soon.id, (await newPatient()).token)).statusCode).toBe(404);
    const events = (await auditEventsOf(context.app, 'appointment.cancelled')).filter(
      (event) => event.targetId === later.id,
    );
    expect(events.map((event) => (event.details as { by: string }).by)).toEqual(['patient']);
  });

  it('lets the doctor and staff cancel inside the window, with a reason', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    const first = await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-26T08:00:00Z' });
    const second = await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-26T08:30:00Z' });
    const noReason = await send(context.app, 'POST', `/api/v1/appointments/${first.id}/cancel`, {
      session: doctor.client.token,
      body: {},
    });
    expect(noReason.statusCode).toBe(400);
    const byDoctor = await send(context.app, 'POST', `/api/v1/appointments/${first.id}/cancel`, {
      session: doctor.client.token,
      body: { reason: 'Urgencia en el hospital' },
    });
    expect(byDoctor.statusCode).toBe(200);
    expect(appointmentSchema.parse(byDoctor.json())).toMatchObject({
      cancellationReason: 'Urgencia en el hospital',
      cancelledBy: 'doctor',
    });
    const byStaff = await send(context.app, 'POST', `/api/v1/appointments/${second.id}/cancel`, {
      session: staff.token,
      body: { reason: 'El médico no está disponible' },
    });
    expect(byStaff.statusCode).toBe(200);
    // Every reader gets the same fact; the screen words it for them.
    const readByPatient = await send(context.app, 'GET', `/api/v1/appointments/${second.id}`, {
      session: patient.token,
    });
    expect(appointmentSchema.parse(readByPatient.json()).cancelledBy).toBe('staff');
  });

  it('reschedules to a free slot, refuses a taken one (409) and the window for patients', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    const other = await newPatient();
    const appointment = await booked(patient.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-27T08:00:00Z',
    });
    await booked(other.token, { doctorId: doctor.id, startsAt: '2026-03-27T09:00:00Z' });
    const move = (id: string, session: string, startsAt: string) =>
      send(context.app, 'POST', `/api/v1/appointments/${id}/reschedule`, { session, body: { startsAt } });
    const moved = await move(appointment.id, patient.token, '2026-03-27T08:30:00Z');
    expect(moved.statusCode, moved.body).toBe(200);
    expect(appointmentSchema.parse(moved.json())).toMatchObject({
      startsAt: '2026-03-27T08:30:00.000Z',
      endsAt: '2026-03-27T08:30:00.000Z'.replace('08:30', '09:00'),
    });
    const taken = await move(appointment.id, patient.token, '2026-03-27T09:00:00Z');
    expect(taken.statusCode).toBe(409);
    expect(codeOf(taken)).toBe('SLOT_TAKEN');
    // Moving within its own time (a half-overlap with itself) is fine: it does not block itself.
    expect((await move(appointment.id, patient.token, '2026-03-27T08:00:00Z')).statusCode).toBe(200);
    // Into the window: the patient cannot move it any more; the doctor can.
    const soon = await move(appointment.id, patient.token, '2026-03-26T08:00:00Z');
    expect(soon.statusCode).toBe(200);
    const stuck = await move(appointment.id, patient.token, '2026-03-28T08:00:00Z');
    expect(codeOf(stuck)).toBe('CANCELLATION_WINDOW_PASSED');
    expect((await move(appointment.id, doctor.client.token, '2026-03-28T08:00:00Z')).statusCode).toBe(200);
    expect((await move(appointment.id, other.token, '2026-03-28T09:00:00Z')).statusCode).toBe(404);
    const events = (await auditEventsOf(context.app, 'appointment.rescheduled')).filter(
      (event) => event.targetId === appointment.id,
    );
    expect(events).toHaveLength(4);
  });

  it('follows the transition table for status changes by doctors and staff', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    const appointment = await booked(patient.token, {
      doctorId: doctor.id,
      startsAt: '2026-03-26T08:00:00Z',
    });
    const requested = await createAppointment(context.app, {
      doctorId: doctor.id,
      patientId: patient.me.user.id,
      startsAt: '2026-03-28T08:00:00Z',
      status: 'requested',
    });
    const setStatus = (id: string, session: string, status: string) =>
      send(context.app, 'POST', `/api/v1/appointments/${id}/status`, { session, body: { status } });
    expect((await setStatus(appointment.id, patient.token, 'no_show')).statusCode).toBe(403);
    const early = await setStatus(appointment.id, doctor.client.token, 'no_show');
    expect(codeOf(early)).toBe('INVALID_TRANSITION');
    expect((await setStatus(appointment.id, doctor.client.token, 'completed')).statusCode).toBe(400);
    const confirmed = await setStatus(requested.id, staff.token, 'confirmed');
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(codeOf(await setStatus(requested.id, staff.token, 'confirmed'))).toBe('INVALID_TRANSITION');

    clock.set('2026-03-26T08:20:00Z');
    try {
      const doctorNow = await signIn(context.app, doctor);
      const noShow = await setStatus(appointment.id, doctorNow.token, 'no_show');
      expect(noShow.statusCode, noShow.body).toBe(200);
      expect(appointmentSchema.parse(noShow.json()).status).toBe('no_show');
      // Terminal.
      expect(codeOf(await setStatus(appointment.id, doctorNow.token, 'confirmed'))).toBe(
        'INVALID_TRANSITION',
      );
      const staffNow = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
      const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
        session: staffNow.token,
        body: { reason: 'Tarde' },
      });
      expect(codeOf(cancelled)).toBe('INVALID_TRANSITION');
    } finally {
      clock.set('2026-03-25T10:00:00Z');
    }
    const events = (await auditEventsOf(context.app, 'appointment.status_changed')).filter(
      (event) => event.targetId === appointment.id || event.targetId === requested.id,
    );
    expect(events.map((event) => (event.details as { to: string }).to).sort()).toEqual([
      'confirmed',
      'no_show',
    ]);
  });

  it('uses the clinic settings for the minimum notice and the cancellation window', async () => {
    const doctor = await newDoctor();
    const patient = await newPatient();
    await writeSetting(context.db, settingKeys.minimumNoticeMinutes, 60 * 48, { now: clock.now() });
    await writeSetting(context.db, settingKeys.cancellationWindowHours, 72, { now: clock.now() });
    try {
      const tooSoon = await book(patient.token, {
        doctorId: doctor.id,
        startsAt: '2026-03-27T08:00:00Z',
        reason: 'Control',
      });
      expect(tooSoon.statusCode).toBe(400);
      const appointment = await booked(patient.token, {
        doctorId: doctor.id,
        startsAt: '2026-03-28T08:00:00Z',
      });
      const cancel = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
        session: patient.token,
        body: {},
      });
      expect(codeOf(cancel)).toBe('CANCELLATION_WINDOW_PASSED');
    } finally {
      await writeSetting(context.db, settingKeys.minimumNoticeMinutes, 120, { now: clock.now() });
      await writeSetting(context.db, settingKeys.cancellationWindowHours, 24, { now: clock.now() });
    }
    // And a changed visit length changes the slot grid.
    await context.db
      .update(doctorProfiles)
      .set({ visitMinutes: 45 })
      .where(eq(doctorProfiles.userId, doctor.id));
    const long = await booked(patient.token, { doctorId: doctor.id, startsAt: '2026-03-27T08:45:00Z' });
    expect(long.endsAt).toBe('2026-03-27T09:30:00.000Z');
  });
});
