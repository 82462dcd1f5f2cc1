/**
 * An authenticated chart read — GET /api/v1/patients/:id/chart by the treating doctor — on the
 * built app with PostgreSQL, against a bare node:http server answering the same JSON after a
 * cookie check, measured in the same run with autocannon.
 *
 *   npm run bench:chart         (builds the server first when its build is missing or stale)
 *   BENCH_USE_EXISTING_BUILD=true npm run bench:chart   (measure apps/server/dist as it is)
 *   BENCH_DATABASE_URL=postgres://user@host:5432/db BENCH_ROUNDS=3 BENCH_SECONDS=3 BENCH_CONNECTIONS=10 npm run bench:chart
 *
 * The chart is a realistic one: 4 allergies, 5 conditions, 6 medications, 20 past visits with the
 * doctor, 8 prescriptions. It is written through the app's own API (source, in this process) into
 * the database `telemedicina_bench_chart` (dropped at the end, also after a failure, unless
 * BENCH_KEEP_DATABASE=true); then two children are forked — this file again with
 * `--serve app|bare` — so the load generator never shares an event loop with the server it
 * measures: the app child runs apps/server/dist (what `npm start` runs) on that database; the
 * bare child answers the JSON the app answered, after checking the session cookie. Each app read
 * does what a real one does: session lookup, care-relationship check, the chart queries, the
 * `record.viewed` audit event (one INSERT per read). The ratio is reported without a target (the bare
 * server reads no database at all); target (reported, not asserted): p99 ≤ 100 ms at 10 connections.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { loadConfig as LoadConfig } from '../apps/server/src/config/config.js';
import type { startServer as StartServer } from '../apps/server/src/server.js';
import type { DatabaseClient } from '../apps/server/src/db/client.js';

type ServerKind = 'app' | 'bare';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const warmUpSeconds = 1;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const databaseName = 'telemedicina_bench_chart';
const keepDatabase = process.env.BENCH_KEEP_DATABASE === 'true';
const p99TargetMs = 100;
const root = fileURLToPath(new URL('..', import.meta.url));
const serverBuild = path.join(root, 'apps/server/dist');
const sessionCookie = 'tm_session';
const mfaKey = 'benchmark-only-mfa-encryption-key-0123456789';

/** What the parent hands the bare child: the JSON to answer and the session it accepts. */
interface BareSetup {
  body: string;
  token: string;
  chartPath: string;
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] === 'app' ? 'app' : 'bare');
} else {
  const { runUnderSourceCondition } = await import('./support/bench-kit.js');
  await runUnderSourceCondition(import.meta.url, main);
}

async function main(): Promise<void> {
  const { runStatement } = await import('./support/bench-kit.js');
  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { seedSystemData } = await import('../apps/server/src/db/seed.js');
  const { buildServerIfStale } = await import('./support/bench-kit.js');
  buildServerIfStale();
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-bench-chart-'));
  await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await runStatement(serverUrl, `CREATE DATABASE "${databaseName}"`);
  try {
    const db = await openDatabase({ kind: 'postgres', url: url.toString() });
    let setup: BareSetup;
    try {
      await db.migrate();
      await seedSystemData(db.db, new Date());
      setup = await seedChart(db, url.toString(), dataDir);
    } finally {
      await db.close();
    }
    await measure(setup, url.toString(), dataDir);
  } finally {
    if (!keepDatabase) {
      await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * Writes the chart through the app's API (in this process, from source), signs the doctor in and
 * reads the chart once: that JSON is what the bare server answers.
 */
async function seedChart(db: DatabaseClient, databaseUrl: string, dataDir: string): Promise<BareSetup> {
  const { buildApp } = await import('../apps/server/src/app.js');
  const { loadConfig } = await import('../apps/server/src/config/config.js');
  const { createUser, signIn, createAppointment } = await import('../apps/server/src/test/factories.js');
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    MFA_ENCRYPTION_KEY: mfaKey,
  });
  const app = await buildApp({ config, database: db });
  try {
    const doctor = await createUser(app, { roles: ['doctor'], name: 'Dra. Elena Banco', hasMfa: true });
    const otherDoctor = await createUser(app, { roles: ['doctor'], name: 'Dr. Mario Banco' });
    const patient = await createUser(app, { roles: ['patient'], name: 'Paciente Banco Gráfico' });
    const now = Date.now();
    const visits: string[] = [];
    for (let index = 0; index < 20; index += 1) {
      const row = await createAppointment(app, {
        doctorId: index % 4 === 3 ? otherDoctor.id : doctor.id,
        patientId: patient.id,
        startsAt: new Date(now - (index + 1) * 14 * 86_400_000),
        status: 'completed',
        startedAt: new Date(now - (index + 1) * 14 * 86_400_000),
        endedAt: new Date(now - (index + 1) * 14 * 86_400_000 + 25 * 60_000),
      });
      visits.push(row.id);
    }
    const signedIn = await signIn(app, doctor);
    const send = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const response = await app.inject({
        method,
        url,
        headers: signedIn.headers,
        payload: payload as object,
      });
      if (response.statusCode >= 300) {
        throw new Error(`${method} ${url} answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      }
      return response;
    };
    const base = `/api/v1/patients/${patient.id}`;
    const allergies = [
      { substance: 'Penicilina', reaction: 'Urticaria generalizada', severity: 'severe' },
      { substance: 'Ibuprofeno', reaction: 'Broncoespasmo', severity: 'moderate' },
      { substance: 'Látex', reaction: 'Dermatitis de contacto', severity: 'mild' },
      { substance: 'Polen de olivo', severity: 'unknown' },
    ];
    for (const allergy of allergies) {
      await send('POST', `${base}/allergies`, allergy);
    }
    const conditions = [
      { description: 'Hipertensión arterial esencial', onsetDate: '2018-03-01' },
      { description: 'Diabetes mellitus tipo 2', onsetDate: '2020-06-15' },
      { description: 'Hipercolesterolemia', onsetDate: '2019-01-10' },
      { description: 'Asma leve intermitente', status: 'resolved' },
      { description: 'Lumbalgia mecánica', status: 'resolved' },
    ];
    for (const condition of conditions) {
      await send('POST', `${base}/conditions`, condition);
    }
    const medications = [
      { name: 'Enalapril 10 mg', dose: '1 comprimido', frequency: 'cada 12 horas', startedOn: '2018-03-05' },
      {
        name: 'Metformina 850 mg',
        dose: '1 comprimido',
        frequency: 'con desayuno y cena',
        startedOn: '2020-06-20',
      },
      {
        name: 'Atorvastatina 20 mg',
        dose: '1 comprimido',
        frequency: 'por la noche',
        startedOn: '2019-02-01',
      },
      { name: 'Salbutamol inhalador', dose: '2 inhalaciones', frequency: 'si precisa' },
      { name: 'Omeprazol 20 mg', dose: '1 cápsula', frequency: 'en ayunas', startedOn: '2021-09-01' },
      {
        name: 'Paracetamol 1 g',
        dose: '1 comprimido',
        frequency: 'cada 8 horas si dolor',
        stoppedOn: '2024-01-10',
      },
    ];
    for (const medication of medications) {
      await send('POST', `${base}/medications`, medication);
    }
    for (let index = 0; index < 8; index += 1) {
      await send('POST', `${base}/prescriptions`, {
        appointmentId: visits[index * 2],
        items: [
          {
            medication: index % 2 === 0 ? 'Amoxicilina 500 mg cápsulas' : 'Ibuprofeno 400 mg comprimidos',
            dose: '1 unidad',
            route: 'Oral',
            frequency: 'Cada 8 horas',
            duration: '7 días',
            quantity: '21 unidades',
            instructions: 'Tomar con alimentos',
          },
          {
            medication: 'Paracetamol 1 g comprimidos',
            dose: '1 comprimido',
            route: 'Oral',
            frequency: 'Cada 8 horas si fiebre',
            duration: '5 días',
            quantity: '15 comprimidos',
          },
        ],
        notes: 'Control en una semana.',
      });
    }
    const chartPath = `${base}/chart`;
    const chart = await send('GET', chartPath);
    const parsed = JSON.parse(chart.body) as {
      visits: unknown[];
      clinical: {
        allergies: unknown[];
        conditions: unknown[];
        medications: unknown[];
        prescriptions: unknown[];
      } | null;
    };
    if (parsed.clinical === null) {
      throw new Error('The treating doctor got no clinical part of the chart');
    }
    const { clinical } = parsed;
    console.log(
      `Chart of one patient: ${clinical.allergies.length} allergies, ${clinical.conditions.length} conditions, ` +
        `${clinical.medications.length} medications, ${parsed.visits.length} visits, ` +
        `${clinical.prescriptions.length} prescriptions; ${(chart.body.length / 1024).toFixed(1)} KiB of JSON ` +
        `(database ${databaseName} on ${new URL(databaseUrl).host}).`,
    );
    return { body: chart.body, token: signedIn.token, chartPath };
  } finally {
    await app.close();
  }
}

async function measure(setup: BareSetup, databaseUrl: string, dataDir: string): Promise<void> {
  const require = createRequire(import.meta.url);
  const autocannon = require('autocannon') as Autocannon;
  console.log(
    `GET /api/v1/patients/:id/chart as the treating doctor: ${connections} connections; ${rounds} rounds of ` +
      `${seconds} s per server, alternating, after ${warmUpSeconds} s of warm-up each. Each server runs in ` +
      `its own process; autocannon in this one.\n`,
  );
  const servers = {
    bare: await startChild('bare', { BENCH_CHART_SETUP: JSON.stringify(setup) }),
    app: await startChild('app', { BENCH_CHART_DATABASE_URL: databaseUrl, BENCH_CHART_DATA_DIR: dataDir }),
  };
  const headers = { cookie: `${sessionCookie}=${setup.token}` };
  const results: Record<ServerKind, AutocannonResult[]> = { bare: [], app: [] };
  try {
    for (const kind of ['bare', 'app'] as const) {
      const url = `http://127.0.0.1:${servers[kind].port}${setup.chartPath}`;
      const probe = await fetch(url, { headers });
      const text = await probe.text();
      if (probe.status !== 200) {
        throw new Error(`${kind} answered ${probe.status}: ${text.slice(0, 300)}`);
      }
      const refused = await fetch(url);
      await refused.text();
      if (refused.status !== 401) {
        throw new Error(`${kind} answered ${refused.status} without a session (expected 401)`);
      }
      await autocannon({ url, connections, duration: warmUpSeconds, headers });
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const kind of ['bare', 'app'] as const) {
        const url = `http://127.0.0.1:${servers[kind].port}${setup.chartPath}`;
        results[kind].push(await autocannon({ url, connections, duration: seconds, headers }));
      }
    }
  } finally {
    // Requests cut off when a round ended may still be running in the app: let them finish.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await Promise.all([servers.bare.stop(), servers.app.stop()]);
  }

  const summary = (kind: ServerKind) => {
    const runs = results[kind];
    const total = runs.reduce((sum, run) => sum + run.requests.total, 0);
    return {
      requestsPerSecond: total / (runs.length * seconds),
      p99: Math.max(...runs.map((run) => run.latency.p99)),
      p50: Math.max(...runs.map((run) => run.latency.p50)),
      total,
      failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors + run.timeouts, 0),
    };
  };
  const bare = summary('bare');
  const app = summary('app');
  console.table(
    (['bare', 'app'] as const).map((kind) => {
      const row = kind === 'bare' ? bare : app;
      return {
        server:
          kind === 'bare' ? 'bare node:http (cookie check + same JSON)' : 'Telemedicina app (PostgreSQL)',
        'req/s': Math.round(row.requestsPerSecond),
        'p50 ms (worst round)': row.p50,
        'p99 ms (worst round)': row.p99,
        requests: row.total,
        'non-2xx/errors': row.failures,
      };
    }),
  );
  const ratio = app.requestsPerSecond / bare.requestsPerSecond;
  const roundRatios = results.app.map(
    (run, index) => run.requests.average / results.bare[index]!.requests.average,
  );
  console.log(
    `\nratio app / bare (req/s): ${ratio.toFixed(3)} (per round: ${roundRatios.map((value) => value.toFixed(3)).join(', ')})`,
  );
  // Per round, so one stalled round (another process on the machine) shows as such.
  console.log(
    `p99 per round (ms): app ${results.app.map((run) => run.latency.p99).join(', ')}; ` +
      `bare ${results.bare.map((run) => run.latency.p99).join(', ')}`,
  );
  console.log(
    `p99 latency: app ${app.p99} ms vs bare ${bare.p99} ms — ${app.p99 <= p99TargetMs ? 'meets' : 'ABOVE'} ` +
      `the ${p99TargetMs} ms target`,
  );
  if (app.failures > 0 || bare.failures > 0) {
    console.log('WARNING: a server answered errors during the run; the figures are not meaningful.');
    process.exitCode = 1;
  }
  const two = (value: number) => Number(value.toFixed(3));
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      name: 'chart-read',
      metrics: [
        {
          label: 'GET /patients/:id/chart req/s (baseline bare node:http)',
          value: Math.round(app.requestsPerSecond),
          unit: 'req/s',
          baseline: Math.round(bare.requestsPerSecond),
          ratio: two(ratio),
          // Reported: a bare server that reads no database is a floor, not a goal.
          target: null,
        },
        {
          label: 'GET /patients/:id/chart p99 (worst round)',
          value: app.p99,
          unit: 'ms',
          baseline: bare.p99,
          ratio: bare.p99 > 0 ? two(app.p99 / bare.p99) : null,
          target: `≤ ${p99TargetMs} ms`,
        },
      ],
    })}`,
  );
}

/** Starts this file as `--serve <kind>` on plain Node (no TypeScript loader, no source condition). */
async function startChild(
  kind: ServerKind,
  env: Record<string, string>,
): Promise<{ port: number; stop: () => Promise<void> }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', kind], {
    execArgv: ['--enable-source-maps'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} server exited early (code ${code})`)));
  });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

/** The value of one cookie in a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === name) {
      return part.slice(index + 1).trim();
    }
  }
  return null;
}

async function serve(kind: ServerKind): Promise<void> {
  let close: () => Promise<void>;
  let port: number;
  if (kind === 'bare') {
    const setup = JSON.parse(process.env.BENCH_CHART_SETUP ?? '{}') as BareSetup;
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url !== setup.chartPath) {
        response.writeHead(404).end();
        return;
      }
      if (cookieValue(request.headers.cookie, sessionCookie) !== setup.token) {
        response.writeHead(401, { 'content-type': 'application/json; charset=utf-8' });
        response.end('{"error":{"code":"UNAUTHENTICATED","message":"Sign in."}}');
        return;
      }
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(setup.body),
      });
      response.end(setup.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  } else {
    const { loadConfig } = (await import(pathToFileURL(path.join(serverBuild, 'config/config.js')).href)) as {
      loadConfig: typeof LoadConfig;
    };
    const { startServer } = (await import(pathToFileURL(path.join(serverBuild, 'server.js')).href)) as {
      startServer: typeof StartServer;
    };
    const config = loadConfig({
      DATABASE_URL: process.env.BENCH_CHART_DATABASE_URL ?? '',
      DATA_DIR: process.env.BENCH_CHART_DATA_DIR ?? '',
      HOST: '127.0.0.1',
      PORT: '0',
      REALTIME_PORT: '0',
      SEED_DEMO: 'false',
      MFA_ENCRYPTION_KEY: mfaKey,
      // Request logs would measure the terminal, not the server.
      LOG_LEVEL: 'warn',
    });
    const running = await startServer(config);
    port = (running.app.server.address() as AddressInfo).port;
    close = () => running.close();
  }
  process.on('message', (message) => {
    if (message === 'stop') {
      void close().then(() => process.exit(0));
    }
  });
  process.send?.({ port });
}
