/**
 * Scale-out: two instances of the built server on one PostgreSQL
 * database and one Redis, behind a small round-robin HTTP + WebSocket proxy
 * (system/support/balancer.ts). Sessions, rate limits and real-time rooms
 * work across the instances, and stopping one (SIGTERM, then SIGKILL of the
 * other) loses no acknowledged chat message: the clients reconnect through
 * the proxy to the survivor and the history holds every acknowledged message
 * exactly once.
 */
import { randomInt } from 'node:crypto';
import type {
  ChatMessage,
  VisitJoinResult,
  VisitSignalDelivery,
  WaitingRoom,
} from '@telemedicina/shared/visits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoPassword } from '../e2e/support/demo-accounts.js';
import { AppProcess } from './support/app-process.js';
import { startBalancer, type Balancer } from './support/balancer.js';
import { ChatParticipant } from './support/chat.js';
import { freeSlots, prepareClinic, type Clinic } from './support/clinic.js';
import {
  ack,
  connected,
  HttpClient,
  nextEvent,
  openSocket,
  sleep,
  type VisitSocket,
} from './support/clients.js';
import { createScratchDatabase, type ScratchDatabase } from './support/postgres.js';

const redisServer = process.env.TEST_REDIS_URL?.trim() || 'redis://127.0.0.1:6379';
/** A random client address per run: Redis outlives runs, and rate limits are counted per address. */
const randomAddress = (): string => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

let database: ScratchDatabase;
let instanceA: AppProcess;
let instanceB: AppProcess;
let balancer: Balancer;
let clinic: Clinic;

beforeAll(async () => {
  database = await createScratchDatabase();
  // Keys and pub/sub channels of this run's own (REDIS_KEY_PREFIX): both instances share them,
  // other runs on the same Redis server neither see nor count them.
  const env = {
    REDIS_URL: redisServer,
    REDIS_KEY_PREFIX: `telemedicina-system-${process.pid}-${randomInt(1_000_000)}`,
    TRUST_PROXY: '127.0.0.1',
  };
  instanceA = await AppProcess.create({ databaseUrl: database.url, env, name: 'A' });
  instanceB = await AppProcess.create({ databaseUrl: database.url, env, name: 'B' });
  // Both at once: the migration lock and the seed lock let one of them do the work.
  await Promise.all([instanceA.start(), instanceB.start()]);
  balancer = await startBalancer(
    [
      { name: 'A', port: instanceA.port },
      { name: 'B', port: instanceB.port },
    ],
    { forwardedFor: randomAddress() },
  );
  clinic = await prepareClinic(balancer.url, database, { extraPatients: 0, extraHours: 4 });
});

afterAll(async () => {
  await balancer?.close();
  await instanceA?.dispose();
  await instanceB?.dispose();
  await database?.drop();
});

describe('two instances behind a round-robin proxy', () => {
  it('a session made through one instance works on the other (reads and XSRF-checked writes)', async () => {
    const client = new HttpClient(balancer.url);
    const signIn = await client.request('POST', '/auth/login', {
      email: 'paciente2@example.com',
      password: demoPassword,
    });
    expect(signIn.status).toBe(200);
    const signedInOn = signIn.headers.get('x-backend');
    const answers = [];
    for (let index = 0; index < 4; index += 1) {
      const me = await client.request<{ user: { email: string } }>('GET', '/me');
      answers.push({ status: me.status, email: me.body.user.email, backend: me.headers.get('x-backend') });
    }
    expect(answers.map(({ status, email }) => ({ status, email }))).toEqual(
      Array.from({ length: 4 }, () => ({ status: 200, email: 'paciente2@example.com' })),
    );
    expect(new Set(answers.map((answer) => answer.backend))).toEqual(new Set(['A', 'B']));
    // An unsafe (XSRF-checked) request, then the session is gone on both instances.
    const signOut = await client.request('POST', '/auth/logout');
    expect([200, 204]).toContain(signOut.status);
    const after = [await client.request('GET', '/me'), await client.request('GET', '/me')];
    expect(after.map((answer) => answer.status)).toEqual([401, 401]);
    expect(new Set(after.map((answer) => answer.headers.get('x-backend')))).toEqual(new Set(['A', 'B']));
    expect(signedInOn).not.toBeNull();
  });

  it('a rate limit is counted across both instances (through Redis)', async () => {
    // One client (its XSRF cookie fetched once), so its requests alternate between the instances.
    const client = new HttpClient(balancer.url);
    await client.request('GET', '/config');
    // Until an instance's Redis connection is up it does not count (skipOnError): wait for both.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      balancer.forwardedFor = randomAddress();
      const first = await client.request('POST', '/auth/password/forgot', { email: 'warmup@example.com' });
      const second = await client.request('POST', '/auth/password/forgot', { email: 'warmup@example.com' });
      if (
        first.headers.get('x-ratelimit-remaining') === '4' &&
        second.headers.get('x-ratelimit-remaining') === '3'
      ) {
        break;
      }
      await sleep(100);
    }
    balancer.forwardedFor = randomAddress();
    const answers = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const answer = await client.request<{ error?: { code: string } }>('POST', '/auth/password/forgot', {
        email: 'nadie@example.com',
      });
      answers.push({
        status: answer.status,
        backend: answer.headers.get('x-backend'),
        code: answer.body?.error?.code,
      });
    }
    // Five per address per 15 minutes (rateLimits.emailedLink), whichever instance answers.
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202, 429]);
    expect(answers[5]!.code).toBe('RATE_LIMITED');
    expect(new Set(answers.slice(0, 5).map((answer) => answer.backend))).toEqual(new Set(['A', 'B']));
  });

  it('real-time rooms span the instances: waiting-room presence, admission, chat and signalling', async () => {
    const [doctor] = clinic.doctors;
    const patient = clinic.patients[1]!;
    const slots = await freeSlots(
      patient.client,
      doctor!.id,
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 3_600_000),
    );
    const slot = slots.find((candidate) => Date.parse(candidate.startsAt) >= Date.now() - 1_000)!;
    const appointment = await patient.client.ok<{ id: string }>('POST', '/appointments', {
      doctorId: doctor!.id,
      startsAt: slot.startsAt,
      reason: 'Consulta entre instancias',
    });
    const appointmentId = appointment.id;
    await patient.client.ok('POST', `/visits/${appointmentId}/check-in`);

    const sockets: VisitSocket[] = [];
    try {
      const upgradesBefore = balancer.upgrades.length;
      const doctorSocket = openSocket(doctor!.client, balancer.url, { reconnect: false });
      sockets.push(doctorSocket);
      await connected(doctorSocket);
      const patientSocket = openSocket(patient.client, balancer.url, { reconnect: false });
      sockets.push(patientSocket);
      await connected(patientSocket);
      const [doctorOn, patientOn] = balancer.upgrades.slice(upgradesBefore).map((upgrade) => upgrade.backend);
      expect(doctorOn).toBeDefined();
      expect(patientOn).not.toBe(doctorOn);

      // The doctor follows the waiting room; the patient arrives on the other instance.
      const watched = await ack<'waitingRoom.watch', WaitingRoom>(doctorSocket, 'waitingRoom.watch', {
        doctorId: doctor!.id,
      });
      expect(watched.ok).toBe(true);
      const online = nextEvent(doctorSocket, 'waitingRoom.updated', (room) =>
        room.entries.some((entry) => entry.appointmentId === appointmentId && entry.online),
      );
      const waiting = await ack<'visit.join', VisitJoinResult>(patientSocket, 'visit.join', {
        appointmentId,
        lastSeq: 0,
      });
      expect(waiting.ok && waiting.data.inCall).toBe(false);
      await online;

      // The doctor enters the call and admits the patient (REST, whichever instance): the patient's
      // connection on the other instance is moved into the call.
      const hosted = await ack<'visit.join', VisitJoinResult>(doctorSocket, 'visit.join', {
        appointmentId,
        lastSeq: 0,
      });
      expect(hosted.ok && hosted.data.inCall).toBe(true);
      const joined = nextEvent(
        doctorSocket,
        'visit.participantJoined',
        (event) => event.appointmentId === appointmentId && event.participant.key === `user:${patient.id}`,
      );
      const admittedState = nextEvent(
        patientSocket,
        'visit.state',
        (state) => state.appointmentId === appointmentId && state.phase === 'in_call',
      );
      await doctor!.client.ok('POST', `/visits/${appointmentId}/admit`, {});
      await Promise.all([joined, admittedState]);

      // Chat both ways.
      const toPatient = nextEvent(patientSocket, 'chat.message', (message) => message.clientId === 'cross-1');
      const sent = await ack<'chat.send', ChatMessage>(doctorSocket, 'chat.send', {
        appointmentId,
        clientId: 'cross-1',
        body: 'Buenos días, ¿me escucha?',
      });
      expect(sent.ok).toBe(true);
      expect((await toPatient).body).toBe('Buenos días, ¿me escucha?');
      const toDoctor = nextEvent(doctorSocket, 'chat.message', (message) => message.clientId === 'cross-2');
      const reply = await ack<'chat.send', ChatMessage>(patientSocket, 'chat.send', {
        appointmentId,
        clientId: 'cross-2',
        body: 'Sí, la escucho bien.',
      });
      expect(reply.ok).toBe(true);
      expect((await toDoctor).seq).toBe(2);

      // WebRTC signalling both ways (delivered only to the participant's connection in the call).
      const offer = nextEvent(
        patientSocket,
        'visit.signal',
        (signal: VisitSignalDelivery) => signal.description?.type === 'offer',
      );
      const signalled = await ack<'visit.signal', null>(doctorSocket, 'visit.signal', {
        appointmentId,
        to: `user:${patient.id}`,
        description: { type: 'offer', sdp: 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\n' },
      });
      expect(signalled).toEqual({ ok: true, data: null });
      expect((await offer).from).toBe(`user:${doctor!.id}`);
      const answer = nextEvent(
        doctorSocket,
        'visit.signal',
        (signal: VisitSignalDelivery) => signal.description?.type === 'answer',
      );
      await ack(patientSocket, 'visit.signal', {
        appointmentId,
        to: `user:${doctor!.id}`,
        description: { type: 'answer', sdp: 'v=0\r\no=- 2 2 IN IP4 127.0.0.1\r\n' },
      });
      expect((await answer).from).toBe(`user:${patient.id}`);
    } finally {
      for (const socket of sockets) {
        socket.disconnect();
      }
    }
  });

  it('stopping an instance (SIGTERM, then SIGKILL of the other) loses no acknowledged chat message', async () => {
    const [doctor] = clinic.doctors;
    const patient = clinic.patients[0]!;
    const slots = await freeSlots(
      patient.client,
      doctor!.id,
      new Date(Date.now() - 60_000),
      new Date(Date.now() + 3_600_000),
    );
    const slot = slots.find((candidate) => Date.parse(candidate.startsAt) >= Date.now() - 1_000)!;
    const { id: appointmentId } = await patient.client.ok<{ id: string }>('POST', '/appointments', {
      doctorId: doctor!.id,
      startsAt: slot.startsAt,
      reason: 'Consulta con caída de instancia',
    });
    await patient.client.ok('POST', `/visits/${appointmentId}/check-in`);
    await doctor!.client.ok('POST', `/visits/${appointmentId}/admit`, {});

    const upgradesBefore = balancer.upgrades.length;
    const chat = [
      new ChatParticipant('doctor', doctor!.client, balancer.url, appointmentId),
      new ChatParticipant('patient', patient.client, balancer.url, appointmentId),
    ];
    try {
      await Promise.all(chat.map((participant) => participant.untilJoined(20_000)));
      const placement = balancer.upgrades.slice(upgradesBefore).map((upgrade) => upgrade.backend);
      expect(new Set(placement)).toEqual(new Set(['A', 'B']));

      let isStopping = false;
      // Each side sends a bounded number of messages per phase, then waits for the next phase: a
      // restart that takes long on a busy machine must not use up the conversation (the join
      // replays at most 500 messages) before the later phases have had theirs.
      const perPhase = 15;
      const allowance = chat.map(() => perPhase);
      const chatters = chat.map(async (participant, who) => {
        for (let index = 0; !isStopping && index < 200;) {
          if (allowance[who]! <= 0) {
            await sleep(50);
            continue;
          }
          allowance[who]! -= 1;
          await participant.send(`${participant.label}-${index}`, `${participant.label} ${index}`);
          index += 1;
          await sleep(randomInt(30, 120));
        }
      });
      const instances = { A: instanceA, B: instanceB };
      const patientOn = placement[1] as 'A' | 'B';
      const other = patientOn === 'A' ? 'B' : 'A';
      // Each phase lasts until both sides have had messages acknowledged in it (not a fixed time: a
      // slow machine makes a phase longer, never empty).
      const untilBothAcked = async (more: number, phase: string): Promise<void> => {
        allowance.fill(perPhase);
        const wanted = chat.map((participant) => participant.acked.size + more);
        const deadline = Date.now() + 120_000;
        while (chat.some((participant, index) => participant.acked.size < wanted[index]!)) {
          if (Date.now() > deadline) {
            throw new Error(`chat: fewer than ${more} acknowledged messages each ${phase} in 120 s`);
          }
          await sleep(50);
        }
      };
      await untilBothAcked(5, 'before the restarts');
      // A rolling restart: the patient's instance stops gracefully and comes back…
      await instances[patientOn].stop('SIGTERM');
      await untilBothAcked(3, `while ${patientOn} was down`);
      await instances[patientOn].start();
      await untilBothAcked(3, `after ${patientOn} came back`);
      // …then the other one dies without warning; everybody ends up on the first.
      await instances[other].stop('SIGKILL');
      await untilBothAcked(5, `after ${other} was killed`);
      isStopping = true;
      await Promise.all(chatters);
      await instances[other].start();
      expect(instanceA.unexpectedExits + instanceB.unexpectedExits).toBe(0);

      const rows = await database.query<{ seq: number; client_id: string; body: string }>(
        `select seq, client_id, body from visit_messages where appointment_id = $1 order by seq`,
        [appointmentId],
      );
      expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1));
      const stored = new Map(rows.map((row) => [row.client_id, row]));
      let ackedCount = 0;
      for (const participant of chat) {
        for (const [clientId, { seq, body }] of participant.acked) {
          ackedCount += 1;
          expect(stored.get(clientId), clientId).toMatchObject({ seq, body });
        }
      }
      expect(ackedCount).toBe(rows.length);
      expect(ackedCount).toBeGreaterThan(20);
      // The clients' join replays after reconnecting: each holds every message, once.
      const deadline = Date.now() + 15_000;
      while (chat.some((participant) => participant.contiguousSeq < rows.length) && Date.now() < deadline) {
        await sleep(100);
      }
      for (const participant of chat) {
        expect(participant.conflictingDeliveries).toBe(0);
        expect(participant.contiguousSeq).toBe(rows.length);
        expect(participant.joins).toBeGreaterThan(1);
      }
      // A fresh join through the proxy replays the whole history exactly once.
      const fresh = openSocket(patient.client, balancer.url, { reconnect: false });
      try {
        await connected(fresh);
        const joined = await ack<'visit.join', VisitJoinResult>(fresh, 'visit.join', {
          appointmentId,
          lastSeq: 0,
        });
        expect(joined.ok).toBe(true);
        const replay = joined.ok ? joined.data.messages.map((message) => message.clientId) : [];
        expect(replay).toEqual(rows.map((row) => row.client_id));
        expect(new Set(replay).size).toBe(replay.length);
      } finally {
        fresh.disconnect();
      }
      console.log(
        `scale-out: ${ackedCount} chat messages acknowledged while ${patientOn} was stopped (SIGTERM) and restarted ` +
          `and ${other} was killed (SIGKILL); ${chat.reduce((sum, p) => sum + p.retries, 0)} resends, ` +
          `${chat.reduce((sum, p) => sum + p.joins, 0)} joins; none lost, none duplicated`,
      );
    } finally {
      for (const participant of chat) {
        participant.close();
      }
    }
  });
});
