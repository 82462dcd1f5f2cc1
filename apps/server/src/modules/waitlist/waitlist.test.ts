import { errorResponseSchema } from '@telemedicina/shared/api';
import { appointmentSchema } from '@telemedicina/shared/appointment';
import { notificationPageSchema, waitlistEntrySchema } from '@telemedicina/shared/notifications';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, waitlistEntries } from '../../db/schema.js';
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

async function newPatient(): Promise<SignedInClient> {
  return signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
}

function join(session: string, doctorId: string, body: Record<string, unknown> = {}) {
  return send(context.app, 'POST', `/api/v1/doctors/${doctorId}/waitlist`, { session, body });
}

async function slotEmails(to: string) {
  return context.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, 'waitlist-slot-freed')));
}

describe('doctor waiting lists', () => {
  it('tells a patient their own entry, and nobody else’s (404 when not on the list)', async () => {
    const doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
    const patient = await newPatient();
    const other = await newPatient();
    const mine = () =>
      send(context.app, 'GET', `/api/v1/doctors/${doctor.id}/waitlist`, { session: patient.token });

    const before = await mine();
    expect(before.statusCode).toBe(404);
    expect(errorResponseSchema.parse(before.json()).error.code).toBe('NOT_FOUND');

    expect((await join(patient.token, doctor.id, { before: '2026-04-10T08:00:00Z' })).statusCode).toBe(200);
    const found = await mine();
    expect(found.statusCode, found.body).toBe(200);
    expect(waitlistEntrySchema.parse(found.json())).toMatchObject({
      doctorId: doctor.id,
      before: '2026-04-10T08:00:00.000Z',
      notifiedAt: null,
    });
    // Another patient does not see it: their own place is what GET answers.
    const theirs = await send(context.app, 'GET', `/api/v1/doctors/${doctor.id}/waitlist`, {
      session: other.token,
    });
    expect(theirs.statusCode).toBe(404);

    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const response = await send(context.app, 'GET', `/api/v1/doctors/${id}/waitlist`, {
        session: patient.token,
      });
      expect(response.statusCode, id).toBe(404);
    }
    const doctorClient = await signIn(context.app, doctor);
    const forbidden = await send(context.app, 'GET', `/api/v1/doctors/${doctor.id}/waitlist`, {
      session: doctorClient.token,
    });
    expect(forbidden.statusCode).toBe(403);

    await send(context.app, 'DELETE', `/api/v1/doctors/${doctor.id}/waitlist`, { session: patient.token });
    expect((await mine()).statusCode).toBe(404);
  });

  it('lets a patient join, update and leave their own entry', async () => {
    const doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
    const patient = await newPatient();
    const joined = await join(patient.token, doctor.id, { before: '2026-04-10T00:00:00Z' });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(waitlistEntrySchema.parse(joined.json())).toMatchObject({
      doctorId: doctor.id,
      before: '2026-04-10T00:00:00.000Z',
      notifiedAt: null,
    });
    const again = await join(patient.token, doctor.id, { before: null });
    expect(waitlistEntrySchema.parse(again.json()).before).toBeNull();
    const rows = await context.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.doctorUserId, doctor.id));
    expect(rows).toHaveLength(1);

    expect((await join(patient.token, doctor.id, { before: 'tomorrow' })).statusCode).toBe(400);
    const unknown = await join(patient.token, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    const doctorClient = await signIn(context.app, doctor);
    expect((await join(doctorClient.token, doctor.id)).statusCode).toBe(403);

    const left = await send(context.app, 'DELETE', `/api/v1/doctors/${doctor.id}/waitlist`, {
      session: patient.token,
    });
    expect(left.statusCode).toBe(204);
    const twice = await send(context.app, 'DELETE', `/api/v1/doctors/${doctor.id}/waitlist`, {
      session: patient.token,
    });
    expect(twice.statusCode).toBe(404);
    expect(errorResponseSchema.parse(twice.json()).error.code).toBe('NOT_FOUND');
  });

  it('offers a cancelled slot to the first three patients waiting for an earlier one', async () => {
    const doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
    const booker = await newPatient();
    const waiting = [];
    for (let index = 0; index < 5; index += 1) {
      waiting.push(await newPatient());
    }
    const [first, tooLate, second, third, fourth] = waiting as [
      SignedInClient,
      SignedInClient,
      SignedInClient,
      SignedInClient,
      SignedInClient,
    ];
    await join(first.token, doctor.id, { before: '2026-04-01T00:00:00Z' });
    // Only wants slots before the 27th 08:00: the freed one (27th 09:00) is not earlier.
    await join(tooLate.token, doctor.id, { before: '2026-03-27T08:00:00Z' });
    await join(second.token, doctor.id);
    await join(third.token, doctor.id, { before: '2026-03-30T00:00:00Z' });
    await join(fourth.token, doctor.id);
    await join(booker.token, doctor.id);

    const booked = await send(context.app, 'POST', '/api/v1/appointments', {
      session: booker.token,
      body: { doctorId: doctor.id, startsAt: '2026-03-27T09:00:00Z', reason: 'Control' },
    });
    expect(booked.statusCode, booked.body).toBe(201);
    const appointment = appointmentSchema.parse(booked.json());
    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: booker.token,
      body: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);

    for (const told of [first, second, third]) {
      const emails = await slotEmails(told.me.user.email);
      expect(emails).toHaveLength(1);
      // The waiting patient books in their portal, where patients live, not in the admin area.
      expect(emails[0]?.text).toContain(`/portal/doctors/${doctor.id}`);
      expect(emails[0]?.text).not.toContain('/admin/');
      const page = notificationPageSchema.parse(
        (await send(context.app, 'GET', '/api/v1/notifications', { session: told.token })).json(),
      );
      expect(page.data[0]).toMatchObject({
        kind: 'waitlist.slotFreed',
        data: { doctorId: doctor.id, startsAt: '2026-03-27T09:00:00.000Z' },
      });
    }
    for (const untold of [tooLate, fourth, booker]) {
      expect(await slotEmails(untold.me.user.email)).toHaveLength(0);
    }
    const stamped = await context.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.doctorUserId, doctor.id));
    expect(
      stamped
        .filter((row) => row.notifiedAt !== null)
        .map((row) => row.patientUserId)
        .sort(),
    ).toEqual([first, second, third].map((client) => client.me.user.id).sort());

    // The next freed slot goes first to those not yet told.
    const rebooked = await send(context.app, 'POST', '/api/v1/appointments', {
      session: booker.token,
      body: { doctorId: doctor.id, startsAt: '2026-03-27T10:00:00Z', reason: 'Control' },
    });
    const again = appointmentSchema.parse(rebooked.json());
    await send(context.app, 'POST', `/api/v1/appointments/${again.id}/cancel`, {
      session: booker.token,
      body: {},
    });
    expect(await slotEmails(fourth.me.user.email)).toHaveLength(1);
  });
});
