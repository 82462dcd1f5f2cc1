import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { intakeFormListSchema } from '@telemedicina/shared/intake';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, notifications } from '../../db/schema.js';
import { createClock } from '../../test/booking-fixtures.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createDoctorWithPhq9 } from '../../test/intake-fixtures.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { remindersOf } from '../appointments/reminders.repository.js';
import { createReminderWorker } from './reminders.service.js';

// Wednesday 2026-03-25 10:00 UTC; the doctor (Madrid) opens 09:00–13:00 every day, PHQ-9 attached.
// Patients are in America/Mexico_City (the factories' default), so 09:00 UTC reads 3:00 for them.
const start = '2026-03-25T10:00:00Z';
const clock = createClock(start);
let context: TestContext;
let doctorId: string;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  doctorId = (await createDoctorWithPhq9(context.app)).id;
});

afterAll(async () => {
  await context?.close();
});

async function patientSignedIn(language: 'es' | 'en'): Promise<SignedInClient> {
  return signIn(context.app, await createUser(context.app, { roles: ['patient'], language }));
}

async function book(patient: SignedInClient, startsAt: string): Promise<Appointment> {
  const response = await send(context.app, 'POST', '/api/v1/appointments', {
    session: patient.token,
    body: { doctorId, startsAt, reason: 'Control' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

/** The intake emails to the patient: the one at booking, then the reminder (its own subject). */
async function intakeEmails(patient: SignedInClient) {
  await context.app.services.background.idle();
  return context.db
    .select()
    .from(emailOutbox)
    .where(
      and(eq(emailOutbox.toAddress, patient.me.user.email), eq(emailOutbox.template, 'intake-forms-due')),
    );
}

async function intakeNotices(patient: SignedInClient) {
  return context.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, patient.me.user.id), eq(notifications.kind, 'intake.formsDue')));
}

async function intakeReminderRow(appointmentId: string) {
  return (await remindersOf(context.db, appointmentId)).find((row) => row.kind === 'intake') ?? null;
}

describe('intake form reminder 24 h before the visit', () => {
  it('is queued with a booking that has forms due, and not for one booked within 24 h', async () => {
    clock.set(start);
    const patient = await patientSignedIn('es');
    const later = await book(patient, '2026-03-28T09:00:00Z');
    expect(await intakeReminderRow(later.id)).toMatchObject({
      dueAt: new Date('2026-03-27T09:00:00Z'),
      sentAt: null,
    });
    const soon = await book(patient, '2026-03-26T09:00:00Z');
    expect(await intakeReminderRow(soon.id)).toBeNull();
  });

  it('reminds an open form exactly once, in the patient language and zone, even with concurrent workers', async () => {
    clock.set(start);
    const patient = await patientSignedIn('en');
    const appointment = await book(patient, '2026-03-28T10:00:00Z');
    expect(await intakeEmails(patient)).toHaveLength(1);

    clock.set('2026-03-27T09:59:00Z');
    await context.app.reminders.runOnce();
    expect(await intakeEmails(patient)).toHaveLength(1);

    clock.set('2026-03-27T10:00:30Z');
    const other = createReminderWorker(context.app.services, { intervalMs: 1000, logger: context.app.log });
    const third = createReminderWorker(context.app.services, { intervalMs: 1000, logger: context.app.log });
    await Promise.all([context.app.reminders.runOnce(), other.runOnce(), third.runOnce()]);
    await Promise.all([context.app.reminders.runOnce(), other.runOnce()]);
    await other.stop();
    await third.stop();

    const reminders = (await intakeEmails(patient)).filter((row) => row.subject.startsWith('Reminder'));
    expect(reminders).toHaveLength(1);
    const [email] = reminders;
    expect(email?.language).toBe('en');
    expect(email?.subject).toMatch(/^Reminder: forms still open before your visit at /);
    // 10:00 UTC is 4:00 in Mexico City, named in words, never the IANA id.
    expect(email?.text).toMatch(/Saturday, March 28, 2026.*4:00/);
    expect(email?.text).not.toContain('America/');
    expect(email?.text).toContain('you still have 1 form to fill in');
    expect(email?.text).not.toContain('(s)');
    expect(email?.text).toContain(`/portal/appointments/${appointment.id}`);

    const notices = await intakeNotices(patient);
    expect(notices.filter((row) => (row.data as { reminder?: boolean }).reminder === true)).toHaveLength(1);
    expect(await intakeReminderRow(appointment.id)).toMatchObject({ sentAt: expect.any(Date) });
  });

  it('says it in Spanish (usted) to a Spanish-speaking patient', async () => {
    clock.set(start);
    const patient = await patientSignedIn('es');
    await book(patient, '2026-03-28T11:00:00Z');
    clock.set('2026-03-27T11:00:30Z');
    await context.app.reminders.runOnce();
    const [reminder] = (await intakeEmails(patient)).filter((row) => row.subject.startsWith('Recordatorio'));
    expect(reminder?.subject).toMatch(/^Recordatorio: formularios pendientes antes de su consulta en /);
    expect(reminder?.text).toContain('todavía tiene 1 formulario por rellenar');
    expect(reminder?.text).not.toContain('(s)');
  });

  it('sends nothing when every form was submitted, and stamps the reminder anyway', async () => {
    clock.set(start);
    const patient = await patientSignedIn('es');
    const appointment = await book(patient, '2026-03-29T09:00:00Z');
    const list = await send(context.app, 'GET', `/api/v1/appointments/${appointment.id}/intake-forms`, {
      session: patient.token,
    });
    const [form] = intakeFormListSchema.parse(list.json()).data;
    const answers: Record<string, unknown> = { 'phq9-difficulty': [{ valueCoding: { code: 'somewhat' } }] };
    for (let index = 1; index <= 9; index += 1) {
      answers[`phq9-${index}`] = [{ valueCoding: { code: '1' } }];
    }
    const submitted = await send(context.app, 'POST', `/api/v1/intake-responses/${form?.id}/submit`, {
      session: patient.token,
      body: { answers },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);

    clock.set('2026-03-28T09:00:30Z');
    await context.app.reminders.runOnce();
    expect(await intakeEmails(patient)).toHaveLength(1);
    expect(await intakeNotices(patient)).toHaveLength(1);
    expect(await intakeReminderRow(appointment.id)).toMatchObject({ sentAt: expect.any(Date) });
  });

  it('sends nothing for a cancelled visit', async () => {
    clock.set(start);
    const patient = await patientSignedIn('es');
    const appointment = await book(patient, '2026-03-30T09:00:00Z');
    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: patient.token,
      body: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    clock.set('2026-03-29T09:00:30Z');
    await context.app.reminders.runOnce();
    expect(await intakeEmails(patient)).toHaveLength(1);
  });
});
