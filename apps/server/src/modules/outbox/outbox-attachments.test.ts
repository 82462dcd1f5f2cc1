import { errorResponseSchema } from '@telemedicina/shared/api';
import { outboxMessageSchema } from '@telemedicina/shared/auth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock, createDoctor, everyDay, type TestDoctor } from '../../test/booking-fixtures.js';
import { emailOutbox } from '../../db/schema.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  latestEmail,
  send,
  signIn,
  type SignedInClient,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { contentDisposition, safeContentType } from './outbox.service.js';

// Wednesday 2026-03-25 10:00 UTC; the doctor (Madrid, UTC+1) sees patients 09:00–13:00 every day.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let admin: SignedInClient;
let doctor: TestDoctor;
let patient: SignedInClient;
let confirmationId: string;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  doctor = await createDoctor(context.app, { rules: everyDay('09:00', '13:00') });
  patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
  const booked = await send(context.app, 'POST', '/api/v1/appointments', {
    session: patient.token,
    body: { doctorId: doctor.id, startsAt: '2026-03-27T08:30:00Z', reason: 'Control' },
  });
  expect(booked.statusCode, booked.body).toBe(201);
  const email = await latestEmail(context.app, patient.me.user.email, 'appointment-booked');
  expect(email).not.toBeNull();
  confirmationId = email!.id;
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

describe('outbox attachments', () => {
  it('lists the booking confirmation’s calendar file with its size, without its content', async () => {
    const response = await send(context.app, 'GET', `/api/v1/outbox/${confirmationId}`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(200);
    const message = outboxMessageSchema.parse(response.json());
    expect(message.attachments).toHaveLength(1);
    const [ics] = message.attachments;
    expect(ics?.filename).toMatch(/\.ics$/);
    expect(ics?.contentType).toMatch(/^text\/calendar/);
    expect(ics?.size).toBeGreaterThan(100);
    expect(response.body).not.toContain('content"');
  });

  it('answers the calendar file itself as a download with the visit’s start', async () => {
    const detail = outboxMessageSchema.parse(
      (await send(context.app, 'GET', `/api/v1/outbox/${confirmationId}`, { session: admin.token })).json(),
    );
    const response = await send(context.app, 'GET', `/api/v1/outbox/${confirmationId}/attachments/0`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/calendar/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="cita.ics"');
    expect(response.rawPayload.byteLength).toBe(detail.attachments[0]?.size);
    expect(response.body).toContain('BEGIN:VCALENDAR');
    expect(response.body).toContain('DTSTART:20260327T083000Z');
    expect(response.body).toContain('DTEND:20260327T090000Z');
  });

  it('stores an attachment for each participant: the doctor’s copy too', async () => {
    const email = await latestEmail(context.app, doctor.email, 'appointment-booked');
    expect(email?.attachments).toHaveLength(1);
    const content = Buffer.from(email!.attachments[0]!.content, 'base64').toString('utf8');
    expect(content).toContain('BEGIN:VCALENDAR');
    expect(content).toContain('DTSTART:20260327T083000Z');
  });

  it('answers 404 for a position past the end and for an unknown message', async () => {
    for (const url of [
      `/api/v1/outbox/${confirmationId}/attachments/1`,
      `/api/v1/outbox/${confirmationId}/attachments/9999`,
      '/api/v1/outbox/00000000-0000-4000-8000-000000000000/attachments/0',
      '/api/v1/outbox/not-a-uuid/attachments/0',
    ]) {
      const response = await send(context.app, 'GET', url, { session: admin.token });
      expect(response.statusCode, url).toBe(404);
      expect(codeOf(response)).toBe('NOT_FOUND');
    }
  });

  it('answers 400 for a position that is not a whole number', async () => {
    for (const index of ['abc', '-1', '1.5', '01', '1e3', '99999']) {
      const response = await send(
        context.app,
        'GET',
        `/api/v1/outbox/${confirmationId}/attachments/${index}`,
        {
          session: admin.token,
        },
      );
      expect(response.statusCode, index).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_FAILED');
    }
  });

  it('answers 403 without outbox.read and 401 without a session', async () => {
    const url = `/api/v1/outbox/${confirmationId}/attachments/0`;
    const forbidden = await send(context.app, 'GET', url, { session: patient.token });
    expect(forbidden.statusCode).toBe(403);
    expect(codeOf(forbidden)).toBe('FORBIDDEN');
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect((await send(context.app, 'GET', url, { session: staff.token })).statusCode).toBe(403);
    expect((await send(context.app, 'GET', url)).statusCode).toBe(401);
  });
});

describe('a clinical attachment (the visit summary PDF)', () => {
  let summaryId: string;
  let summarySize: number;

  beforeAll(async () => {
    const visit = await createAppointment(context.app, {
      doctorId: doctor.id,
      patientId: patient.me.user.id,
      startsAt: '2026-03-25T09:30:00Z',
      status: 'in_progress',
    });
    const doctorSession = (await signIn(context.app, doctor)).token;
    const note = `/api/v1/appointments/${visit.id}/note`;
    expect((await send(context.app, 'POST', note, { session: doctorSession })).statusCode).toBe(201);
    const saved = await send(context.app, 'PATCH', note, {
      session: doctorSession,
      body: { baseVersion: 1, plan: '<p>Amoxicilina 500 mg cada 8 horas</p>' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const signed = await send(context.app, 'POST', `${note}/sign`, {
      session: doctorSession,
      body: { baseVersion: saved.json<{ version: number }>().version },
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const email = await latestEmail(context.app, patient.me.user.email, 'visit-summary');
    summaryId = email!.id;
    const detail = outboxMessageSchema.parse(
      (await send(context.app, 'GET', `/api/v1/outbox/${summaryId}`, { session: admin.token })).json(),
    );
    summarySize = detail.attachments[0]?.size ?? 0;
  });

  it('answers an administrator 403 CLINICAL_ATTACHMENT_WITHHELD, without the bytes and without a reason asked', async () => {
    const before = (await auditEventsOf(context.app, 'record.exported')).length;
    const response = await send(context.app, 'GET', `/api/v1/outbox/${summaryId}/attachments/0`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('CLINICAL_ATTACHMENT_WITHHELD');
    expect(response.body).not.toContain('%PDF');
    expect((await auditEventsOf(context.app, 'record.exported')).length).toBe(before);
  });

  it('lists it by name, type and size, marked clinical; the outbox row keeps no bytes', async () => {
    const response = await send(context.app, 'GET', `/api/v1/outbox/${summaryId}`, { session: admin.token });
    const message = outboxMessageSchema.parse(response.json());
    expect(message.attachments).toEqual([
      {
        filename: expect.stringMatching(/\.pdf$/),
        contentType: 'application/pdf',
        size: summarySize,
        isClinical: true,
      },
    ]);
    expect(summarySize).toBeGreaterThan(1000);
    const [row] = await context.db.select().from(emailOutbox).where(eq(emailOutbox.id, summaryId));
    expect(row?.attachments[0]?.content).toBe('');
    expect(JSON.stringify(row)).not.toContain(Buffer.from('%PDF-').toString('base64').slice(0, 6));
  });

  it('refuses the bytes of a summary stored before attachments were marked clinical', async () => {
    const pdf = Buffer.from('%PDF-1.7 fecha de nacimiento, plan, recetas').toString('base64');
    const [legacy] = await context.db
      .insert(emailOutbox)
      .values({
        toAddress: patient.me.user.email,
        subject: 'Resumen de su consulta',
        html: '<p>Resumen</p>',
        text: 'Resumen',
        language: 'es',
        template: 'visit-summary',
        status: 'stored',
        attachments: [{ filename: 'resumen.pdf', contentType: 'application/pdf', content: pdf }],
        createdAt: clock.now(),
      })
      .returning();
    const response = await send(context.app, 'GET', `/api/v1/outbox/${legacy!.id}/attachments/0`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('CLINICAL_ATTACHMENT_WITHHELD');
    const detail = outboxMessageSchema.parse(
      (await send(context.app, 'GET', `/api/v1/outbox/${legacy!.id}`, { session: admin.token })).json(),
    );
    expect(detail.attachments[0]).toMatchObject({ isClinical: true, size: 43 });
  });
});

describe('download headers', () => {
  it('keeps a plain file name as it is', () => {
    expect(contentDisposition('cita.ics')).toBe('attachment; filename="cita.ics"');
  });

  it('strips quotes, paths, header breaks and non-ASCII, keeping the original in filename*', () => {
    expect(contentDisposition('../../etc/"passwd";.ics')).toBe(
      'attachment; filename="passwd.ics"; filename*=UTF-8\'\'%22passwd%22%3B.ics',
    );
    expect(contentDisposition('a\r\nSet-Cookie: x=1.ics')).not.toMatch(/[\r\n]/);
    expect(contentDisposition('cita médica.ics')).toBe(
      'attachment; filename="cita medica.ics"; filename*=UTF-8\'\'cita%20m%C3%A9dica.ics',
    );
    expect(contentDisposition('')).toBe('attachment; filename="attachment"');
    expect(contentDisposition('日本.pdf')).toBe(
      'attachment; filename="pdf"; filename*=UTF-8\'\'%E6%97%A5%E6%9C%AC.pdf',
    );
  });

  it('keeps a well-formed content type and neutralises anything else', () => {
    expect(safeContentType('text/calendar; charset=utf-8; method=REQUEST')).toBe(
      'text/calendar; charset=utf-8; method=REQUEST',
    );
    expect(safeContentType('text/html\r\nX-Evil: 1')).toBe('application/octet-stream');
    expect(safeContentType('nonsense')).toBe('application/octet-stream');
  });
});
