import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import {
  notificationPageSchema,
  notificationSchema,
  type Notification,
} from '@telemedicina/shared/notifications';
import { and, eq } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailOutbox, users } from '../../db/schema.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { signTelemedicineConsent } from '../../test/consent-fixtures.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';
import { createClock, createDoctor, everyDay } from '../../test/booking-fixtures.js';
import { escapeIcsText } from '../../lib/ics.js';
import type { OutgoingEmail } from '../email/mailer.js';

// Wednesday 2026-03-25 10:00 UTC; doctors in Madrid (UTC+1) open 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let port: number;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});

afterAll(async () => {
  await context?.close();
});

async function setUp(): Promise<{ patient: SignedInClient; doctor: SignedInClient; doctorId: string }> {
  const doctorUser = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  await context.db.update(users).set({ language: 'en' }).where(eq(users.id, doctorUser.id));
  const patientUser = await createUser(context.app, {
    roles: ['patient'],
    language: 'es',
    name: 'Ana; Pérez, hija',
  });
  const doctor = await signIn(context.app, doctorUser);
  const patient = await signIn(context.app, patientUser);
  // Signed already, so a booking sends only its own notices (the consent request has its own tests).
  await signTelemedicineConsent(context.app, patient);
  return { patient, doctor, doctorId: doctorUser.id };
}

async function book(session: string, doctorId: string, startsAt: string): Promise<Appointment> {
  const response = await send(context.app, 'POST', '/api/v1/appointments', {
    session,
    body: { doctorId, startsAt, reason: 'Control' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return appointmentSchema.parse(response.json());
}

async function emailsOf(to: string, template: string) {
  return context.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.template, template)));
}

async function notificationsOf(session: string, query = '') {
  const response = await send(context.app, 'GET', `/api/v1/notifications${query}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return notificationPageSchema.parse(response.json());
}

function calendar(session: string, id: string) {
  return send(context.app, 'GET', `/api/v1/appointments/${id}/calendar.ics`, { session });
}

const unfold = (text: string): string[] => text.replaceAll('\r\n ', '').split('\r\n');

describe('appointment emails and calendar files', () => {
  it('sends the booking in each recipient’s language, with the invitation attached', async () => {
    const { patient, doctor, doctorId } = await setUp();
    const sent: OutgoingEmail[] = [];
    const spy = vi.spyOn(context.app.services.mailer, 'store').mockImplementation((_db, message) => {
      sent.push(message);
      return Promise.resolve({ id: 'spied', deliver: () => undefined });
    });
    let appointment: { id: string };
    try {
      appointment = await book(patient.token, doctorId, '2026-03-27T08:00:00Z');
    } finally {
      spy.mockRestore();
    }
    expect(sent.map((message) => [message.to, message.template, message.language])).toEqual([
      [patient.me.user.email, 'appointment-booked', 'es'],
      [doctor.me.user.email, 'appointment-booked', 'en'],
    ]);
    const [toPatient, toDoctor] = sent;
    expect(toPatient?.subject).toContain('Cita confirmada');
    // The time in the recipient's zone, the zone in words in their language, never its IANA id.
    expect(toPatient?.text).toContain('viernes, 27 de marzo de 2026, 2:00 (hora de Ciudad de México)');
    expect(toPatient?.html).toContain('2:00 (hora de Ciudad de México)');
    expect(toDoctor?.subject).toContain('Appointment confirmed');
    expect(toDoctor?.text).toContain('Friday, March 27, 2026 at 9:00 AM (Madrid time)');
    for (const message of sent) {
      expect(`${message.subject}${message.text}${message.html}`).not.toContain('America/Mexico_City');
    }
    const attachment = toPatient?.attachments?.[0];
    expect(attachment?.contentType).toContain('text/calendar');
    expect(unfold(attachment?.content ?? '')).toContain('DTSTART:20260327T080000Z');
    // The absolute time is UTC; the description says it to a person, in their zone and words.
    const descriptionOf = (message: OutgoingEmail | undefined) =>
      unfold(message?.attachments?.[0]?.content ?? '').find((line) => line.startsWith('DESCRIPTION:'));
    expect(descriptionOf(toPatient)).toContain(
      escapeIcsText('viernes, 27 de marzo de 2026, 2:00 (hora de Ciudad de México)'),
    );
    expect(descriptionOf(toDoctor)).toContain(
      escapeIcsText('Friday, March 27, 2026 at 9:00 AM (Madrid time)'),
    );
    // Each reader is linked to the frame they use: the patient to the portal, the doctor to
    // the admin area — in the email and in its calendar file.
    const locationOf = (message: OutgoingEmail | undefined) =>
      unfold(message?.attachments?.[0]?.content ?? '').find((line) => line.startsWith('LOCATION:'));
    expect(toPatient?.text).toContain(`/portal/appointments/${appointment.id}`);
    expect(`${toPatient?.text}${toPatient?.html}`).not.toContain('/admin/');
    expect(locationOf(toPatient)).toBe(`LOCATION:${testAppOrigin}/portal/appointments/${appointment.id}`);
    expect(toDoctor?.text).toContain(`/admin/appointments/${appointment.id}`);
    expect(`${toDoctor?.text}${toDoctor?.html}`).not.toContain('/portal/');
    expect(locationOf(toDoctor)).toBe(`LOCATION:${testAppOrigin}/admin/appointments/${appointment.id}`);
  });

  it('stores booking, change and cancellation emails; the reason reaches only the patient', async () => {
    const { patient, doctor, doctorId } = await setUp();
    const appointment = await book(patient.token, doctorId, '2026-03-27T09:00:00Z');
    expect(await emailsOf(patient.me.user.email, 'appointment-booked')).toHaveLength(1);
    expect(await emailsOf(doctor.me.user.email, 'appointment-booked')).toHaveLength(1);

    const moved = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/reschedule`, {
      session: doctor.token,
      body: { startsAt: '2026-03-27T10:00:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const [change] = await emailsOf(patient.me.user.email, 'appointment-rescheduled');
    expect(change?.text).toMatch(/10:00.*11:00|del .* al /s);

    const cancelled = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: doctor.token,
      body: { reason: 'Congreso médico' },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [toPatient] = await emailsOf(patient.me.user.email, 'appointment-cancelled');
    const [toDoctor] = await emailsOf(doctor.me.user.email, 'appointment-cancelled');
    expect(toPatient?.text).toContain('cancelada por el médico');
    expect(toPatient?.text).toContain('Motivo: Congreso médico');
    expect(toDoctor?.text).toContain('cancelled by you');
    expect(toDoctor?.text).not.toContain('Congreso');
  });

  it('serves the calendar file to the participants only, following changes', async () => {
    const { patient, doctor, doctorId } = await setUp();
    const stranger = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const appointment = await book(patient.token, doctorId, '2026-03-27T11:00:00Z');

    const response = await calendar(patient.token, appointment.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="cita-.*\.ics"$/);
    const lines = unfold(response.body);
    expect(lines).toContain(`UID:${appointment.id}@app.test`);
    expect(lines).toContain('METHOD:REQUEST');
    expect(lines).toContain('STATUS:CONFIRMED');
    expect(lines).toContain('DTSTART:20260327T110000Z');
    expect(lines).toContain('DTEND:20260327T113000Z');
    expect(lines.find((line) => line.startsWith('SUMMARY:'))).toMatch(
      /^SUMMARY:Cita en .*Ana\\; Pérez\\, hija/,
    );
    // The patient's file links to their portal; the doctor's below to the admin area.
    expect(lines).toContain(`LOCATION:${testAppOrigin}/portal/appointments/${appointment.id}`);
    const sequence0 = Number(lines.find((line) => line.startsWith('SEQUENCE:'))?.slice(9));

    // The reader's own zone, named in words: the patient lives in Mexico City, the doctor in Madrid.
    expect(lines.find((line) => line.startsWith('DESCRIPTION:'))).toContain(
      escapeIcsText('viernes, 27 de marzo de 2026, 5:00 (hora de Ciudad de México)'),
    );
    const inEnglish = unfold((await calendar(doctor.token, appointment.id)).body);
    expect(inEnglish.find((line) => line.startsWith('SUMMARY:'))).toMatch(/^SUMMARY:Appointment at /);
    expect(inEnglish.find((line) => line.startsWith('DESCRIPTION:'))).toContain(
      escapeIcsText('Friday, March 27, 2026 at 12:00 PM (Madrid time)'),
    );
    expect(inEnglish).toContain(`LOCATION:${testAppOrigin}/admin/appointments/${appointment.id}`);
    expect(`${lines.join('')}${inEnglish.join('')}`).not.toMatch(/America\/|Europe\//);

    expect((await calendar(stranger.token, appointment.id)).statusCode).toBe(404);
    expect((await calendar(patient.token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await calendar(patient.token, 'not-an-id')).statusCode).toBe(404);
    expect(
      (await send(context.app, 'GET', `/api/v1/appointments/${appointment.id}/calendar.ics`)).statusCode,
    ).toBe(401);

    clock.set('2026-03-25T10:05:00Z');
    const moved = await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/reschedule`, {
      session: doctor.token,
      body: { startsAt: '2026-03-27T11:30:00Z' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const afterMove = unfold((await calendar(patient.token, appointment.id)).body);
    expect(afterMove).toContain('DTSTART:20260327T113000Z');
    const sequence1 = Number(afterMove.find((line) => line.startsWith('SEQUENCE:'))?.slice(9));
    expect(sequence1).toBeGreaterThan(sequence0);

    clock.set('2026-03-25T10:10:00Z');
    await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: patient.token,
      body: {},
    });
    const afterCancel = unfold((await calendar(patient.token, appointment.id)).body);
    expect(afterCancel).toContain('METHOD:CANCEL');
    expect(afterCancel).toContain('STATUS:CANCELLED');
    expect(Number(afterCancel.find((line) => line.startsWith('SEQUENCE:'))?.slice(9))).toBeGreaterThan(
      sequence1,
    );
    clock.set('2026-03-25T10:00:00Z');
  });
});

describe('in-app notifications', () => {
  it('pushes notification.created to the recipient’s room', async () => {
    const { patient, doctorId } = await setUp();
    const socket = connect(`http://127.0.0.1:${port}`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { origin: testAppOrigin, cookie: `tm_session=${patient.token}` },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const received = new Promise<Notification>((resolve) => {
        socket.once('notification.created', (payload: unknown) => resolve(notificationSchema.parse(payload)));
      });
      const appointment = await book(patient.token, doctorId, '2026-03-28T08:00:00Z');
      const notification = await received;
      expect(notification).toMatchObject({
        kind: 'appointment.booked',
        readAt: null,
        data: { appointmentId: appointment.id, startsAt: '2026-03-28T08:00:00.000Z' },
      });
    } finally {
      socket.disconnect();
    }
  });

  it('lists one’s own notifications with the unread count and marks them read', async () => {
    const { patient, doctor, doctorId } = await setUp();
    const other = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const appointment = await book(patient.token, doctorId, '2026-03-28T09:00:00Z');
    await send(context.app, 'POST', `/api/v1/appointments/${appointment.id}/cancel`, {
      session: doctor.token,
      body: { reason: 'Agenda' },
    });

    const page = await notificationsOf(patient.token);
    expect(page.total).toBe(2);
    expect(page.unreadCount).toBe(2);
    expect(page.data.map((row) => row.kind).sort()).toEqual(['appointment.booked', 'appointment.cancelled']);
    expect(JSON.stringify(page.data)).not.toContain('Agenda');
    expect((await notificationsOf(doctor.token)).total).toBe(2);
    expect((await notificationsOf(other.token)).total).toBe(0);
    expect((await notificationsOf(patient.token, '?page=2&pageSize=1')).data).toHaveLength(1);
    expect(
      (await send(context.app, 'GET', '/api/v1/notifications?pageSize=500', { session: patient.token }))
        .statusCode,
    ).toBe(400);

    const first = page.data[0];
    if (first === undefined) {
      throw new Error('no notification');
    }
    const foreign = await send(context.app, 'POST', `/api/v1/notifications/${first.id}/read`, {
      session: other.token,
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await send(context.app, 'POST', '/api/v1/notifications/nope/read', { session: patient.token }))
        .statusCode,
    ).toBe(404);

    const read = await send(context.app, 'POST', `/api/v1/notifications/${first.id}/read`, {
      session: patient.token,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(notificationSchema.parse(read.json()).readAt).not.toBeNull();
    expect((await notificationsOf(patient.token)).unreadCount).toBe(1);
    expect(
      (await notificationsOf(patient.token, '?unreadOnly=true')).data.map((row) => row.id),
    ).not.toContain(first.id);

    const all = await send(context.app, 'POST', '/api/v1/notifications/read-all', { session: patient.token });
    expect(all.json()).toEqual({ updated: 1, unreadCount: 0 });
    expect((await notificationsOf(doctor.token)).unreadCount).toBe(2);
    expect((await send(context.app, 'GET', '/api/v1/notifications')).statusCode).toBe(401);
  });
});
