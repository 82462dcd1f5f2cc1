/**
 * Booking on PostgreSQL with a doctor's year of appointments, against
 * baselines measured in the same run on the same server:
 *
 *  (a) booking throughput and p99 with N concurrent patients booking distinct
 *      free slots (POST /api/v1/appointments: pre-check, one transaction with
 *      the row, audit event, reminders, two stored emails with their calendar
 *      file and two notifications), then all N racing for the same slot round
 *      after round (exactly one 201, the rest 409 SLOT_TAKEN, no 5xx) —
 *      baseline: GET /api/v1/health with the same concurrency and count;
 *  (b) slot search (GET /doctors/:id/slots) over a 7-day and a 31-day window,
 *      median / p95 / p99 of sequential requests — baselines: GET /api/v1/health
 *      the same way, and a bare `select 1` round trip from this process.
 *
 *   npm run bench:booking
 *   BENCH_DATABASE_URL=postgres://user@host:5432/db BENCH_CLIENTS=16 npm run bench:booking
 *
 * Creates the database `telemedicina_bench_booking` on that server (dropped at
 * the end, also after a failure, unless BENCH_KEEP_DATABASE=true), migrates
 * it, seeds ~2,500 past and future appointments for one doctor seeing
 * patients 08:00–20:00 UTC every day, and runs the real app in this process on
 * a random port. The load generator shares the process with the server, for
 * the baselines too, so ratios compare like with like. Targets (reported, not
 * asserted): zero 5xx, exactly one winner per contended slot, slot search p95
 * under 100 ms for 31 days.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { SlotsResponse } from '@telemedicina/shared/booking';
import {
  round as roundTo,
  runStatement,
  runUnderSourceCondition,
  summarise,
  type Figures,
} from './support/bench-kit.js';
import type { DatabaseClient } from '../apps/server/src/db/client.js';

/** Booking figures print with two decimals. */
const round = (value: number): number => roundTo(value, 2);

const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const databaseName = 'telemedicina_bench_booking';
const keepDatabase = process.env.BENCH_KEEP_DATABASE === 'true';
/** Concurrent patients (one session each). */
const clients = Number(process.env.BENCH_CLIENTS ?? 16);
const bookingsPerClient = Number(process.env.BENCH_BOOKINGS_PER_CLIENT ?? 12);
const raceRounds = Number(process.env.BENCH_RACE_ROUNDS ?? 12);
const searchRequests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 120);
const pingRequests = 400;
const warmUp = 15;
/** Seeded history: this many days back and ahead of today. */
const seededDaysEachWay = 182;
/** Slots per day (08:00–20:00, 30 minutes) and how many of them are booked on a seeded day. */
const slotsPerDay = 24;
const bookedPerDay = 7;
const visitMinutes = 30;
const dayMs = 86_400_000;
const slotSearchTargetMs = 100;

async function main(): Promise<void> {
  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { seedSystemData } = await import('../apps/server/src/db/seed.js');
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-bench-booking-'));
  await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await runStatement(serverUrl, `CREATE DATABASE "${databaseName}"`);
  let db: DatabaseClient | null = null;
  try {
    db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 20 });
    await db.migrate();
    await seedSystemData(db.db, new Date());
    await run(db, url.toString(), dataDir);
  } finally {
    await db?.close();
    if (!keepDatabase) {
      await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Midnight UTC of the day `offset` days from today. */
function dayStart(offset: number): number {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + offset * dayMs;
}

/**
 * The doctor's year: ~7 of 24 slots a day booked by a pool of 300 patients,
 * half a year back (completed, a few no-shows and cancellations) and half a
 * year ahead (confirmed), chosen by a fixed hash so every run measures the
 * same calendar shape.
 */
async function seedYear(db: DatabaseClient, doctorId: string): Promise<number> {
  const { appointments, users, userRoles, roles } = await import('../apps/server/src/db/schema.js');
  const { eq } = await import('drizzle-orm');
  const now = new Date();
  const patients = await db.db
    .insert(users)
    .values(
      Array.from({ length: 300 }, (_, index) => ({
        email: `paciente.banco.${index}@example.org`,
        name: `Paciente Banco ${index}`,
        phone: null,
        dateOfBirth: null,
        language: index % 3 === 0 ? 'en' : 'es',
        timeZone: 'America/Mexico_City',
        passwordHash:
          '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$YmVuY2hoYXNoYmVuY2hoYXNoYmVuY2hoYXNo',
        status: 'active' as const,
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: users.id });
  const [patientRole] = await db.db.select().from(roles).where(eq(roles.key, 'patient'));
  await db.db
    .insert(userRoles)
    .values(patients.map((patient) => ({ userId: patient.id, roleId: patientRole!.id, createdAt: now })));
  const rows: (typeof appointments.$inferInsert)[] = [];
  let hash = 2_166_136_261;
  const next = () => {
    hash = Math.imul(hash ^ (hash >>> 15), 2_246_822_507) >>> 0;
    hash = (hash + 0x9e3779b9) >>> 0;
    return hash;
  };
  for (let day = -seededDaysEachWay; day <= seededDaysEachWay; day += 1) {
    if (day === 0) {
      continue;
    }
    const taken = new Set<number>();
    while (taken.size < bookedPerDay) {
      taken.add(next() % slotsPerDay);
    }
    for (const slot of taken) {
      const startsAt = new Date(dayStart(day) + 8 * 3_600_000 + slot * visitMinutes * 60_000);
      const roll = next() % 100;
      const status = day > 0 ? 'confirmed' : roll < 5 ? 'no_show' : roll < 10 ? 'cancelled' : 'completed';
      rows.push({
        doctorUserId: doctorId,
        patientUserId: patients[next() % patients.length]!.id,
        startsAt,
        endsAt: new Date(startsAt.getTime() + visitMinutes * 60_000),
        status,
        reason: 'Control',
        cancelledAt: status === 'cancelled' ? startsAt : null,
        createdAt: new Date(startsAt.getTime() - 7 * dayMs),
        updatedAt: new Date(startsAt.getTime() - 7 * dayMs),
      });
    }
  }
  for (let index = 0; index < rows.length; index += 1_000) {
    await db.db.insert(appointments).values(rows.slice(index, index + 1_000));
  }
  const { sql } = await import('drizzle-orm');
  await db.db.execute(sql`vacuum analyze appointments`);
  return rows.length;
}

async function run(db: DatabaseClient, databaseUrl: string, dataDir: string): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config/config.js');
  const { createUser, signIn, requestHeaders } = await import('../apps/server/src/test/factories.js');
  const { createDoctor, everyDay } = await import('../apps/server/src/test/booking-fixtures.js');
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    // Request logs would measure the terminal, not the server.
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    MFA_ENCRYPTION_KEY: 'benchmark-only-mfa-encryption-key-0123456789',
  });
  const app = await buildApp({ config, database: db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  try {
    const seedStarted = performance.now();
    const doctor = await createDoctor(app, {
      timeZone: 'UTC',
      visitMinutes,
      rules: everyDay('08:00', '20:00'),
    });
    const seeded = await seedYear(db, doctor.id);
    const sessions: Record<string, string>[] = [];
    for (let index = 0; index < clients; index += 1) {
      const patient = await createUser(app, { roles: ['patient'] });
      sessions.push(requestHeaders((await signIn(app, patient)).token));
    }
    console.log(
      `Seeded ${seeded.toLocaleString('en')} appointments over ${2 * seededDaysEachWay + 1} days for one doctor ` +
        `(${bookedPerDay} of ${slotsPerDay} daily slots) and ${clients} signed-in patients in ` +
        `${((performance.now() - seedStarted) / 1000).toFixed(1)} s (database ${databaseName} on ${new URL(databaseUrl).host}).\n`,
    );

    const request = async (
      method: 'GET' | 'POST',
      pathAndQuery: string,
      headers: Record<string, string>,
      body?: unknown,
    ): Promise<{ status: number; ms: number; text: string }> => {
      const started = performance.now();
      const response = await fetch(`${origin}${pathAndQuery}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, ms: performance.now() - started, text };
    };
    const slotsPath = (fromDay: number, days: number) =>
      `/api/v1/doctors/${doctor.id}/slots?from=${new Date(dayStart(fromDay)).toISOString()}` +
      `&to=${new Date(dayStart(fromDay + days)).toISOString()}`;

    // Free slots to book: from tomorrow on, inside the seeded half year ahead.
    const free: string[] = [];
    for (let fromDay = 1; free.length < clients * bookingsPerClient + raceRounds + 10; fromDay += 31) {
      const answer = await request('GET', slotsPath(fromDay, 31), sessions[0]!);
      if (answer.status !== 200) {
        throw new Error(`slots answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      }
      free.push(...(JSON.parse(answer.text) as SlotsResponse).slots.map((slot) => slot.startsAt));
    }
    const raceSlots = free.splice(0, raceRounds);

    /** `clients` loops at once, each doing `perClient` calls of `call(client, index)`; wall time and latencies. */
    const concurrently = async (
      perClient: number,
      call: (client: number, index: number) => Promise<{ status: number; ms: number }>,
    ) => {
      const times: number[] = [];
      const statuses = new Map<number, number>();
      const started = performance.now();
      await Promise.all(
        sessions.map(async (_session, client) => {
          for (let index = 0; index < perClient; index += 1) {
            const answer = await call(client, index);
            times.push(answer.ms);
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      return { perSecond: times.length / seconds, figures: summarise(times), statuses };
    };

    // ------------------------------------------------------------ (a) booking throughput
    await concurrently(warmUp, (client) => request('GET', '/api/v1/health', sessions[client]!));
    const health = await concurrently(bookingsPerClient, (client) =>
      request('GET', '/api/v1/health', sessions[client]!),
    );
    const booking = await concurrently(bookingsPerClient, (client, index) =>
      request('POST', '/api/v1/appointments', sessions[client]!, {
        doctorId: doctor.id,
        startsAt: free[client * bookingsPerClient + index],
        reason: 'Revisión',
      }),
    );

    // ------------------------------------------------------------ (a) contention
    const race = {
      won: 0,
      lost: 0,
      serverErrors: 0,
      other: 0,
      roundsWithOneWinner: 0,
      times: [] as number[],
    };
    for (const startsAt of raceSlots) {
      const answers = await Promise.all(
        sessions.map((headers) =>
          request('POST', '/api/v1/appointments', headers, {
            doctorId: doctor.id,
            startsAt,
            reason: 'Carrera',
          }),
        ),
      );
      let winners = 0;
      for (const answer of answers) {
        race.times.push(answer.ms);
        if (answer.status === 201) {
          winners += 1;
        } else if (answer.status === 409 && answer.text.includes('SLOT_TAKEN')) {
          race.lost += 1;
        } else if (answer.status >= 500) {
          race.serverErrors += 1;
        } else {
          race.other += 1;
        }
      }
      race.won += winners;
      race.roundsWithOneWinner += winners === 1 ? 1 : 0;
    }
    const raceFigures = summarise(race.times);

    // ------------------------------------------------------------ (b) slot search
    const sequential = async (pathAndQuery: string, count: number): Promise<Figures> => {
      for (let index = 0; index < warmUp; index += 1) {
        await request('GET', pathAndQuery, sessions[0]!);
      }
      const times: number[] = [];
      for (let index = 0; index < count; index += 1) {
        const answer = await request('GET', pathAndQuery, sessions[0]!);
        if (answer.status !== 200) {
          throw new Error(`GET ${pathAndQuery} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
        }
        times.push(answer.ms);
      }
      return summarise(times);
    };
    const healthSequential = await sequential('/api/v1/health', searchRequests);
    const week = await sequential(slotsPath(3, 7), searchRequests);
    const month = await sequential(slotsPath(3, 31), searchRequests);
    const pings: number[] = [];
    for (let index = 0; index < pingRequests; index += 1) {
      pings.push(await db.ping());
    }
    const ping = summarise(pings);

    // ------------------------------------------------------------ report
    const bookingErrors = [...booking.statuses].filter(([status]) => status !== 201);
    console.log(
      `(a) ${clients} concurrent patients × ${bookingsPerClient} bookings of distinct free slots ` +
        `(baseline: GET /api/v1/health, same clients and count):`,
    );
    console.table([
      {
        what: 'POST /appointments (distinct slots)',
        'req/s': round(booking.perSecond),
        'p50 ms': round(booking.figures.p50),
        'p99 ms': round(booking.figures.p99),
        statuses: [...booking.statuses].map(([status, count]) => `${count}×${status}`).join(' '),
        'req/s ÷ baseline': round(booking.perSecond / health.perSecond),
        'p99 ÷ baseline': round(booking.figures.p99 / health.figures.p99),
      },
      {
        what: 'baseline GET /health',
        'req/s': round(health.perSecond),
        'p50 ms': round(health.figures.p50),
        'p99 ms': round(health.figures.p99),
        statuses: [...health.statuses].map(([status, count]) => `${count}×${status}`).join(' '),
        'req/s ÷ baseline': 1,
        'p99 ÷ baseline': 1,
      },
    ]);
    console.log(
      `\n    contention: ${raceRounds} rounds of ${clients} patients booking the same slot → ${race.won} × 201, ` +
        `${race.lost} × 409 SLOT_TAKEN, ${race.serverErrors} × 5xx, ${race.other} other; ` +
        `${race.roundsWithOneWinner}/${raceRounds} rounds with exactly one winner; ` +
        `p50 ${round(raceFigures.p50)} ms, p99 ${round(raceFigures.p99)} ms.\n`,
    );
    console.log(
      `(b) slot search, ${searchRequests} sequential requests each after ${warmUp} of warm-up ` +
        `(baselines: GET /api/v1/health the same way; a bare select 1 round trip × ${pingRequests}):`,
    );
    const searchRow = (what: string, figures: Figures) => ({
      what,
      'p50 ms': round(figures.p50),
      'p95 ms': round(figures.p95),
      'p99 ms': round(figures.p99),
      'p50 ÷ health': round(figures.p50 / healthSequential.p50),
      'p99 ÷ health': round(figures.p99 / healthSequential.p99),
      'p50 ÷ select 1': round(figures.p50 / ping.p50),
    });
    console.table([
      searchRow('slots, 7 days', week),
      searchRow('slots, 31 days', month),
      searchRow('baseline GET /health', healthSequential),
      searchRow('baseline select 1', ping),
    ]);
    console.log(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min) at the end of the run`,
    );
    const isClean = race.serverErrors === 0 && race.other === 0 && bookingErrors.length === 0;
    console.log(
      `\nbooking: ${round(booking.perSecond)} bookings/s at ${clients} clients (${round(booking.perSecond / health.perSecond)} × health), ` +
        `p99 ${round(booking.figures.p99)} ms; contention ${race.roundsWithOneWinner}/${raceRounds} rounds with one winner, ` +
        `${race.serverErrors} × 5xx — ${isClean && race.roundsWithOneWinner === raceRounds ? 'clean' : 'NOT CLEAN'}; ` +
        `slot search 31 days p95 ${round(month.p95)} ms (target < ${slotSearchTargetMs} ms).`,
    );
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        name: 'booking',
        metrics: [
          {
            label: `bookings/s, ${clients} concurrent clients, distinct slots (baseline GET /health req/s)`,
            value: round(booking.perSecond),
            unit: 'req/s',
            baseline: round(health.perSecond),
            ratio: round(booking.perSecond / health.perSecond),
            target: null,
          },
          {
            label: `booking p99, ${clients} concurrent clients (baseline GET /health p99)`,
            value: round(booking.figures.p99),
            unit: 'ms',
            baseline: round(health.figures.p99),
            ratio: round(booking.figures.p99 / health.figures.p99),
            target: null,
          },
          {
            label: `contention: 5xx over ${raceRounds} rounds of ${clients} racing for one slot`,
            value: race.serverErrors + race.other,
            unit: 'responses',
            baseline: null,
            ratio: null,
            target: '0',
            met: race.serverErrors + race.other === 0 && race.roundsWithOneWinner === raceRounds,
          },
          {
            label: 'slot search p95, 7 days (baseline GET /health p95)',
            value: round(week.p95),
            unit: 'ms',
            baseline: round(healthSequential.p95),
            ratio: round(week.p95 / healthSequential.p95),
            target: `< ${slotSearchTargetMs} ms`,
          },
          {
            label: 'slot search p95, 31 days (baseline GET /health p95)',
            value: round(month.p95),
            unit: 'ms',
            baseline: round(healthSequential.p95),
            ratio: round(month.p95 / healthSequential.p95),
            target: `< ${slotSearchTargetMs} ms`,
          },
        ],
      })}`,
    );
  } finally {
    await app.close();
  }
}

await runUnderSourceCondition(import.meta.url, main);
