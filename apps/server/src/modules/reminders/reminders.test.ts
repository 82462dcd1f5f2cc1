import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { emailOutbox, notifications } from '../../db/schema.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { createClock, createDoctor, everyDay } from '../../test/booking-fixtures.js';
import { remindersOf } from '../appointments/reminders.repository.js';
import { createReminderWorker } from './reminders.service.js';

// Wednesday 2026-03-25 10:00 UTC; doctors in Madrid (UTC+1) open 09:00–13:00 every day.
const start = '2026-03-25T10:00:00Z';
const clock = createClock(start);
let context: TestContext;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
});

afterAll(async () => {
  await context?.close();
});

interface Setup {
  patient: SignedInClient;
  staff: SignedInClient;
  doctorId: string;
}

/** Fresh sign-ins at the current clock (sessions lapse when the clock jumps). */
async function setUp(): Promise<Setup> {
  const doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
  const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  return { patient, staff, doctorId: doctor.id };
}

async function book(setup: Setup, startsAt: string): Promise<Appointment> {
  const response = await send(context.app, 'POST', '/api/v1/appointments', {
    session: setup.patient.token,
    body: { doctorId: setup.doctorId, startsAt, reason: 'Control' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

async function remindersTo(email: string) {
  return context.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, email), eq(emailOutbox.template, 'appointment-reminder')));
}

async function dueTimes(appointmentId: string) {
  return (await remindersOf(context.db, appointmentId)).map((row) => ({
    kind: row.kind,
    dueAt: row.dueAt.toISOString(),
    sent: row.sentAt !== null,
  }));
}

describe('appointment reminders', () => {
  it('creates the 24 h and 1 h reminders with the booking, skipping past ones', async () => {
    clock.set(start);
    const setup = await setUp();
    const appointment = await book(setup, '2026-03-27T08:00:00Z');
    expect(await dueTimes(appointment.id)).toEqual([
      { kind: '24h', dueAt: '2026-03-26T08:00:00.000Z', sent: false },
      { kind: '1h', dueAt: '2026-03-27T07:00:00.000Z', sent: false },
    ]);
    const soon = await book(setup, '2026-03-26T09:00:00Z');
    expect(await dueTimes(soon.id)).toEqual([{ kind: '1h', dueAt: '2026-03-26T08:00:00.000Z', sent: false }]);
  });

  it('sends a due reminder exactly once, even with repeated and concurrent passes', async () => {
    clock.set(start);
    const setup = await setUp();
    const appointment = await book(setup, '2026-03-28T08:00:00Z');
    const email = setup.patient.me.user.email;
    clock.set('2026-03-27T07:59:00Z');
    await context.app.reminders.runOnce();
    expect(await remindersTo(email)).toHaveLength(0);

    clock.set('2026-03-27T08:00:30Z');
    const other = createReminderWorker(context.app.services, { intervalMs: 1000, logger: context.app.log });
    await Promise.all([context.app.reminders.runOnce(), other.runOnce(), other.runOnce()]);
    await context.app.reminders.runOnce();
    await other.stop();
    const sent = await remindersTo(email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toMatch(/Recordatorio/);
    expect(await dueTimes(appointment.id)).toEqual([
      { kind: '24h', dueAt: '2026-03-27T08:00:00.000Z', sent: true },
      { kind: '1h', dueAt: '2026-03-28T07:00:00.000Z', sent: false },
    ]);
    const rows = await context.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, setup.patient.me.user.id),
          eq(notifications.kind, 'appointment.reminder'),
        ),
      );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.data).toMatchObject({ appointmentId: appointment.id, reminder: '24h' });
  });

  it('moves reminders with a reschedule, sending a sent one again only when the visit moved later', async () => {
    clock.set(start);
    const setup = await setUp();
    const appointment = await book(setup, '2026-03-27T09:00:00Z');
    clock.set('2026-03-26T09:00:10Z');
    await context.app.reminders.runOnce();
    expect(await remindersTo(setup.patient.me.user.email)).toHaveLength(1);

    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    const earlier = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/reschedule`, {
      session: staff.token,
      body: { startsAt: '2026-03-27T08:30:00Z' },
    });
    expect(earlier.statusCode, earlier.body).toBe(200);
    expect(await dueTimes(appointment.id)).toEqual([
      { kind: '24h', dueAt: '2026-03-26T08:30:00.000Z', sent: true },
      { kind: '1h', dueAt: '2026-03-27T07:30:00.000Z', sent: false },
    ]);

    const later = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/reschedule`, {
      session: staff.token,
      body: { startsAt: '2026-03-28T10:00:00Z' },
    });
    expect(later.statusCode, later.body).toBe(200);
    expect(await dueTimes(appointment.id)).toEqual([
      { kind: '24h', dueAt: '2026-03-27T10:00:00.000Z', sent: false },
      { kind: '1h', dueAt: '2026-03-28T09:00:00.000Z', sent: false },
    ]);
    clock.set('2026-03-27T10:00:00Z');
    await context.app.reminders.runOnce();
    expect(await remindersTo(setup.patient.me.user.email)).toHaveLength(2);
  });

  it('records a failed pass on the reminder and sends it on the next one', async () => {
    clock.set(start);
    const setup = await setUp();
    const appointment = await book(setup, '2026-03-31T08:00:00Z');
    clock.set('2026-03-30T08:00:00Z');
    const spy = vi.spyOn(context.app.services.mailer, 'store').mockRejectedValueOnce(new Error('disk full'));
    try {
      await expect(context.app.reminders.runOnce()).rejects.toThrow('disk full');
    } finally {
      spy.mockRestore();
    }
    const [failed] = await remindersOf(context.db, appointment.id);
    expect(failed).toMatchObject({ kind: '24h', sentAt: null, attempts: 1, lastError: 'disk full' });
    expect(await remindersTo(setup.patient.me.user.email)).toHaveLength(0);
    await context.app.reminders.runOnce();
    expect(await remindersTo(setup.patient.me.user.email)).toHaveLength(1);
    const [sent] = await remindersOf(context.db, appointment.id);
    expect(sent).toMatchObject({ kind: '24h', attempts: 2, lastError: null, sentAt: expect.any(Date) });
  });

  it('drops the reminders of a cancelled appointment', async () => {
    clock.set(start);
    const setup = await setUp();
    const appointment = await book(setup, '2026-03-29T08:00:00Z');
    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: setup.patient.token,
      body: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await dueTimes(appointment.id)).toEqual([]);
    clock.set('2026-03-29T07:30:00Z');
    await context.app.reminders.runOnce();
    expect(await remindersTo(setup.patient.me.user.email)).toHaveLength(0);
  });

  it('sends pending reminders after a restart (a new app on the same database)', async () => {
    clock.set(start);
    const setup = await setUp();
    const appointment = await book(setup, '2026-03-30T08:00:00Z');
    clock.set('2026-03-30T07:10:00Z');
    const restarted = await buildApp({
      config: { ...context.config, reminderPollSeconds: 1 },
      database: context.database.client,
      now: clock.now,
    });
    try {
      await restarted.ready();
      // Its poller (every second) finds both due; the overdue 24 h one is dropped for the 1 h one.
      await vi.waitFor(
        async () => {
          const sent = await remindersTo(setup.patient.me.user.email);
          expect(sent).toHaveLength(1);
          expect(sent[0]?.subject).toMatch(/en una hora/);
        },
        { timeout: 20_000, interval: 100 },
      );
    } finally {
      await restarted.close();
    }
    await context.app.reminders.runOnce();
    expect(await remindersTo(setup.patient.me.user.email)).toHaveLength(1);
    expect((await dueTimes(appointment.id)).every((row) => row.sent)).toBe(true);
  });
});
