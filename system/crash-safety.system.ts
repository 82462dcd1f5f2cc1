/**
 * Crash safety of the built server on PostgreSQL.
 *
 * 1. Twenty SIGKILLs at random moments while patients book (each its own
 *    slots, plus bursts where everyone races for the same slot) and a doctor
 *    and a patient chat in a running visit; the server is started again each
 *    time on the same port and database. Every write the server acknowledged
 *    must be there afterwards, nothing may be duplicated, no two live bookings
 *    of a doctor may overlap and the chat keeps its promise of sequences 1..N
 *    without gaps.
 * 2. The database going away while the app serves (a TCP proxy cut between
 *    them, then PostgreSQL ending the app's backends): requests fail fast and
 *    cleanly (503 SERVICE_UNAVAILABLE in the error shape, never a 500 or a
 *    hang), health says the database is down, and the app recovers on its own.
 */
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { ChatMessage, VisitJoinResult } from '@telemedicina/shared/visits';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppProcess } from './support/app-process.js';
import { ChatParticipant } from './support/chat.js';
import { freeSlots, prepareClinic, startVisit, type Clinic } from './support/clinic.js';
import { ack, connected, HttpClient, openSocket, sleep } from './support/clients.js';
import { createScratchDatabase, type ScratchDatabase } from './support/postgres.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import {
  bookingReason,
  bookUntilAnswered,
  errorLines,
  type BookingOutcome,
  type LoadStats,
  type Slot,
} from './support/crash-bookings.js';
import { startLoad, type Sample } from './support/outage-load.js';

const kills = 20;
/** The chat join replays at most 500 messages: stay below so one join shows the whole history. */
const maxMessagesPerSender = 230;

let database: ScratchDatabase;
let app: AppProcess;
let clinic: Clinic;

beforeAll(async () => {
  database = await createScratchDatabase();
  app = await AppProcess.create({ databaseUrl: database.url, name: 'server' });
  await app.start();
  clinic = await prepareClinic(app.baseUrl, database, { extraPatients: 4, extraHours: 48 });
});

afterAll(async () => {
  await app?.dispose();
  await database?.drop();
});

describe('SIGKILL during concurrent bookings and chat', () => {
  it(`loses no acknowledged write, duplicates nothing and overlaps nothing across ${kills} kills`, async () => {
    const started = performance.now();
    const [doctor, otherDoctor] = clinic.doctors;
    const chatPatient = clinic.patients[0]!;
    const appointmentId = await startVisit(doctor!, chatPatient);

    // Slots from 20 minutes on (none passes while the test runs); every fourth is raced for by everyone.
    const from = new Date(Date.now() + 20 * 60_000);
    const to = new Date(Date.now() + 47 * 3_600_000);
    const byDoctor = await Promise.all(
      [doctor!, otherDoctor!].map(async (d) =>
        (await freeSlots(clinic.admin, d.id, from, to)).map((slot) => ({
          doctorId: d.id,
          startsAt: slot.startsAt,
        })),
      ),
    );
    const allSlots: Slot[] = [];
    for (let index = 0; index < Math.max(...byDoctor.map((list) => list.length)); index += 1) {
      for (const list of byDoctor) {
        if (list[index] !== undefined) {
          allSlots.push(list[index]!);
        }
      }
    }
    const contended = allSlots.filter((_, index) => index % 4 === 3);
    const distinct = allSlots.filter((_, index) => index % 4 !== 3);
    const workers = clinic.patients;
    expect(distinct.length).toBeGreaterThan(workers.length * 40);

    const chat = [
      new ChatParticipant('doctor', doctor!.client, app.baseUrl, appointmentId),
      new ChatParticipant('patient', chatPatient.client, app.baseUrl, appointmentId),
    ];
    await Promise.all(chat.map((participant) => participant.untilJoined(15_000)));

    let isStopping = false;
    const stats: LoadStats = { networkErrors: 0, statuses: new Map(), unexpected: [], serverErrors: [] };
    const outcomes: BookingOutcome[] = [];

    // Each patient books its own share of the distinct slots, one after the other.
    const bookingWorkers = workers.map(async (patient, workerIndex) => {
      const mine = distinct.filter((_, index) => index % workers.length === workerIndex);
      for (const slot of mine) {
        if (isStopping) {
          return;
        }
        outcomes.push(
          await bookUntilAnswered(patient.client, patient.id, slot, 'distinct', stats, () => isStopping),
        );
        await sleep(randomInt(150, 400));
      }
    });
    // Bursts: every patient asks for the same slot at the same moment; at most one may get it.
    const contention = (async () => {
      for (const slot of contended) {
        if (isStopping) {
          return;
        }
        const burst = await Promise.all(
          workers.map((patient) =>
            bookUntilAnswered(patient.client, patient.id, slot, 'contended', stats, () => isStopping),
          ),
        );
        outcomes.push(...burst);
        await sleep(randomInt(200, 500));
      }
    })();
    // Doctor and patient chat, each message resent with its clientId until acknowledged.
    const chatters = chat.map(async (participant) => {
      for (let index = 0; index < maxMessagesPerSender && !isStopping; index += 1) {
        await participant.send(
          `${participant.label}-${index}`,
          `${participant.label} mensaje ${index} ¿todo bien?`,
        );
        await sleep(randomInt(40, 160));
      }
    });

    // The killer: SIGKILL at a random moment of load, start again on the same port and database.
    const startTimes: number[] = [];
    for (let kill = 0; kill < kills; kill += 1) {
      await sleep(randomInt(300, 1_500));
      await app.stop('SIGKILL');
      await sleep(randomInt(0, 300));
      const restartedAt = performance.now();
      await app.start();
      startTimes.push(performance.now() - restartedAt);
    }
    // The load goes on after the last restart until it has been answered there too (and enough in
    // all to judge), however long a busy machine takes for that.
    const ackedBeforeLastStart = outcomes.filter((outcome) => outcome.outcome === 'acked').length;
    const loadDeadline = performance.now() + 120_000;
    while (
      performance.now() < loadDeadline &&
      (outcomes.filter((outcome) => outcome.outcome === 'acked').length <
        Math.max(60, ackedBeforeLastStart + 10) ||
        chat.some((participant) => participant.acked.size < 10))
    ) {
      await sleep(50);
    }
    isStopping = true;
    await Promise.all([...bookingWorkers, contention, ...chatters]);
    const loadSeconds = (performance.now() - started) / 1000;

    // ---- bookings
    const acked = outcomes.filter((outcome) => outcome.outcome === 'acked');
    expect(stats.unexpected).toEqual([]);
    expect(
      stats.statuses.get(500) ?? 0,
      `500 answers: ${stats.serverErrors.join('\n')}\nserver errors logged:\n${errorLines(app.output())}`,
    ).toBe(0);
    expect(acked.length).toBeGreaterThan(50);
    expect(acked.every((outcome) => outcome.id !== null)).toBe(true);
    const stored = await database.query<{
      id: string;
      doctor_user_id: string;
      patient_user_id: string;
      starts_at: Date;
      status: string;
    }>(`select id, doctor_user_id, patient_user_id, starts_at, status from appointments where reason = $1`, [
      bookingReason,
    ]);
    const storedById = new Map(stored.map((row) => [row.id, row]));
    const missing = acked.filter((outcome) => {
      const row = storedById.get(outcome.id!);
      return (
        row === undefined ||
        row.status !== 'confirmed' ||
        row.doctor_user_id !== outcome.doctorId ||
        row.patient_user_id !== outcome.patientId ||
        row.starts_at.getTime() !== Date.parse(outcome.startsAt)
      );
    });
    expect(missing).toEqual([]);
    // Nothing appeared that nobody asked for (an unanswered attempt may or may not have been saved).
    const attempted = new Set(outcomes.map((o) => `${o.doctorId} ${o.patientId} ${Date.parse(o.startsAt)}`));
    const phantoms = stored.filter(
      (row) => !attempted.has(`${row.doctor_user_id} ${row.patient_user_id} ${row.starts_at.getTime()}`),
    );
    expect(phantoms).toEqual([]);
    // One booking per slot: an acknowledged race has one winner and the database agrees.
    const winnersBySlot = new Map<string, number>();
    for (const outcome of acked) {
      const key = `${outcome.doctorId} ${outcome.startsAt}`;
      winnersBySlot.set(key, (winnersBySlot.get(key) ?? 0) + 1);
    }
    expect([...winnersBySlot.values()].filter((count) => count > 1)).toEqual([]);
    const [overlaps] = await database.query<{ count: string }>(
      `select count(*) from appointments a join appointments b
         on a.doctor_user_id = b.doctor_user_id and a.id < b.id
        and tstzrange(a.starts_at, a.ends_at, '[)') && tstzrange(b.starts_at, b.ends_at, '[)')
       where a.status not in ('cancelled', 'no_show') and b.status not in ('cancelled', 'no_show')`,
    );
    expect(Number(overlaps!.count)).toBe(0);
    const contendedWins = acked.filter((outcome) => outcome.kind === 'contended').length;
    const contendedLosses = outcomes.filter((o) => o.kind === 'contended' && o.outcome === 'taken').length;
    expect(contendedLosses).toBeGreaterThan(0);

    // ---- chat: the design promises sequences 1..N without gaps, one row per (sender, clientId)
    const rows = await database.query<{ seq: number; sender_key: string; client_id: string; body: string }>(
      `select seq, sender_key, client_id, body from visit_messages where appointment_id = $1 order by seq`,
      [appointmentId],
    );
    const [counter] = await database.query<{ chat_seq: number }>(
      `select chat_seq from visits where appointment_id = $1`,
      [appointmentId],
    );
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => index + 1));
    expect(counter!.chat_seq).toBe(rows.length);
    const keys = rows.map((row) => `${row.sender_key} ${row.client_id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const bySenderClient = new Map(rows.map((row) => [`${row.client_id}`, row]));
    let chatAcked = 0;
    for (const participant of chat) {
      for (const [clientId, { seq, body }] of participant.acked) {
        chatAcked += 1;
        const row = bySenderClient.get(clientId);
        expect(row, `acknowledged message ${clientId} is stored`).toBeDefined();
        expect({ seq: row!.seq, body: row!.body }).toEqual({ seq, body });
      }
    }
    expect(chatAcked).toBeGreaterThan(50);
    // Every stored message was acknowledged to its sender (they kept resending until it was).
    expect(rows.length).toBe(chatAcked);
    // The clients' own view: each holds the whole history, every sequence once, nothing conflicting.
    const deadline = Date.now() + 15_000;
    while (chat.some((participant) => participant.contiguousSeq < rows.length) && Date.now() < deadline) {
      await sleep(100);
    }
    for (const participant of chat) {
      expect(participant.conflictingDeliveries).toBe(0);
      expect(participant.contiguousSeq).toBe(rows.length);
    }
    // A fresh join (lastSeq 0) replays exactly the stored history.
    const fresh = openSocket(doctor!.client, app.baseUrl, { reconnect: false });
    try {
      await connected(fresh);
      const joined = await ack<'visit.join', VisitJoinResult>(fresh, 'visit.join', {
        appointmentId,
        lastSeq: 0,
      });
      expect(joined.ok).toBe(true);
      const replay = joined.ok ? joined.data.messages : [];
      expect(replay.map((message: ChatMessage) => [message.seq, message.clientId])).toEqual(
        rows.map((row) => [row.seq, row.client_id]),
      );
    } finally {
      fresh.disconnect();
      for (const participant of chat) {
        participant.close();
      }
    }

    const figures = {
      kills,
      restarts: app.starts - 1,
      'mean restart to healthy (ms)': Math.round(startTimes.reduce((a, b) => a + b, 0) / startTimes.length),
      'bookings acknowledged': acked.length,
      'of which won races': contendedWins,
      'races lost (409 SLOT_TAKEN)': contendedLosses,
      'booking attempts unanswered at the end': outcomes.filter((o) => o.outcome === 'stopped').length,
      'requests refused or cut by a kill (retried)': stats.networkErrors,
      'chat messages acknowledged': chatAcked,
      'chat resends': chat.reduce((sum, participant) => sum + participant.retries, 0),
      'chat joins (incl. rejoins)': chat.reduce((sum, participant) => sum + participant.joins, 0),
      'writes acknowledged': acked.length + chatAcked,
      'seconds under load': Math.round(loadSeconds),
    };
    console.log(`crash safety figures: ${JSON.stringify(figures, null, 2)}`);
    expect(app.starts - 1).toBe(kills);
    expect(app.unexpectedExits).toBe(0);
  });
});

describe('the database going away while serving', () => {
  let proxy: TcpProxy;
  let proxied: AppProcess;

  beforeAll(async () => {
    proxy = await startTcpProxy({ host: database.host, port: database.port });
    const url = new URL(database.url);
    url.host = `127.0.0.1:${proxy.port}`;
    proxied = await AppProcess.create({ databaseUrl: url.toString(), name: 'behind a TCP proxy' });
    await proxied.start();
  });

  afterAll(async () => {
    await proxied?.dispose();
    await proxy?.close();
  });

  /** At least `count` answers recorded wholly inside `phase`. */
  const inPhase =
    (phase: string, count: number) =>
    (samples: Sample[]): boolean =>
      samples.filter((sample) => sample.phase === phase).length >= count;

  /** Clean failures only: a 503 in the error shape, answered quickly; never a 500, a stack or a hang. */
  function expectCleanFailures(samples: Sample[]): void {
    const failures = samples.filter((sample) => sample.status === 'no answer' || sample.status >= 500);
    for (const failure of failures) {
      expect(failure, JSON.stringify(failure)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(failure.body).not.toMatch(/\bat \S+:\d+|stack|ECONN|terminat/i);
      // node-postgres gives up connecting after 5 s: nothing waits much longer than that.
      expect(failure.ms).toBeLessThan(7_000);
    }
  }

  it('a cut link answers 503 quickly, health reports the database down, and the pool recovers on its own', async () => {
    // A visit in progress whose doctor is connected to the proxied instance: real-time events that
    // need the database must be refused as an outage too, not as a server fault.
    const appointmentId = await startVisit(clinic.doctors[1]!, clinic.patients[1]!);
    const doctorChat = new ChatParticipant(
      'doctor',
      clinic.doctors[1]!.client,
      proxied.baseUrl,
      appointmentId,
    );
    await doctorChat.untilJoined(15_000);
    const load = startLoad(proxied.baseUrl, clinic);
    await load.until(inPhase('before', 8), '8 answers before the cut');
    load.phase.name = 'down';
    await proxy.cut();
    await load.until(
      (samples) => samples.some((sample) => sample.phase === 'down' && sample.status === 503),
      'a 503 after the cut',
    );
    const chatDuringCut = await ack<'chat.send', ChatMessage>(
      doctorChat.socket,
      'chat.send',
      { appointmentId, clientId: 'during-the-cut', body: 'Mensaje con la base de datos caída' },
      10_000,
    );
    doctorChat.socket.close();
    expect(chatDuringCut).toMatchObject({ ok: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    // The link stays cut until health has said so and the load has met the outage a few times.
    await load.until(
      (samples) =>
        samples.some(
          (sample) => sample.phase === 'down' && sample.route === 'GET /health' && sample.status === 503,
        ) && inPhase('down', 4)(samples),
      'health answering 503 during the cut',
    );
    load.phase.name = 'recovering';
    await proxy.restore();
    const restoredAt = performance.now();
    // Recovered: health and a read answer 200 again, without restarting the app.
    const probe = new HttpClient(proxied.baseUrl);
    let recoveredAfterMs = Number.NaN;
    while (performance.now() - restoredAt < 15_000) {
      const health = await probe.request('GET', '/health').catch(() => null);
      if (health?.status === 200) {
        recoveredAfterMs = performance.now() - restoredAt;
        break;
      }
      await sleep(100);
    }
    load.phase.name = 'after';
    await load.until(inPhase('after', 8), '8 answers after the link returned');
    const samples = await load.stop();

    const before = samples.filter((sample) => sample.phase === 'before');
    const down = samples.filter((sample) => sample.phase === 'down');
    const after = samples.filter((sample) => sample.phase === 'after');
    expect(before.length).toBeGreaterThan(0);
    expect(
      before.filter(
        (sample) => sample.status !== 200 && sample.status !== 201 && sample.code !== 'SLOT_TAKEN',
      ),
      proxied.tail(),
    ).toEqual([]);
    // While cut: requests fail (cleanly), and health says the database is down.
    expect(down.filter((sample) => sample.status === 503).length).toBeGreaterThan(0);
    expect(down.some((sample) => sample.route === 'GET /health' && sample.status === 503)).toBe(true);
    expectCleanFailures(samples);
    // After: everything works again on the same process.
    expect(Number.isFinite(recoveredAfterMs)).toBe(true);
    expect(after.length).toBeGreaterThan(3);
    expect(
      after.filter(
        (sample) => sample.status !== 200 && sample.status !== 201 && sample.code !== 'SLOT_TAKEN',
      ),
    ).toEqual([]);
    expect(proxied.isRunning).toBe(true);
    expect(proxied.unexpectedExits).toBe(0);
    expect(proxied.starts).toBe(1);
    console.log(
      `database cut: ${down.length} requests during the cut (${down.filter((s) => s.status === 503).length} × 503, ` +
        `slowest ${Math.round(Math.max(...down.map((s) => s.ms)))} ms), health back ${Math.round(recoveredAfterMs)} ms after the link returned, ` +
        `${after.length} requests after, all answered`,
    );
  });

  it('PostgreSQL ending the app’s connections (pg_terminate_backend) during load: clean failures, then recovery', async () => {
    const load = startLoad(proxied.baseUrl, clinic);
    await load.until(inPhase('before', 8), '8 answers before terminating');
    load.phase.name = 'terminating';
    let terminated = 0;
    for (let round = 0; round < 5; round += 1) {
      const rows = await database.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()`,
        [database.name],
      );
      terminated += rows.filter((row) => row.ended).length;
      await sleep(300);
    }
    load.phase.name = 'after';
    await load.until(inPhase('after', 8), '8 answers after the terminations');
    const samples = await load.stop();
    expect(terminated).toBeGreaterThan(0);
    expectCleanFailures(samples);
    const after = samples.filter((sample) => sample.phase === 'after');
    expect(after.length).toBeGreaterThan(3);
    expect(
      after.filter(
        (sample) => sample.status !== 200 && sample.status !== 201 && sample.code !== 'SLOT_TAKEN',
      ),
    ).toEqual([]);
    expect(proxied.isRunning).toBe(true);
    console.log(
      `pg_terminate_backend: ${terminated} backends ended in 5 rounds; ` +
        `${samples.filter((s) => s.phase === 'terminating').length} requests meanwhile ` +
        `(${samples.filter((s) => s.status === 503).length} × 503), ${after.length} after, all answered`,
    );
  });
});
