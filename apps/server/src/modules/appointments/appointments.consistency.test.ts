import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  appointmentReminders,
  appointments,
  auditEvents,
  emailOutbox,
  notifications,
  waitlistEntries,
} from '../../db/schema.js';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

/**
 * A booking, a reschedule and a cancellation commit together with what they
 * record (audit event, reminders, stored emails, notifications, waiting-list
 * stamps) or not at all. The email store is made to fail with a CHECK
 * constraint that refuses one recipient's messages (a real database error
 * in the middle of the change), and nothing of the change may remain, nor be
 * pushed to anyone.
 */

// Wednesday 2026-03-25 10:00 UTC; doctors in Madrid (UTC+1) see patients 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let refusing: string | null = null;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
});

afterEach(async () => {
  await allowEmailsTo();
  vi.restoreAllMocks();
});

afterAll(async () => {
  await context?.close();
});

/** Makes every insert of an email to `address` fail (the rows already there are not checked). */
async function refuseEmailsTo(address: string): Promise<void> {
  refusing = address;
  await context.db.execute(
    sql.raw(
      `alter table email_outbox add constraint test_refuse_recipient check (to_address <> '${address.replaceAll("'", "''")}') not valid`,
    ),
  );
}

async function allowEmailsTo(): Promise<void> {
  if (refusing !== null) {
    await context.db.execute(sql`alter table email_outbox drop constraint if exists test_refuse_recipient`);
    refusing = null;
  }
}

interface Scene {
  doctor: TestDoctor;
  patient: SignedInClient;
}

async function scene(): Promise<Scene> {
  const doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
  return { doctor, patient };
}

function book(patient: SignedInClient, doctor: TestDoctor, startsAt: string) {
  return send(context.app, 'POST', '/api/v1/appointments', {
    session: patient.token,
    body: { doctorId: doctor.id, startsAt, reason: 'Revisión' },
  });
}

async function booked(patient: SignedInClient, doctor: TestDoctor, startsAt: string): Promise<Appointment> {
  const response = await book(patient, doctor, startsAt);
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

/** Everything a change records about one doctor and patient, counted. */
async function recorded({ doctor, patient }: Scene) {
  const db = context.db;
  const patientId = patient.me.user.id;
  const rows = await db
    .select()
    .from(appointments)
    .where(and(eq(appointments.doctorUserId, doctor.id), eq(appointments.patientUserId, patientId)));
  const ids = rows.map((row) => row.id);
  const reminders = await db.select().from(appointmentReminders);
  const outbox = await db.select().from(emailOutbox);
  const audit = await db.select().from(auditEvents);
  return {
    appointments: rows,
    reminders: reminders.filter((row) => ids.includes(row.appointmentId)),
    emails: outbox
      .filter((row) => row.toAddress === patient.me.user.email || row.toAddress === doctor.email)
      .map((row) => `${row.toAddress === doctor.email ? 'doctor' : 'patient'}:${row.template}`)
      .sort(),
    notifications: (await db.select().from(notifications).where(eq(notifications.userId, patientId))).map(
      (row) => row.kind,
    ),
    doctorNotifications: (
      await db.select().from(notifications).where(eq(notifications.userId, doctor.id))
    ).map((row) => row.kind),
    audit: audit
      .filter((row) => row.targetId !== null && ids.includes(row.targetId))
      .map((row) => row.action),
  };
}

describe('a booking and what it records: all or nothing', () => {
  it('records everything with a booking that succeeds', async () => {
    const people = await scene();
    await booked(people.patient, people.doctor, '2026-03-27T08:00:00Z');
    const after = await recorded(people);
    expect(after.appointments).toHaveLength(1);
    expect(after.reminders.map((row) => row.kind).sort()).toEqual(['1h', '24h']);
    // The patient has not signed the telemedicine consent yet: the booking asks for it too.
    expect(after.emails).toEqual([
      'doctor:appointment-booked',
      'patient:appointment-booked',
      'patient:consent-to-sign',
    ]);
    expect(after.notifications.sort()).toEqual(['appointment.booked', 'consent.toSign']);
    expect(after.doctorNotifications).toEqual(['appointment.booked']);
    expect(after.audit).toEqual(['appointment.booked']);
  });

  it('saves nothing and pushes nothing when storing an email fails, and the slot stays free', async () => {
    const people = await scene();
    const pushes = vi.spyOn(context.app.services.sockets, 'notifyUser');
    // The doctor's email is stored after the patient's: the failure comes mid-way.
    await refuseEmailsTo(people.doctor.email);
    const failed = await book(people.patient, people.doctor, '2026-03-27T08:30:00Z');
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ error: { code: 'INTERNAL_ERROR' } });
    expect(await recorded(people)).toEqual({
      appointments: [],
      reminders: [],
      emails: [],
      notifications: [],
      doctorNotifications: [],
      audit: [],
    });
    expect(pushes).not.toHaveBeenCalled();

    await allowEmailsTo();
    const retried = await booked(people.patient, people.doctor, '2026-03-27T08:30:00Z');
    expect(retried.startsAt).toBe('2026-03-27T08:30:00.000Z');
    expect((await recorded(people)).emails).toEqual([
      'doctor:appointment-booked',
      'patient:appointment-booked',
      'patient:consent-to-sign',
    ]);
    // The booking to the doctor and the patient, and the consent request to the patient.
    expect(pushes).toHaveBeenCalledTimes(3);
  });

  it('keeps the old time, reminders and emails when a reschedule cannot store its emails', async () => {
    const people = await scene();
    const appointment = await booked(people.patient, people.doctor, '2026-03-28T09:00:00Z');
    const before = await recorded(people);
    await refuseEmailsTo(people.patient.me.user.email);
    const failed = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/reschedule`, {
      session: people.patient.token,
      body: { startsAt: '2026-03-28T10:00:00Z' },
    });
    expect(failed.statusCode).toBe(500);
    const after = await recorded(people);
    expect(after).toEqual(before);
    expect(after.appointments[0]?.startsAt.toISOString()).toBe('2026-03-28T09:00:00.000Z');
    expect(after.reminders.map((row) => row.dueAt.toISOString()).sort()).toEqual([
      '2026-03-27T09:00:00.000Z',
      '2026-03-28T08:00:00.000Z',
    ]);
  });

  it('keeps the appointment, its reminders and the waiting list untouched when a cancellation fails', async () => {
    const people = await scene();
    const appointment = await booked(people.patient, people.doctor, '2026-03-29T09:00:00Z');
    const waiting = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const joined = await send(context.app, 'POST', `/api/v1/doctors/${people.doctor.id}/waitlist`, {
      session: waiting.token,
      body: {},
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const before = await recorded(people);
    const pushes = vi.spyOn(context.app.services.sockets, 'notifyUser');
    // The waiting patient's offer is the last email of the cancellation.
    await refuseEmailsTo(waiting.me.user.email);
    const failed = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: people.patient.token,
      body: {},
    });
    expect(failed.statusCode).toBe(500);
    expect(await recorded(people)).toEqual(before);
    expect(before.appointments[0]?.status).toBe('confirmed');
    const [entry] = await context.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.patientUserId, waiting.me.user.id));
    expect(entry?.notifiedAt).toBeNull();
    expect(pushes).not.toHaveBeenCalled();

    await allowEmailsTo();
    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: people.patient.token,
      body: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const after = await recorded(people);
    expect(after.appointments[0]?.status).toBe('cancelled');
    expect(after.reminders).toEqual([]);
    expect(after.emails).toEqual([
      'doctor:appointment-booked',
      'doctor:appointment-cancelled',
      'patient:appointment-booked',
      'patient:appointment-cancelled',
      'patient:consent-to-sign',
    ]);
    const [notified] = await context.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.patientUserId, waiting.me.user.id));
    expect(notified?.notifiedAt).not.toBeNull();
    // Patient, doctor and the waiting patient, once the change has committed.
    expect(pushes).toHaveBeenCalledTimes(3);
  });
});
