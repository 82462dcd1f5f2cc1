import { errorResponseSchema } from '@telemedicina/shared/api';
import { appointmentSchema } from '@telemedicina/shared/appointment';
import {
  clinicDaySchema,
  patientLookupResultSchema,
  patientMatchSchema,
  type ClinicDay,
} from '@telemedicina/shared/reception';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consents, users } from '../../db/schema.js';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  deliveredToken,
  latestEmail,
  send,
  signIn,
  testPassword,
  type SignedInClient,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { lookupTermsOf } from './reception.service.js';

// Wednesday 2026-03-25 10:00 UTC. Reception's account is in Mexico City (UTC−6): its Friday
// 2026-03-27 runs from 06:00 UTC to 06:00 UTC on Saturday. Doctors in Madrid (UTC+1) work 09:00–13:00,
// i.e. 08:00–12:00 UTC; the doctor in Mexico City works 09:00–11:00, i.e. 15:00–17:00 UTC.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let reception: SignedInClient;
let madrid: TestDoctor;
let mexico: TestDoctor;
let patient: { id: string; name: string };

beforeAll(async () => {
  context = await createTestContext({ now: clock.now, smtp: true });
  reception = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  madrid = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  mexico = await createDoctor(context.app, {
    timeZone: 'America/Mexico_City',
    rules: everyDay('09:00', '11:00'),
  });
  const created = await createUser(context.app, { roles: ['patient'], name: 'Lucía Paciente Día' });
  patient = { id: created.id, name: created.name };
  await createAppointment(context.app, {
    doctorId: madrid.id,
    patientId: patient.id,
    startsAt: '2026-03-27T08:00:00Z',
  });
  await createAppointment(context.app, {
    doctorId: madrid.id,
    patientId: patient.id,
    startsAt: '2026-03-27T09:00:00Z',
    status: 'checked_in',
    checkedInAt: '2026-03-27T08:55:00Z',
  });
  await createAppointment(context.app, {
    doctorId: madrid.id,
    patientId: patient.id,
    startsAt: '2026-03-27T10:00:00Z',
    status: 'cancelled',
    cancelledAt: '2026-03-26T10:00:00Z',
  });
  // The day before and the day after, in reception's zone: not on Friday's page.
  await createAppointment(context.app, {
    doctorId: mexico.id,
    patientId: patient.id,
    startsAt: '2026-03-27T05:30:00Z',
  });
  await createAppointment(context.app, {
    doctorId: mexico.id,
    patientId: patient.id,
    startsAt: '2026-03-28T06:00:00Z',
  });
  await createAppointment(context.app, {
    doctorId: mexico.id,
    patientId: patient.id,
    startsAt: '2026-03-27T16:00:00Z',
    status: 'in_progress',
  });
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

async function dayOf(session: string, date: string): Promise<ClinicDay> {
  const response = await send(context.app, 'GET', `/api/v1/clinic-day?date=${date}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return clinicDaySchema.parse(response.json());
}

describe('GET /clinic-day', () => {
  it("shows every doctor's appointments and free slots on a day of the reader's zone", async () => {
    const day = await dayOf(reception.token, '2026-03-27');
    expect(day).toMatchObject({
      date: '2026-03-27',
      timeZone: 'America/Mexico_City',
      from: '2026-03-27T06:00:00.000Z',
      to: '2026-03-28T06:00:00.000Z',
    });
    const byId = new Map(day.doctors.map((doctor) => [doctor.id, doctor]));
    const inMadrid = byId.get(madrid.id);
    const inMexico = byId.get(mexico.id);
    expect(inMadrid?.appointments.map((row) => [row.startsAt, row.status, row.patient.name])).toEqual([
      ['2026-03-27T08:00:00.000Z', 'confirmed', 'Lucía Paciente Día'],
      ['2026-03-27T09:00:00.000Z', 'checked_in', 'Lucía Paciente Día'],
      ['2026-03-27T10:00:00.000Z', 'cancelled', 'Lucía Paciente Día'],
    ]);
    // Booked times are not free; the cancelled one is free again.
    expect(inMadrid?.freeSlots.map((slot) => slot.startsAt)).toEqual([
      '2026-03-27T08:30:00.000Z',
      '2026-03-27T09:30:00.000Z',
      '2026-03-27T10:00:00.000Z',
      '2026-03-27T10:30:00.000Z',
      '2026-03-27T11:00:00.000Z',
      '2026-03-27T11:30:00.000Z',
    ]);
    expect(inMexico?.appointments.map((row) => [row.startsAt, row.status])).toEqual([
      ['2026-03-27T16:00:00.000Z', 'in_progress'],
    ]);
    expect(inMexico?.freeSlots.map((slot) => slot.startsAt)).toEqual([
      '2026-03-27T15:00:00.000Z',
      '2026-03-27T15:30:00.000Z',
      '2026-03-27T16:30:00.000Z',
    ]);
    // No reason for the visit on this page, patients by id and name only.
    expect(JSON.stringify(day)).not.toContain('reason');
  });

  it("defaults to today in the reader's zone and leaves out free times within the minimum notice", async () => {
    const day = await dayOf(reception.token, '2026-03-25');
    const today = clinicDaySchema.parse(
      (await send(context.app, 'GET', '/api/v1/clinic-day', { session: reception.token })).json(),
    );
    expect(today.date).toBe('2026-03-25');
    expect(today.doctors).toEqual(day.doctors);
    // Now is 10:00 UTC and the notice two hours: Madrid's hours end at 12:00 UTC, so nothing is
    // left today; Mexico City's 15:00 UTC is.
    const byId = new Map(day.doctors.map((doctor) => [doctor.id, doctor]));
    expect(byId.get(madrid.id)?.freeSlots).toEqual([]);
    expect(byId.get(mexico.id)?.freeSlots[0]?.startsAt).toBe('2026-03-25T15:00:00.000Z');
  });

  it('gives a doctor their own column only, refuses patients and anonymous readers, validates the date', async () => {
    const doctor = await signIn(context.app, madrid);
    const own = await dayOf(doctor.token, '2026-03-27');
    expect(own.doctors.map((entry) => entry.id)).toEqual([madrid.id]);
    expect(own.timeZone).toBe('Europe/Madrid');
    expect(own.from).toBe('2026-03-26T23:00:00.000Z');

    const asPatient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const refused = await send(context.app, 'GET', '/api/v1/clinic-day', { session: asPatient.token });
    expect(refused.statusCode).toBe(403);
    expect((await send(context.app, 'GET', '/api/v1/clinic-day')).statusCode).toBe(401);
    const invalid = await send(context.app, 'GET', '/api/v1/clinic-day?date=27/03/2026', {
      session: reception.token,
    });
    expect(invalid.statusCode).toBe(400);
    expect(codeOf(invalid)).toBe('VALIDATION_FAILED');
  });
});

describe('GET /patients/lookup', () => {
  it('reads a name, a phone written any way, or a date of birth', () => {
    expect(lookupTermsOf('María')).toEqual({ text: 'María', phoneDigits: null, dateOfBirth: null });
    expect(lookupTermsOf('+52 (55) 1234-5678')).toMatchObject({ phoneDigits: '525512345678' });
    expect(lookupTermsOf('7/3/1985')).toMatchObject({ dateOfBirth: '1985-03-07', phoneDigits: null });
    expect(lookupTermsOf('1985-03-07')).toMatchObject({ dateOfBirth: '1985-03-07' });
    expect(lookupTermsOf('31/02/1985').dateOfBirth).toBeNull();
  });

  it('finds a patient by part of the name, the phone digits or the date of birth', async () => {
    const found = await createUser(context.app, { roles: ['patient'], name: 'Ramona Búsqueda Sánchez' });
    await context.app.services.db
      .update(users)
      .set({ phone: '+52 55 8765 4321', dateOfBirth: '1979-11-02' })
      .where(eq(users.id, found.id));
    for (const q of ['búsqueda', '8765 4321', '5587654321', '02/11/1979', '1979-11-02']) {
      const response = await send(context.app, 'GET', `/api/v1/patients/lookup?q=${encodeURIComponent(q)}`, {
        session: reception.token,
      });
      expect(response.statusCode, q).toBe(200);
      const ids = patientLookupResultSchema.parse(response.json()).data.map((match) => match.id);
      expect(ids, q).toContain(found.id);
    }
    const [event] = (await auditEventsOf(context.app, 'patient.list_viewed')).slice(-1);
    expect(event?.details).toMatchObject({ scope: 'lookup', q: '1979-11-02' });
  });

  it('refuses doctors (no administrative patient data) and a one-letter search', async () => {
    const doctor = await signIn(context.app, mexico);
    const refused = await send(context.app, 'GET', '/api/v1/patients/lookup?q=ana', {
      session: doctor.token,
    });
    expect(refused.statusCode).toBe(403);
    const short = await send(context.app, 'GET', '/api/v1/patients/lookup?q=a', { session: reception.token });
    expect(short.statusCode).toBe(400);
  });
});

describe('POST /patients', () => {
  const caller = {
    name: 'Tomás Llamada Nueva',
    email: 'tomas.llamada@example.test',
    phone: '+52 55 1111 2222',
    dateOfBirth: '1990-05-17',
    language: 'es',
  };

  it('creates a pending patient at once, emails the invitation, and they can be booked before signing up', async () => {
    const response = await send(context.app, 'POST', '/api/v1/patients', {
      session: reception.token,
      body: caller,
    });
    expect(response.statusCode, response.body).toBe(201);
    const registered = patientMatchSchema.parse(response.json());
    expect(registered).toMatchObject({
      name: caller.name,
      email: caller.email,
      phone: caller.phone,
      dateOfBirth: caller.dateOfBirth,
      hasSignedUp: false,
    });
    const [row] = await context.app.services.db.select().from(users).where(eq(users.id, registered.id));
    expect(row).toMatchObject({ status: 'pending', passwordHash: null, roleKeys: ['patient'] });
    const email = await latestEmail(context.app, caller.email, 'invitation');
    expect(email?.subject).toBe('Su cuenta de paciente en Telemedicina');

    const booking = await send(context.app, 'POST', '/api/v1/appointments', {
      session: reception.token,
      body: {
        doctorId: madrid.id,
        patientId: registered.id,
        startsAt: '2026-03-27T11:00:00Z',
        reason: 'Revisión de la tensión arterial',
      },
    });
    expect(booking.statusCode, booking.body).toBe(201);
    expect(appointmentSchema.parse(booking.json()).patient).toEqual({ id: registered.id, name: caller.name });

    // The emailed link completes this account: the patient's own password, active, verified.
    const token = await deliveredToken(context, caller.email, '/accept-invitation');
    // A patient also gives the telemedicine consent, as at self-registration.
    const withoutConsent = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, password: testPassword, acceptTerms: true },
    });
    expect(withoutConsent.statusCode).toBe(400);
    expect(withoutConsent.json()).toMatchObject({
      error: {
        details: { issues: [{ path: 'acceptTelemedicineConsent', message: 'validation.mustAccept' }] },
      },
    });
    const accepted = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, password: testPassword, acceptTerms: true, acceptTelemedicineConsent: true },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const [after] = await context.app.services.db.select().from(users).where(eq(users.id, registered.id));
    expect(after?.status).toBe('active');
    expect(after?.emailVerifiedAt).not.toBeNull();
    expect(after?.passwordHash).not.toBeNull();
    const given = await context.app.services.db
      .select({ kind: consents.kind })
      .from(consents)
      .where(eq(consents.userId, registered.id));
    expect(given.map((row) => row.kind).sort()).toEqual(['telemedicine', 'terms']);
    const again = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, password: testPassword, acceptTerms: true, acceptTelemedicineConsent: true },
    });
    expect(again.statusCode).toBe(400);
  });

  it('answers 409 for an email that has an account, 400 for missing data, 403 without permission', async () => {
    const taken = await send(context.app, 'POST', '/api/v1/patients', {
      session: reception.token,
      body: { ...caller, name: 'Otra Persona' },
    });
    expect(taken.statusCode).toBe(409);
    expect(errorResponseSchema.parse(taken.json()).error).toMatchObject({
      code: 'CONFLICT',
      details: { field: 'email' },
    });
    const invalid = await send(context.app, 'POST', '/api/v1/patients', {
      session: reception.token,
      body: { ...caller, email: 'otra@example.test', phone: 'llámeme' },
    });
    expect(invalid.statusCode).toBe(400);
    const doctor = await signIn(context.app, madrid);
    const refused = await send(context.app, 'POST', '/api/v1/patients', {
      session: doctor.token,
      body: { ...caller, email: 'tercera@example.test' },
    });
    expect(refused.statusCode).toBe(403);
  });
});
