import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app.js';
import { appointments } from '../db/schema.js';
import { seedSystemData } from '../db/seed.js';
import { writeSetting } from '../modules/settings/settings.repository.js';
import { settingKeys } from '../modules/settings/settings.service.js';
import { send } from '../test/factories.js';
import { createTestConfig } from '../test/test-context.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import {
  ask,
  closeVisitSockets,
  createVisit,
  nextEvent,
  openVisitSocket,
  sessionCookie,
} from '../test/visit-fixtures.js';

/**
 * Two server instances sharing rooms through the Redis adapter (the Redis on
 * 127.0.0.1:6379, as in CI) and one database: the doctor is connected to the
 * first, the patient to the second, and the call still works end to end.
 */

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Each run its own channels, so parallel runs never hear each other. */
const redisKey = `telemedicina-test:${process.pid}:${randomBytes(4).toString('hex')}`;

let database: TestDatabase;
let tempDir: string;
const apps: App[] = [];
const ports: number[] = [];

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-redis-'));
  database = await createTestDatabase();
  await seedSystemData(database.db, new Date());
  await writeSetting(database.db, settingKeys.mfaRequiredRoles, [], { now: new Date() });
  for (const name of ['one', 'two']) {
    const config = createTestConfig(path.join(tempDir, name), { redisUrl, redisKeyPrefix: redisKey });
    const app = await buildApp({ config, database: database.client });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    apps.push(app);
    ports.push(typeof address === 'object' && address !== null ? address.port : 0);
  }
});

afterAll(async () => {
  closeVisitSockets();
  for (const app of apps) {
    await app.close();
  }
  await database?.dispose();
  if (tempDir !== undefined) {
    await rm(tempDir, { recursive: true, force: true });
  }
});

describe('a call across two instances (Redis adapter)', () => {
  it('joins, admits, relays signalling and chat between sockets on different instances', async () => {
    const [one, two] = apps as [App, App];
    const [portOne, portTwo] = ports as [number, number];
    const visit = await createVisit(one, { startsAt: new Date(), status: 'checked_in' });
    const doctor = await openVisitSocket(portOne, sessionCookie(visit.doctorSession));
    const patient = await openVisitSocket(portTwo, sessionCookie(visit.patientSession));

    expect(await ask(doctor, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject(
      {
        ok: true,
        data: { inCall: true },
      },
    );
    expect(
      await ask(patient, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 }),
    ).toMatchObject({
      ok: true,
      data: { inCall: false, state: { phase: 'waiting' } },
    });
    // The doctor's instance sees the patient (connected to the other one) online.
    const room = await ask(doctor, 'waitingRoom.watch', { doctorId: visit.doctor.id });
    expect(
      room.ok && room.data.entries.find((entry) => entry.appointmentId === visit.appointmentId)?.online,
    ).toBe(true);

    const admittedState = nextEvent(patient, 'visit.state', { where: (state) => state.phase === 'in_call' });
    const joined = nextEvent(doctor, 'visit.participantJoined');
    const admit = await send(one, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
      session: visit.doctorSession.token,
      body: {},
    });
    expect(admit.statusCode).toBe(200);
    expect((await admittedState).phase).toBe('in_call');
    expect((await joined).participant.key).toBe(`user:${visit.patient.id}`);

    const rejoin = await ask(patient, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    expect(rejoin).toMatchObject({
      ok: true,
      data: { inCall: true, participants: [{ key: `user:${visit.doctor.id}`, role: 'doctor' }] },
    });

    const offer = nextEvent(patient, 'visit.signal');
    expect(
      await ask(doctor, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: `user:${visit.patient.id}`,
        description: { type: 'offer', sdp: 'v=0 across' },
      }),
    ).toEqual({ ok: true, data: null });
    expect(await offer).toMatchObject({
      from: `user:${visit.doctor.id}`,
      description: { sdp: 'v=0 across' },
    });
    const answer = nextEvent(doctor, 'visit.signal');
    await ask(patient, 'visit.signal', {
      appointmentId: visit.appointmentId,
      to: `user:${visit.doctor.id}`,
      description: { type: 'answer', sdp: 'v=0 answer' },
    });
    expect(await answer).toMatchObject({ from: `user:${visit.patient.id}` });

    const received = nextEvent(doctor, 'chat.message');
    const sent = await ask(patient, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'across-1',
      body: 'Le escribo desde la otra instancia',
    });
    expect(sent).toMatchObject({ ok: true, data: { seq: 1 } });
    expect(await received).toMatchObject({ seq: 1, body: 'Le escribo desde la otra instancia' });

    const [row] = await database.db
      .select()
      .from(appointments)
      .where(eq(appointments.id, visit.appointmentId));
    expect(row?.status).toBe('in_progress');
    expect(row?.startedAt).not.toBeNull();

    // Ending on the second instance reaches the doctor on the first.
    const ended = nextEvent(doctor, 'visit.state', { where: (state) => state.phase === 'ended' });
    const end = await send(two, 'POST', `/api/v1/visits/${visit.appointmentId}/end`, {
      session: visit.doctorSession.token,
    });
    expect(end.statusCode).toBe(200);
    expect((await ended).status).toBe('completed');
  });

  it('subscribes under the configured REDIS_KEY_PREFIX only', async () => {
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    try {
      const channels = (await redis.pubsub('CHANNELS', `${redisKey}:*`)) as string[];
      expect(channels.length).toBeGreaterThan(0);
      expect(channels.every((channel) => channel.startsWith(`${redisKey}:socket.io`))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });
});
