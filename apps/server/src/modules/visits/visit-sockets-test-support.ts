import type { GuestInvite } from '@telemedicina/shared/visits';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createClock } from '../../test/booking-fixtures.js';
import { send } from '../../test/factories.js';
import { createTestContext, parseSetCookie, type TestContext } from '../../test/test-context.js';
import {
  ask,
  closeVisitSockets,
  createVisit,
  openVisitSocket,
  sessionCookie,
  type TestVisit,
  type VisitClientSocket,
} from '../../test/visit-fixtures.js';

/** What the visit socket test files share: a listening app, a clock, a call in progress, a redeemed guest. */
export const clock = createClock('2026-06-15T10:00:00.000Z');
const minute = 60_000;
let context: TestContext;
let port: number;

export const inMinutes = (minutes: number): Date => new Date(clock.now().getTime() + minutes * minute);

/** Registers the hooks: one listening app per test file, its sockets closed after each test. */
export function setUpVisitSockets(): void {
  beforeAll(async () => {
    context = await createTestContext({ now: clock.now });
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    const address = context.app.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });

  afterEach(() => {
    closeVisitSockets();
  });

  afterAll(async () => {
    await context?.close();
  });
}

/** The app and the port it listens on, once the first hook has run. */
export function socketTestApp(): { context: TestContext; port: number } {
  return { context, port };
}

/** A visit in progress with the doctor and the patient both in the call. */
export async function callInProgress(): Promise<{
  visit: TestVisit;
  doctor: VisitClientSocket;
  patient: VisitClientSocket;
}> {
  const visit = await createVisit(context.app, { startsAt: inMinutes(0), status: 'in_progress' });
  const doctor = await openVisitSocket(port, sessionCookie(visit.doctorSession));
  const patient = await openVisitSocket(port, sessionCookie(visit.patientSession));
  expect(await ask(doctor, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject({
    ok: true,
    data: { inCall: true },
  });
  expect(await ask(patient, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject({
    ok: true,
    data: { inCall: true, participants: [{ key: `user:${visit.doctor.id}`, role: 'doctor' }] },
  });
  return { visit, doctor, patient };
}

export async function inviteAndRedeem(
  visit: TestVisit,
  options: { expiresInMinutes?: number } = {},
): Promise<{ invite: GuestInvite; token: string; cookie: string }> {
  const created = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
    session: visit.doctorSession.token,
    body: { name: 'Intérprete Invitada', role: 'interpreter', language: 'en', ...options },
  });
  expect(created.statusCode).toBe(201);
  const invite = created.json<GuestInvite>();
  const token = invite.url?.split('#')[1] ?? '';
  const redeemed = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', { body: { token } });
  expect(redeemed.statusCode).toBe(200);
  const cookie = parseSetCookie(redeemed.headers['set-cookie']).get('tm_guest');
  expect(cookie?.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/']));
  return { invite, token, cookie: `tm_guest=${cookie?.value ?? ''}` };
}
