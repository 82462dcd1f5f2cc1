import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { notificationPageSchema } from '@telemedicina/shared/notifications';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { createClock, createDoctor, everyDay } from '../../test/booking-fixtures.js';

// Wednesday 2026-03-25 10:00 UTC; doctors in Madrid (UTC+1) open 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
});

afterAll(async () => {
  await context?.close();
});

async function setUp(): Promise<{ patient: SignedInClient; doctor: SignedInClient; doctorId: string }> {
  const doctorUser = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  const patientUser = await createUser(context.app, { roles: ['patient'], language: 'es' });
  return {
    patient: await signIn(context.app, patientUser),
    doctor: await signIn(context.app, doctorUser),
    doctorId: doctorUser.id,
  };
}

async function book(session: string, doctorId: string, startsAt: string): Promise<Appointment> {
  const response = await send(context.app, 'POST', '/api/v1/appointments', {
    session,
    body: { doctorId, startsAt, reason: 'Control' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

async function cancellationSeenBy(session: string) {
  const response = await send(context.app, 'GET', '/api/v1/notifications', { session });
  expect(response.statusCode, response.body).toBe(200);
  const row = notificationPageSchema
    .parse(response.json())
    .data.find((notification) => notification.kind === 'appointment.cancelled');
  return row?.data;
}

describe('appointment notices say whom they are for', () => {
  it('a cancellation tells each reader whether they are the patient or the doctor, beside who cancelled', async () => {
    const { patient, doctor, doctorId } = await setUp();
    const appointment = await book(patient.token, doctorId, '2026-03-27T09:00:00Z');
    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: patient.token,
      body: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await cancellationSeenBy(patient.token)).toMatchObject({ by: 'patient', recipient: 'patient' });
    expect(await cancellationSeenBy(doctor.token)).toMatchObject({ by: 'patient', recipient: 'doctor' });
  });
});
