import { systemRoles, type Permission, type SystemRoleKey } from '@telemedicina/shared/permission-catalogue';
import type { GuestInvite } from '@telemedicina/shared/visits';
import { count, inArray } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitMessages } from '../db/schema.js';
import { createClock, createDoctor } from '../test/booking-fixtures.js';
import { createUser, send, signIn } from '../test/factories.js';
import { createTestContext, parseSetCookie, testAppOrigin, type TestContext } from '../test/test-context.js';
import {
  ask,
  createVisit,
  openVisitSocket,
  sessionCookie,
  settle,
  type TestVisit,
  type VisitClientSocket,
} from '../test/visit-fixtures.js';
import {
  eventNames,
  fixtures,
  malformedPayloads,
  type Fixture,
  type Targets,
} from './event-access-matrix-test-fixture.js';

/**
 * The real-time authorisation matrix: every client → server event of the
 * shared event map × every caller who has no business in the visits under
 * attack (no session, each seeded role, the patient of another visit, a guest
 * of another visit, a revoked guest). Each attempt must be refused (error
 * acknowledgement, or the connection refused at the handshake) and have no
 * effect: no chat message stored, no visit room joined, nothing delivered to
 * the real participants, who listen throughout. Then every event with
 * malformed payloads: an error acknowledgement, and the server keeps serving.
 *
 * A new event must get a fixture (event-access-matrix-test-fixture.ts, typed
 * as a record over the event map), and the test compares it with the events
 * the server really registers on a connection.
 */

const clock = createClock('2026-06-15T10:00:00.000Z');
let context: TestContext;
let port: number;

type Caller = { name: string; permissions: readonly Permission[] } & (
  { kind: 'none' } | { kind: 'cookie'; cookie: string; handshake: 'accepted' | 'refused' }
);

let targets: Targets;
/** The four real participants, listening for everything. */
let listeners: { name: string; socket: VisitClientSocket; received: string[] }[];

const roleKeys = Object.keys(systemRoles) as SystemRoleKey[];
/** Every kind of caller, named before the suite runs; their cookies are made in beforeAll. */
const callerNames = [
  'no session',
  'a forged session cookie',
  ...roleKeys.map((role) => `an unrelated ${role}`),
  'the patient of another visit',
  'the doctor of another visit',
  'a guest of another visit',
  'a revoked guest of the visit',
];
const callers = new Map<string, Caller>();
const addCaller = (caller: Caller): void => {
  callers.set(caller.name, caller);
};

const inMinutes = (minutes: number): Date => new Date(clock.now().getTime() + minutes * 60_000);

async function inviteGuest(visit: TestVisit): Promise<{ invite: GuestInvite; cookie: string }> {
  const created = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
    session: visit.doctorSession.token,
    body: { name: 'Invitada Matriz', role: 'interpreter', language: 'es' },
  });
  expect(created.statusCode).toBe(201);
  const invite = created.json<GuestInvite>();
  const redeemed = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', {
    body: { token: invite.url?.split('#')[1] ?? '' },
  });
  expect(redeemed.statusCode).toBe(200);
  return {
    invite,
    cookie: `tm_guest=${parseSetCookie(redeemed.headers['set-cookie']).get('tm_guest')?.value ?? ''}`,
  };
}

async function messageCount(): Promise<number> {
  const [row] = await context.db
    .select({ total: count() })
    .from(visitMessages)
    .where(inArray(visitMessages.appointmentId, [targets.call.appointmentId, targets.waiting.appointmentId]));
  return row?.total ?? 0;
}

/** The rooms a connection is in on the server, besides its own identity rooms. */
function visitRoomsOf(socketId: string | undefined): string[] {
  const server = context.app.realtime.io.of('/').sockets.get(socketId ?? '');
  if (server === undefined) {
    return [];
  }
  return [...server.rooms].filter(
    (room) =>
      room !== socketId &&
      !room.startsWith('user:') &&
      !room.startsWith('session:') &&
      !room.startsWith('guest:'),
  );
}

/** Connects without throwing: the socket, or the handshake's refusal code. */
function tryConnect(
  cookie: string | null,
): Promise<{ socket: VisitClientSocket | null; refusal: string | null }> {
  const socket: VisitClientSocket = connect(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 20_000,
    extraHeaders: { origin: testAppOrigin, ...(cookie === null ? {} : { cookie }) },
  });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, refusal: null }));
    socket.once('connect_error', (error) => {
      socket.close();
      resolve({ socket: null, refusal: error.message });
    });
  });
}

function emitWithAck(socket: VisitClientSocket, event: string, payload: unknown): Promise<unknown> {
  return (
    socket.timeout(5_000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<unknown> }
  ).emitWithAck(event, payload);
}

/** Legitimate traffic in both visits, which an outsider must not receive. */
async function participantTraffic(): Promise<void> {
  const [doctor, patient, waitingDoctor] = listeners.map((listener) => listener.socket);
  expect(
    await ask(patient!, 'chat.send', {
      appointmentId: targets.call.appointmentId,
      clientId: `legit-${Math.random()}`,
      body: 'Hola doctora',
    }),
  ).toMatchObject({ ok: true });
  expect(
    await ask(doctor!, 'visit.signal', {
      appointmentId: targets.call.appointmentId,
      to: `user:${targets.call.patient.id}`,
      description: { type: 'offer', sdp: 'v=0 legit' },
    }),
  ).toEqual({ ok: true, data: null });
  expect(
    await ask(waitingDoctor!, 'waitingRoom.message', {
      appointmentId: targets.waiting.appointmentId,
      text: 'Enseguida le atiendo',
    }),
  ).toEqual({ ok: true, data: null });
  await settle();
  for (const listener of listeners) {
    listener.received.length = 0;
  }
}

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;

  const call = await createVisit(context.app, { startsAt: inMinutes(0), status: 'in_progress' });
  const waiting = await createVisit(context.app, { startsAt: inMinutes(0), status: 'checked_in' });
  targets = { call, waiting };
  const sockets = {
    callDoctor: await openVisitSocket(port, sessionCookie(call.doctorSession)),
    callPatient: await openVisitSocket(port, sessionCookie(call.patientSession)),
    waitingDoctor: await openVisitSocket(port, sessionCookie(waiting.doctorSession)),
    waitingPatient: await openVisitSocket(port, sessionCookie(waiting.patientSession)),
  };
  expect(
    await ask(sockets.callDoctor, 'visit.join', { appointmentId: call.appointmentId, lastSeq: 0 }),
  ).toMatchObject({ ok: true, data: { inCall: true } });
  expect(
    await ask(sockets.callPatient, 'visit.join', { appointmentId: call.appointmentId, lastSeq: 0 }),
  ).toMatchObject({ ok: true, data: { inCall: true } });
  expect(
    await ask(sockets.waitingPatient, 'visit.join', { appointmentId: waiting.appointmentId, lastSeq: 0 }),
  ).toMatchObject({ ok: true, data: { inCall: false } });
  expect(
    await ask(sockets.waitingDoctor, 'waitingRoom.watch', { doctorId: waiting.doctor.id }),
  ).toMatchObject({
    ok: true,
  });
  listeners = Object.entries(sockets).map(([name, socket]) => {
    const received: string[] = [];
    socket.onAny((event: string) => received.push(event));
    return { name, socket, received };
  });

  // The callers: nobody, each role without relation, the patient of another visit, guests.
  addCaller({ name: 'no session', kind: 'none', permissions: [] });
  addCaller({
    name: 'a forged session cookie',
    kind: 'cookie',
    cookie: 'tm_session=forged-session-token-0123456789abcdef',
    handshake: 'refused',
    permissions: [],
  });
  for (const role of roleKeys) {
    const user =
      role === 'doctor' ? await createDoctor(context.app) : await createUser(context.app, { roles: [role] });
    const session = await signIn(context.app, user);
    addCaller({
      name: `an unrelated ${role}`,
      kind: 'cookie',
      cookie: sessionCookie(session),
      handshake: 'accepted',
      permissions: systemRoles[role].permissions,
    });
  }
  const other = await createVisit(context.app, { startsAt: inMinutes(0), status: 'in_progress' });
  addCaller({
    name: 'the patient of another visit',
    kind: 'cookie',
    cookie: sessionCookie(other.patientSession),
    handshake: 'accepted',
    permissions: systemRoles.patient.permissions,
  });
  addCaller({
    name: 'the doctor of another visit',
    kind: 'cookie',
    cookie: sessionCookie(other.doctorSession),
    handshake: 'accepted',
    permissions: systemRoles.doctor.permissions,
  });
  const otherGuest = await inviteGuest(other);
  addCaller({
    name: 'a guest of another visit',
    kind: 'cookie',
    cookie: otherGuest.cookie,
    handshake: 'accepted',
    permissions: [],
  });
  const revoked = await inviteGuest(call);
  const revocation = await send(
    context.app,
    'DELETE',
    `/api/v1/visits/${call.appointmentId}/guests/${revoked.invite.id}`,
    { session: call.doctorSession.token },
  );
  expect(revocation.statusCode).toBe(204);
  addCaller({
    name: 'a revoked guest of the visit',
    kind: 'cookie',
    cookie: revoked.cookie,
    handshake: 'refused',
    permissions: [],
  });
  await participantTraffic();
});

afterAll(async () => {
  for (const listener of listeners ?? []) {
    listener.socket.disconnect();
  }
  await context?.close();
});

describe('real-time event authorization matrix', () => {
  it('has a fixture for every event the server handles, and nothing else', async () => {
    const { socket } = await tryConnect(sessionCookie(targets.call.patientSession));
    try {
      const server = context.app.realtime.io.of('/').sockets.get(socket?.id ?? '');
      expect(server).toBeDefined();
      const reserved = new Set(['disconnect', 'disconnecting', 'error', 'newListener', 'removeListener']);
      const handled = server!
        .eventNames()
        .map(String)
        .filter((name) => !reserved.has(name))
        .sort();
      expect(handled.length).toBeGreaterThanOrEqual(9);
      expect(handled).toEqual([...eventNames].sort());
    } finally {
      socket?.disconnect();
    }
  });

  it.each(callerNames)('%s: every event refused, without effect', async (name) => {
    const caller = callers.get(name);
    expect(caller, `caller ${name} was set up`).toBeDefined();
    const { socket, refusal } = await tryConnect(caller!.kind === 'none' ? null : caller!.cookie);
    const expectsRefusal = caller!.kind === 'none' || caller!.handshake === 'refused';
    if (expectsRefusal) {
      // Refused at the handshake: no event can reach a handler.
      expect(socket, caller!.name).toBeNull();
      expect(['UNAUTHENTICATED', 'SESSION_EXPIRED'], caller!.name).toContain(refusal);
      return;
    }
    expect(refusal, caller!.name).toBeNull();
    const attacker = socket!;
    const leaked: string[] = [];
    attacker.onAny((event: string) => leaked.push(event));
    const before = await messageCount();
    const problems: string[] = [];
    const allowedRooms = new Set<string>();
    try {
      for (const event of eventNames) {
        const fixture: Fixture = fixtures[event];
        const isAllowed =
          fixture.allowedWith?.some((permission) => caller!.permissions.includes(permission)) ?? false;
        if (isAllowed) {
          for (const room of fixture.allowedRooms?.(targets) ?? []) {
            allowedRooms.add(room);
          }
        }
        for (const payload of fixture.payloads(targets)) {
          const answer = (await emitWithAck(attacker, event, payload)) as {
            ok: boolean;
            error?: { code: string };
          };
          const label = `${caller!.name} ${event} ${JSON.stringify(payload).slice(0, 80)}`;
          if (fixture.outsider === 'open' || isAllowed) {
            if (answer.ok !== true) {
              problems.push(`${label}: expected ok, got ${JSON.stringify(answer)}`);
            }
          } else if (fixture.outsider === 'harmless') {
            if (answer.ok === true && (answer as { data?: unknown }).data !== null) {
              problems.push(`${label}: expected a no-op, got ${JSON.stringify(answer)}`);
            }
          } else if (answer.ok !== false || !['NOT_FOUND', 'FORBIDDEN'].includes(answer.error?.code ?? '')) {
            problems.push(`${label}: expected NOT_FOUND/FORBIDDEN, got ${JSON.stringify(answer)}`);
          }
        }
      }
      await settle(200);
      // No effect: nothing stored, nothing delivered, no visit room joined.
      expect(await messageCount(), caller!.name).toBe(before);
      for (const listener of listeners) {
        expect(listener.received, `${caller!.name} → ${listener.name}`).toEqual([]);
      }
      expect(
        visitRoomsOf(attacker.id).filter((room) => !allowedRooms.has(room)),
        caller!.name,
      ).toEqual([]);
      expect(problems).toEqual([]);
      // And the visits' own traffic does not reach them.
      await participantTraffic();
      expect(leaked, caller!.name).toEqual([]);
    } finally {
      attacker.disconnect();
    }
  });

  it('set up every kind of caller it names', () => {
    expect([...callers.keys()].sort()).toEqual([...callerNames].sort());
  });
});

describe('real-time events with malformed payloads', () => {
  it.each(eventNames)('%s answers VALIDATION_FAILED to each, and the server keeps serving', async (event) => {
    // A participant of the visit: the payload check, not the authorisation, must refuse these.
    const { socket } = await tryConnect(sessionCookie(targets.call.doctorSession));
    expect(socket).not.toBeNull();
    try {
      const before = await messageCount();
      for (const [label, payload] of malformedPayloads(targets)) {
        const answer = (await emitWithAck(socket!, event, payload)) as {
          ok: boolean;
          error?: { code: string };
        };
        expect(answer, `${event} with ${label}`).toMatchObject({
          ok: false,
          error: { code: 'VALIDATION_FAILED' },
        });
      }
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(await messageCount()).toBe(before);
      expect(await ask(socket!, 'system.ping', { nonce: event })).toMatchObject({
        ok: true,
        data: { nonce: event },
      });
    } finally {
      socket?.disconnect();
    }
  });

  it('drops a connection whose message exceeds the size limit, and keeps serving the others', async () => {
    const { socket } = await tryConnect(sessionCookie(targets.call.doctorSession));
    expect(socket).not.toBeNull();
    const closed = new Promise<string>((resolve) => socket!.once('disconnect', (reason) => resolve(reason)));
    (socket as unknown as { emit(event: string, payload: unknown): void }).emit('chat.send', {
      appointmentId: targets.call.appointmentId,
      clientId: 'too-big',
      body: 'x'.repeat(2_000_000),
    });
    expect(await closed).toMatch(/transport (close|error)/);
    const { socket: next } = await tryConnect(sessionCookie(targets.call.patientSession));
    try {
      expect(await ask(next!, 'system.ping', { nonce: 'still-here' })).toMatchObject({ ok: true });
      expect((await context.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
    } finally {
      next?.disconnect();
    }
  });
});
