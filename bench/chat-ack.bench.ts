/**
 * In-visit chat: acknowledgement latency of `chat.send` with 2,000 connected
 * clients (1,000 video visits in progress, each with its doctor and its
 * patient in the call), on PostgreSQL, against a baseline measured in the
 * same run: a bare Socket.IO server in this process, on its own port, whose
 * handler acknowledges an echo, with 2,000 clients and the same send pattern.
 *
 *   npm run bench:chat
 *   BENCH_DATABASE_URL=postgres://user@host:5432/db BENCH_VISITS=1000 BENCH_SENDS=4000 npm run bench:chat
 *
 * Creates the database `telemedicina_bench_chat` (dropped at the end, also
 * after a failure), migrates it, writes the users, appointments and sessions
 * with set-based SQL (no sign-in round trips), runs the real app in this
 * process on a random port, connects the clients over WebSocket with their
 * session cookies and has each join its visit. Sends go in waves of
 * BENCH_WAVE concurrent messages spread over all clients; the app and the
 * baseline alternate rounds. Each app message is stored (sequence number in
 * a transaction) and pushed to the other participant; the baseline only
 * echoes. The issue sets no number: the figure to watch is the ratio to the
 * bare echo, and the p99 itself (a person notices a chat lag from ~100 ms).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { round, runStatement, runUnderSourceCondition, summarise } from './support/bench-kit.js';
import type { DatabaseClient } from '../apps/server/src/db/client.js';

const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databaseName = 'telemedicina_bench_chat';
const visitCount = Number(process.env.BENCH_VISITS ?? 1_000);
const sendsPerRound = Number(process.env.BENCH_SENDS ?? 2_000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const waveSize = Number(process.env.BENCH_WAVE ?? 100);
const warmUpSends = 400;
const origin = 'http://bench.test';

interface Client {
  socket: Socket;
  appointmentId: string;
}

async function main(): Promise<void> {
  const started = performance.now();
  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { seedSystemData } = await import('../apps/server/src/db/seed.js');
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-bench-chat-'));
  await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await runStatement(serverUrl, `CREATE DATABASE "${databaseName}"`);
  let db: DatabaseClient | null = null;
  try {
    db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 });
    await db.migrate();
    await seedSystemData(db.db, new Date());
    const tokens = await seedVisits(db);
    console.log(
      `Seeded ${visitCount.toLocaleString('en')} visits in progress (doctor + patient, sessions) in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s (database ${databaseName} on ${url.host}).`,
    );
    await run(db, url.toString(), dataDir, tokens);
  } finally {
    await db?.close();
    await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  }
  console.log(`(whole run ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

/**
 * `visitCount` doctors and as many patients, one appointment in progress
 * between doctor i and patient i, and a live session per person (the
 * token's SHA-256 is the session id, as sign-in stores it). Answers the
 * tokens with the appointment each belongs to.
 */
async function seedVisits(db: DatabaseClient): Promise<{ token: string; appointmentId: string }[]> {
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2hzYWx0YmVuY2g$YmVuY2hoYXNoYmVuY2hoYXNoYmVuY2hoYXNo';
  await db.db.execute(sql`insert into settings (key, value) values ('mfa.requiredRoles', '[]'::jsonb)
    on conflict (key) do update set value = excluded.value`);
  await db.db.execute(sql`
    insert into users (email, name, language, time_zone, password_hash, status, email_verified_at, created_at, updated_at)
    select kind || i || '@bench.test',
           case when kind = 'doctor' then 'Dra. Banco ' else 'Paciente Banco ' end || i,
           'es', 'UTC', ${hash}, 'active', now(), now(), now()
    from generate_series(1, ${visitCount}) as i, (values ('doctor'), ('patient')) as kinds(kind)`);
  await db.db.execute(sql`
    insert into user_roles (user_id, role_id, created_at)
    select u.id, r.id, now() from users u
    join roles r on r.key = case when u.email like 'doctor%' then 'doctor' else 'patient' end
    where u.email like '%@bench.test'`);
  const inserted: unknown = await db.db.execute(sql`
    insert into appointments (doctor_user_id, patient_user_id, starts_at, ends_at, status, checked_in_at, admitted_at, started_at)
    select d.id, p.id, now() - interval '5 minutes', now() + interval '25 minutes', 'in_progress', now(), now(), now()
    from users d join users p on p.email = 'patient' || substring(d.email from 'doctor([0-9]+)@') || '@bench.test'
    where d.email like 'doctor%@bench.test'
    returning id, doctor_user_id, patient_user_id`);
  const rows = inserted as { rows: { id: string; doctor_user_id: string; patient_user_id: string }[] };
  const sessions: { token: string; appointmentId: string; userId: string }[] = [];
  for (const row of rows.rows) {
    for (const userId of [row.doctor_user_id, row.patient_user_id]) {
      sessions.push({ token: randomBytes(32).toString('base64url'), appointmentId: row.id, userId });
    }
  }
  const values = sessions.map(
    (session) =>
      sql`(${createHash('sha256').update(session.token).digest('hex')}, ${session.userId}, now(), now(), 86400, now() + interval '12 hours')`,
  );
  for (let index = 0; index < values.length; index += 1_000) {
    await db.db.execute(sql`
      insert into sessions (id, user_id, created_at, last_seen_at, idle_timeout_seconds, expires_at)
      values ${sql.join(values.slice(index, index + 1_000), sql`, `)}`);
  }
  await db.db.execute(sql`analyze`);
  return sessions.map(({ token, appointmentId }) => ({ token, appointmentId }));
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function pooled<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        await task(items[index] as T, index);
      }
    }),
  );
}

function open(port: number, cookie: string | null): Promise<Socket> {
  const socket = connect(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 20_000,
    extraHeaders: { origin, ...(cookie === null ? {} : { cookie }) },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/**
 * Sends `count` messages in waves of `waveSize` concurrent sends, each from
 * the next client in a stride that spreads them over every client; resolves
 * with each acknowledgement's latency in ms.
 */
async function measure(clients: readonly Client[], count: number, label: string): Promise<number[]> {
  const latencies: number[] = [];
  const stride = 7919; // a prime: consecutive sends land on clients far apart
  let sent = 0;
  while (sent < count) {
    const wave = Math.min(waveSize, count - sent);
    await Promise.all(
      Array.from({ length: wave }, (_, offset) => {
        const index = ((sent + offset) * stride) % clients.length;
        const client = clients[index] as Client;
        const payload = {
          appointmentId: client.appointmentId,
          clientId: `${label}-${sent + offset}`,
          body: `Mensaje ${sent + offset}: ¿cómo se encuentra hoy?`,
        };
        const at = performance.now();
        return (
          client.socket.timeout(30_000).emitWithAck('chat.send', payload) as Promise<{ ok: boolean }>
        ).then((result) => {
          if (!result.ok) {
            throw new Error(`chat.send refused: ${JSON.stringify(result)}`);
          }
          latencies.push(performance.now() - at);
        });
      }),
    );
    sent += wave;
  }
  return latencies;
}

async function run(
  db: DatabaseClient,
  databaseUrl: string,
  dataDir: string,
  tokens: readonly { token: string; appointmentId: string }[],
): Promise<void> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config/config.js');
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    APP_ORIGIN: origin,
    MFA_ENCRYPTION_KEY: 'benchmark-only-mfa-encryption-key-0123456789',
  });
  const app = await buildApp({ config, database: db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.server.address() as AddressInfo).port;

  // Baseline: Socket.IO with nothing but an acknowledged echo, same process, own port.
  const bareHttp = createServer();
  const bare = new Server(bareHttp, { serveClient: false });
  bare.on('connection', (socket) => {
    socket.on('chat.send', (payload: unknown, ack: unknown) => {
      if (typeof ack === 'function') {
        (ack as (result: unknown) => void)({ ok: true, data: payload });
      }
    });
  });
  await new Promise<void>((resolve) => bareHttp.listen(0, '127.0.0.1', resolve));
  const barePort = (bareHttp.address() as AddressInfo).port;

  const appClients: Client[] = [];
  const bareClients: Client[] = [];
  try {
    const connectStarted = performance.now();
    await pooled(tokens, 100, async (entry) => {
      const socket = await open(appPort, `tm_session=${entry.token}`);
      const joined = (await socket
        .timeout(30_000)
        .emitWithAck('visit.join', { appointmentId: entry.appointmentId, lastSeq: 0 })) as {
        ok: boolean;
        data?: { inCall: boolean };
      };
      if (!joined.ok || joined.data?.inCall !== true) {
        throw new Error(`visit.join failed: ${JSON.stringify(joined).slice(0, 300)}`);
      }
      appClients.push({ socket, appointmentId: entry.appointmentId });
    });
    await pooled(tokens, 100, async (entry) => {
      bareClients.push({ socket: await open(barePort, null), appointmentId: entry.appointmentId });
    });
    console.log(
      `${appClients.length.toLocaleString('en')} app clients connected and joined their visits, ` +
        `${bareClients.length.toLocaleString('en')} baseline clients connected ` +
        `(${((performance.now() - connectStarted) / 1000).toFixed(1)} s).`,
    );

    await measure(appClients, warmUpSends, 'warm-app');
    await measure(bareClients, warmUpSends, 'warm-bare');
    const appTimes: number[] = [];
    const bareTimes: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      appTimes.push(...(await measure(appClients, sendsPerRound, `app-${round}`)));
      bareTimes.push(...(await measure(bareClients, sendsPerRound, `bare-${round}`)));
    }
    const appFigures = summarise(appTimes);
    const bareFigures = summarise(bareTimes);
    console.log(
      `\n${rounds} alternating rounds of ${sendsPerRound.toLocaleString('en')} sends per server, in waves of ` +
        `${waveSize} concurrent sends spread over all clients, after ${warmUpSends} warm-up sends each.`,
    );
    console.table([
      {
        server: 'app: chat.send (stored with its sequence, pushed to the other participant)',
        sends: appTimes.length,
        'p50 ms': round(appFigures.p50),
        'p99 ms': round(appFigures.p99),
        'max ms': round(appFigures.max),
      },
      {
        server: 'baseline: bare Socket.IO, acknowledged echo',
        sends: bareTimes.length,
        'p50 ms': round(bareFigures.p50),
        'p99 ms': round(bareFigures.p99),
        'max ms': round(bareFigures.max),
      },
    ]);
    console.log(
      `machine: ${availableParallelism()} CPUs, load average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(' / ')} (1 / 5 / 15 min); server and clients share this process`,
    );
    const ratio = appFigures.p99 / Math.max(bareFigures.p99, 0.001);
    console.log(
      `\nchat acknowledgement p99 = ${round(appFigures.p99)} ms with ${appClients.length.toLocaleString('en')} ` +
        `connected clients; ` +
        `bare Socket.IO echo p99 = ${round(bareFigures.p99)} ms; ratio ${round(ratio)} ×.`,
    );
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        name: 'chat-ack',
        metrics: [
          {
            label: `chat.send ack p99, ${appClients.length} connected clients (baseline: bare Socket.IO echo p99)`,
            value: round(appFigures.p99),
            unit: 'ms',
            baseline: round(bareFigures.p99),
            ratio: round(ratio),
            target: null,
          },
          {
            label: 'chat.send ack p50 (baseline: bare Socket.IO echo p50)',
            value: round(appFigures.p50),
            unit: 'ms',
            baseline: round(bareFigures.p50),
            ratio: round(appFigures.p50 / Math.max(bareFigures.p50, 0.001)),
            target: null,
          },
        ],
      })}`,
    );
  } finally {
    for (const client of [...appClients, ...bareClients]) {
      client.socket.disconnect();
    }
    await bare.close();
    await app.close();
  }
}

await runUnderSourceCondition(import.meta.url, main);
