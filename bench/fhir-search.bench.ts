/**
 * FHIR Appointment and Observation searches on the built server with PostgreSQL and 100,000 appointments, against
 * the app's own REST list (GET /api/v1/appointments) asking the same, measured in the same run.
 *
 *   npm run bench:fhir           (builds the server first when its build is missing or stale)
 *   BENCH_USE_EXISTING_BUILD=true npm run bench:fhir   (measure apps/server/dist as it is)
 *   BENCH_FHIR_APPOINTMENTS=2000 BENCH_SECONDS=2 BENCH_ROUNDS=1 npm run bench:fhir   (a quick check)
 *   BENCH_DATABASE_URL=postgres://user@host:5432/db BENCH_CONNECTIONS=10 npm run bench:fhir
 *
 * The clinic (5,000 patients, 40 doctors, BENCH_FHIR_APPOINTMENTS appointments over two years) is
 * written with INSERT … SELECT into the database `telemedicina_bench_fhir` (dropped at the end,
 * also after a failure, unless BENCH_KEEP_DATABASE=true); the Bearer tokens come from real SMART
 * standalone launches (bench/support/fhir-bench-seed.ts). The server runs in a child process (this
 * file again with `--serve`, apps/server/dist as `npm start` runs it) so the clients never share
 * its event loop. BENCH_CONNECTIONS clients (10) send one request after another, for
 * BENCH_SECONDS per kind and API in BENCH_ROUNDS alternating rounds:
 *
 * - patient:       the doctor, Appointment?patient=<a patient they treat>  vs  ?patientId=
 * - date:          the doctor, Appointment?date=ge…&date=le… (30 days)     vs  ?from=&to=
 * - practitioner:  the doctor, Appointment?practitioner=<self>            vs  ?doctorId=
 * - paging:        the doctor, _count=50 and the `next` link, 10 pages      vs  page=1…10
 * - patient-self:  the patient's token, Appointment?patient=<self>        vs  their own list
 * - observation:   the doctor, Observation?patient=&category=vital-signs  vs  one visit's vitals
 *                  (GET /api/v1/appointments/:id/vitals: the app has no list of a patient's vitals)
 *
 * Every FHIR search does what a real one does: the token check, the care-relationship check, the
 * query with its total, and the audit event. Target (reported): FHIR p99 ≤ 50 ms at 10 clients.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { loadConfig as LoadConfig } from '../apps/server/src/config/config.js';
import type { startServer as StartServer } from '../apps/server/src/server.js';
import type { FhirBenchSetup } from './support/fhir-bench-seed.js';

const size = {
  appointments: Number(process.env.BENCH_FHIR_APPOINTMENTS ?? 100_000),
  patients: Number(process.env.BENCH_FHIR_PATIENTS ?? 5_000),
  doctors: Number(process.env.BENCH_FHIR_DOCTORS ?? 40),
};
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const warmUpSeconds = 1;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const serverUrl =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const databaseName = 'telemedicina_bench_fhir';
const keepDatabase = process.env.BENCH_KEEP_DATABASE === 'true';
const p99TargetMs = 50;
const pageSize = 20;
const pagingSize = 50;
const pagingPages = 10;
const root = fileURLToPath(new URL('..', import.meta.url));
const serverBuild = path.join(root, 'apps/server/dist');

const kinds = ['patient', 'date', 'practitioner', 'paging', 'patient-self', 'observation'] as const;
type Kind = (typeof kinds)[number];
type Api = 'fhir' | 'rest';

if (process.argv[2] === '--serve') {
  await serve();
} else {
  const { runUnderSourceCondition } = await import('./support/bench-kit.js');
  await runUnderSourceCondition(import.meta.url, main);
}

async function main(): Promise<void> {
  const { runStatement, buildServerIfStale } = await import('./support/bench-kit.js');
  const { openDatabase } = await import('../apps/server/src/db/client.js');
  const { seedSystemData } = await import('../apps/server/src/db/seed.js');
  const { seedFhirBench } = await import('./support/fhir-bench-seed.js');
  buildServerIfStale();
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-bench-fhir-'));
  await runStatement(serverUrl, `DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`);
  await runStatement(serverUrl, `CREATE DATABASE "${databaseName}"`);
  try {
    const db = await openDatabase({ kind: 'postgres', url: url.toString() });
    let setup: FhirBenchSetup;
    try {
      await db.migrate();
      await seedSystemData(db.db, new Date());
      setup = await seedFhirBench(db, url.toString(), dataDir, size);
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

/** One request of a kind: its path and the headers of the API's credentials. */
interface Request {
  path: string;
  headers: Record<string, string>;
}

/** Builds the requests of each kind and API; `pick` varies patients and dates between requests. */
function requestsFor(setup: FhirBenchSetup) {
  const doctorBearer = { authorization: `Bearer ${setup.doctorBearer}`, accept: 'application/fhir+json' };
  const patientBearer = { authorization: `Bearer ${setup.patientBearer}`, accept: 'application/fhir+json' };
  const doctorCookie = { cookie: `tm_session=${setup.doctorSession}` };
  const patientCookie = { cookie: `tm_session=${setup.patientSession}` };
  const first = new Date(setup.firstStart).getTime();
  const span = new Date(setup.lastStart).getTime() - first - 30 * 86_400_000;
  const pickPatient = () =>
    setup.treatedPatientIds[Math.floor(Math.random() * setup.treatedPatientIds.length)]!;
  const pickVisit = () => setup.treatedVisits[Math.floor(Math.random() * setup.treatedVisits.length)]!;
  const pickMonth = () => {
    const from = new Date(first + Math.floor(Math.random() * Math.max(span, 1)));
    return { from: from.toISOString(), to: new Date(from.getTime() + 30 * 86_400_000).toISOString() };
  };
  const fhir = (query: string) => `/fhir/R4/Appointment?${query}`;
  const rest = (query: string) => `/api/v1/appointments?${query}`;
  return {
    patient: {
      fhir: (): Request => ({
        path: fhir(`patient=Patient/${pickPatient()}&_count=${pageSize}`),
        headers: doctorBearer,
      }),
      rest: (): Request => ({
        path: rest(`patientId=${pickPatient()}&pageSize=${pageSize}`),
        headers: doctorCookie,
      }),
    },
    date: {
      fhir: (): Request => {
        const { from, to } = pickMonth();
        return {
          path: fhir(
            `date=ge${encodeURIComponent(from)}&date=le${encodeURIComponent(to)}&_count=${pageSize}`,
          ),
          headers: doctorBearer,
        };
      },
      rest: (): Request => {
        const { from, to } = pickMonth();
        return {
          path: rest(`from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&pageSize=${pageSize}`),
          headers: doctorCookie,
        };
      },
    },
    practitioner: {
      fhir: (): Request => ({
        path: fhir(`practitioner=Practitioner/${setup.doctorId}&_count=${pageSize}`),
        headers: doctorBearer,
      }),
      rest: (): Request => ({
        path: rest(`doctorId=${setup.doctorId}&pageSize=${pageSize}`),
        headers: doctorCookie,
      }),
    },
    paging: {
      fhir: (): Request => ({
        path: fhir(`practitioner=Practitioner/${setup.doctorId}&_count=${pagingSize}`),
        headers: doctorBearer,
      }),
      rest: (): Request => ({
        path: rest(`doctorId=${setup.doctorId}&pageSize=${pagingSize}&page=1`),
        headers: doctorCookie,
      }),
    },
    'patient-self': {
      fhir: (): Request => ({
        path: fhir(`patient=Patient/${setup.patientId}&_count=${pageSize}`),
        headers: patientBearer,
      }),
      rest: (): Request => ({ path: rest(`pageSize=${pageSize}`), headers: patientCookie }),
    },
    observation: {
      fhir: (): Request => ({
        path: `/fhir/R4/Observation?patient=Patient/${pickVisit().patientId}&category=vital-signs&_count=${pageSize}`,
        headers: doctorBearer,
      }),
      rest: (): Request => ({
        path: `/api/v1/appointments/${pickVisit().appointmentId}/vitals`,
        headers: doctorCookie,
      }),
    },
  } satisfies Record<Kind, Record<Api, () => Request>>;
}

/** The next page of a paging walk: the Bundle's `next` link (path only), or REST's page + 1. */
function nextPage(api: Api, current: string, body: string, page: number): string | null {
  if (page >= pagingPages) {
    return null;
  }
  if (api === 'fhir') {
    const bundle = JSON.parse(body) as { link?: { relation: string; url: string }[] };
    const next = bundle.link?.find((link) => link.relation === 'next')?.url;
    if (next === undefined) {
      return null;
    }
    const url = new URL(next);
    return `${url.pathname}${url.search}`;
  }
  const list = JSON.parse(body) as { total: number };
  return page * pagingSize < list.total ? current.replace(/page=\d+$/u, `page=${page + 1}`) : null;
}

interface Sample {
  times: number[];
  failures: number;
  firstFailure: string | null;
  /** Entries answered per request (to show both APIs answered alike). */
  entries: number;
}

/** `connections` clients, each sending one request after another for `duration` seconds. */
async function load(base: string, api: Api, kind: Kind, make: () => Request, duration: number) {
  const sample: Sample = { times: [], failures: 0, firstFailure: null, entries: 0 };
  const until = performance.now() + duration * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const request = make();
      let target: string | null = request.path;
      let page = 1;
      while (target !== null && performance.now() < until) {
        const started = performance.now();
        const response: Response = await fetch(`${base}${target}`, { headers: request.headers });
        const body: string = await response.text();
        const elapsed = performance.now() - started;
        if (response.status !== 200) {
          sample.failures += 1;
          sample.firstFailure ??= `${api} ${kind} ${target} answered ${response.status}: ${body.slice(0, 300)}`;
          break;
        }
        sample.times.push(elapsed);
        const parsed = JSON.parse(body) as { entry?: unknown[]; data?: unknown[]; vitals?: unknown };
        const answered =
          api === 'fhir' ? parsed.entry : (parsed.data ?? (parsed.vitals ? [parsed.vitals] : []));
        sample.entries += answered?.length ?? 0;
        target = kind === 'paging' ? nextPage(api, target, body, page) : null;
        page += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, client));
  return sample;
}

async function measure(setup: FhirBenchSetup, databaseUrl: string, dataDir: string): Promise<void> {
  const { summarise, round } = await import('./support/bench-kit.js');
  const { benchMfaKey, benchPublicOrigin } = await import('./support/fhir-bench-seed.js');
  // The same origin and key as the seeding app: the tokens' audience and the second factors.
  const server = await startChild({
    BENCH_FHIR_DATABASE_URL: databaseUrl,
    BENCH_FHIR_DATA_DIR: dataDir,
    BENCH_FHIR_ORIGIN: benchPublicOrigin,
    BENCH_FHIR_MFA_KEY: benchMfaKey,
  });
  const base = `http://127.0.0.1:${server.port}`;
  const requests = requestsFor(setup);
  const samples = new Map<string, Sample[]>();
  console.log(
    `\n${connections} clients per kind and API, ${rounds} round(s) of ${seconds} s each, alternating FHIR and ` +
      `REST, after ${warmUpSeconds} s of warm-up; the server runs in its own process.`,
  );
  try {
    // Probes: each API answers 200 with entries, and the FHIR API refuses a request without a token.
    for (const kind of kinds) {
      for (const api of ['fhir', 'rest'] as const) {
        const probe = await load(base, api, kind, requests[kind][api], 0.001);
        if (probe.failures > 0 || probe.entries === 0) {
          throw new Error(probe.firstFailure ?? `${api} ${kind} answered no entries`);
        }
        await load(base, api, kind, requests[kind][api], warmUpSeconds);
      }
    }
    const refused = await fetch(`${base}/fhir/R4/Appointment?patient=Patient/${setup.patientId}`);
    await refused.text();
    if (refused.status !== 401) {
      throw new Error(`FHIR answered ${refused.status} without a token (expected 401)`);
    }
    for (let index = 0; index < rounds; index += 1) {
      for (const kind of kinds) {
        for (const api of ['fhir', 'rest'] as const) {
          const sample = await load(base, api, kind, requests[kind][api], seconds);
          samples.set(`${kind} ${api}`, [...(samples.get(`${kind} ${api}`) ?? []), sample]);
        }
      }
    }
  } finally {
    // Requests cut off when a run ended may still be running in the server: let them finish.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await server.stop();
  }

  const figuresOf = (kind: Kind, api: Api) => {
    const runs = samples.get(`${kind} ${api}`) ?? [];
    const times = runs.flatMap((run) => run.times);
    const entries = runs.reduce((sum, run) => sum + run.entries, 0);
    return {
      ...summarise(times),
      perSecond: times.length / (runs.length * seconds),
      entriesPerRequest: times.length === 0 ? 0 : entries / times.length,
      failures: runs.reduce((sum, run) => sum + run.failures, 0),
      firstFailure: runs.find((run) => run.firstFailure !== null)?.firstFailure ?? null,
    };
  };
  const rows = kinds.map((kind) => ({ kind, fhir: figuresOf(kind, 'fhir'), rest: figuresOf(kind, 'rest') }));
  console.table(
    rows.flatMap(({ kind, fhir, rest }) =>
      (['fhir', 'rest'] as const).map((api) => {
        const row = api === 'fhir' ? fhir : rest;
        return {
          kind,
          api,
          'req/s': Math.round(row.perSecond),
          'p50 ms': round(row.p50),
          'p95 ms': round(row.p95),
          'p99 ms': round(row.p99),
          'max ms': round(row.max),
          'entries/req': round(row.entriesPerRequest),
          failures: row.failures,
        };
      }),
    ),
  );
  for (const { kind, fhir, rest } of rows) {
    console.log(
      `${kind.padEnd(13)} FHIR/REST: p50 ${(fhir.p50 / rest.p50).toFixed(2)}, p99 ${(fhir.p99 / rest.p99).toFixed(2)}, ` +
        `req/s ${(fhir.perSecond / rest.perSecond).toFixed(2)}; FHIR p99 ${round(fhir.p99)} ms ` +
        `${fhir.p99 <= p99TargetMs ? 'meets' : 'ABOVE'} the ${p99TargetMs} ms target`,
    );
  }
  console.log(
    `Machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}; ${size.appointments} appointments, ${size.patients} patients, ${size.doctors} doctors.`,
  );
  const failed = rows.flatMap(({ fhir, rest }) => [fhir.firstFailure, rest.firstFailure]).filter(Boolean);
  if (failed.length > 0) {
    console.log(`WARNING: errors during the run; the figures are not meaningful. First: ${failed[0]}`);
    process.exitCode = 1;
  }
  const two = (value: number) => Number(value.toFixed(2));
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      name: 'fhir-search',
      metrics: rows.flatMap(({ kind, fhir, rest }) => [
        {
          label: `Appointment ${kind} p99 at ${connections} clients (baseline REST list), ${size.appointments} appointments`,
          value: round(fhir.p99),
          unit: 'ms',
          baseline: round(rest.p99),
          ratio: rest.p99 > 0 ? two(fhir.p99 / rest.p99) : null,
          target: `≤ ${p99TargetMs} ms`,
          met: fhir.p99 <= p99TargetMs,
        },
        {
          label: `Appointment ${kind} req/s (baseline REST list)`,
          value: Math.round(fhir.perSecond),
          unit: 'req/s',
          baseline: Math.round(rest.perSecond),
          ratio: rest.perSecond > 0 ? two(fhir.perSecond / rest.perSecond) : null,
          target: null,
        },
      ]),
    })}`,
  );
}

/** Starts this file as `--serve` on plain Node (no TypeScript loader, no source condition). */
async function startChild(env: Record<string, string>): Promise<{ port: number; stop: () => Promise<void> }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--enable-source-maps'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the server exited early (code ${code})`)));
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

async function serve(): Promise<void> {
  const { loadConfig } = (await import(pathToFileURL(path.join(serverBuild, 'config/config.js')).href)) as {
    loadConfig: typeof LoadConfig;
  };
  const { startServer } = (await import(pathToFileURL(path.join(serverBuild, 'server.js')).href)) as {
    startServer: typeof StartServer;
  };
  const config = loadConfig({
    DATABASE_URL: process.env.BENCH_FHIR_DATABASE_URL ?? '',
    DATA_DIR: process.env.BENCH_FHIR_DATA_DIR ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    REALTIME_PORT: '0',
    PUBLIC_ORIGIN: process.env.BENCH_FHIR_ORIGIN ?? '',
    SEED_DEMO: 'false',
    MFA_ENCRYPTION_KEY: process.env.BENCH_FHIR_MFA_KEY ?? '',
    // Request logs would measure the terminal, not the server.
    LOG_LEVEL: 'warn',
  });
  const running = await startServer(config);
  const port = (running.app.server.address() as AddressInfo).port;
  process.on('message', (message) => {
    if (message === 'stop') {
      void running.close().then(() => process.exit(0));
    }
  });
  process.send?.({ port });
}
