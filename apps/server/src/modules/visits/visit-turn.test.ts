import { createHmac } from 'node:crypto';
import type { GuestInvite, VisitState } from '@telemedicina/shared/visits';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TurnConfig } from '../../config/config.js';
import { createClock, createDoctor } from '../../test/booking-fixtures.js';
import { createUser, send, signIn } from '../../test/factories.js';
import { createTestContext, parseSetCookie, type TestContext } from '../../test/test-context.js';
import {
  ask,
  closeVisitSockets,
  createVisit,
  openVisitSocket,
  sessionCookie,
} from '../../test/visit-fixtures.js';

/** Server-issued TURN credentials in the visit state: to each participant their own, to nobody else. */

const clock = createClock('2026-06-15T10:00:00.000Z');
const turn: TurnConfig = {
  secret: 'test-turn-secret-0123456789',
  urls: ['turn:turn.example.org:3478?transport=udp'],
  ttlSeconds: 600,
};
const clinicStun = { urls: ['stun:stun.example.org:3478'] };
let context: TestContext;
let port: number;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now, config: { turn, iceServers: [clinicStun] } });
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

const nowSeconds = () => clock.now().getTime() / 1000;

/** The TURN entry of a state, checked against the secret the way coturn checks it. */
function turnEntryOf(state: VisitState): { username: string; credential: string } {
  const entries = state.iceServers.filter((server) => server.urls.some((url) => url.startsWith('turn:')));
  expect(entries).toHaveLength(1);
  const [entry] = entries;
  expect(entry!.urls).toEqual(turn.urls);
  const username = entry!.username ?? '';
  expect(entry!.credential).toBe(createHmac('sha1', turn.secret).update(username).digest('base64'));
  return { username, credential: entry!.credential ?? '' };
}

function hasNoTurn(state: VisitState): void {
  expect(JSON.stringify(state)).not.toContain('turn:');
  expect(state.iceServers).toEqual([clinicStun]);
  expect(state.iceServersTtlSeconds).toBeNull();
}

describe('TURN credentials in the visit state', () => {
  it('gives the doctor and the patient their own, expiring TTL seconds from now, after the clinic servers', async () => {
    clock.set('2026-06-15T10:00:00.000Z');
    const visit = await createVisit(context.app, { startsAt: clock.now() });
    const url = `/api/v1/visits/${visit.appointmentId}`;
    const asPatient = (
      await send(context.app, 'GET', url, { session: visit.patientSession.token })
    ).json<VisitState>();
    const asDoctor = (
      await send(context.app, 'GET', url, { session: visit.doctorSession.token })
    ).json<VisitState>();
    expect(asPatient.iceServers[0]).toEqual(clinicStun);
    const patientTurn = turnEntryOf(asPatient);
    const doctorTurn = turnEntryOf(asDoctor);
    expect(patientTurn.username).toBe(`${nowSeconds() + 600}:user-${visit.patient.id}`);
    expect(doctorTurn.username).toBe(`${nowSeconds() + 600}:user-${visit.doctor.id}`);
    expect(patientTurn.credential).not.toBe(doctorTurn.credential);
    expect(asPatient.iceServersTtlSeconds).toBe(600);

    // Asked again later (the page renews before the expiry): fresh credentials, a later expiry.
    clock.set('2026-06-15T10:08:00.000Z');
    const renewed = (
      await send(context.app, 'GET', url, { session: visit.patientSession.token })
    ).json<VisitState>();
    expect(turnEntryOf(renewed).username).toBe(`${nowSeconds() + 600}:user-${visit.patient.id}`);
    expect(renewed.iceServersTtlSeconds).toBe(600);
    clock.set('2026-06-15T10:00:00.000Z');
  });

  it('gives none to staff who only look, and nothing at all to outsiders and anonymous callers', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now() });
    const url = `/api/v1/visits/${visit.appointmentId}`;
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    const asStaff = await send(context.app, 'GET', url, { session: staff.token });
    expect(asStaff.statusCode).toBe(200);
    hasNoTurn(asStaff.json<VisitState>());

    const outsiders = [
      await signIn(context.app, await createUser(context.app, { roles: ['patient'] })),
      await signIn(context.app, await createDoctor(context.app)),
    ];
    for (const outsider of outsiders) {
      const answer = await send(context.app, 'GET', url, { session: outsider.token });
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain('turn:');
      const socket = await openVisitSocket(port, sessionCookie(outsider));
      const joined = await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
      expect(joined).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      expect(JSON.stringify(joined)).not.toContain('turn:');
    }
    const anonymous = await send(context.app, 'GET', url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain('turn:');
  });

  it('gives a guest of the visit their own, waiting or admitted, over REST and in the join acknowledgement', async () => {
    const visit = await createVisit(context.app, { startsAt: clock.now(), status: 'in_progress' });
    const created = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
      session: visit.doctorSession.token,
      body: { name: 'Intérprete', role: 'interpreter', language: 'en' },
    });
    expect(created.statusCode).toBe(201);
    const invite = created.json<GuestInvite>();
    const redeemed = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', {
      body: { token: invite.url?.split('#')[1] ?? '' },
    });
    const cookie = `tm_guest=${parseSetCookie(redeemed.headers['set-cookie']).get('tm_guest')?.value ?? ''}`;
    const current = await context.app.inject({
      method: 'GET',
      url: '/api/v1/visit-guests/current',
      headers: { cookie },
    });
    const waiting = current.json<VisitState>();
    expect(waiting.phase).toBe('waiting');
    expect(turnEntryOf(waiting).username).toBe(`${nowSeconds() + 600}:guest-${invite.id}`);

    const socket = await openVisitSocket(port, cookie);
    const joined = await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    expect(joined.ok).toBe(true);
    if (joined.ok) {
      expect(turnEntryOf(joined.data.state).username).toBe(`${nowSeconds() + 600}:guest-${invite.id}`);
    }
  });
});
