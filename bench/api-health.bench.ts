/**
 * GET /api/v1/health on the real app against a bare node:http server
 * answering the same JSON, measured in the same run with autocannon.
 *
 *   npm run bench:api          (builds the server first when its build is missing or stale)
 *   BENCH_ROUNDS=3 BENCH_SECONDS=3 BENCH_CONNECTIONS=50 npm run bench:api
 *
 * Each server runs in its own child process (this file again, with
 * `--serve <kind>`), so the load generator never shares an event loop with
 * the server it measures. Both children run on plain Node, as `npm start`
 * runs the server: the app is the build in apps/server/dist (no TypeScript
 * loader in the measured process), and this file's own types are stripped by
 * Node. Target (reported, not asserted): app ≥ 0.75 × bare requests/s.
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
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const warmUpSeconds = 1;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const healthPath = '/api/v1/health';
const root = fileURLToPath(new URL('..', import.meta.url));
/** The server build the app child runs (what `npm start` runs). */
const serverBuild = path.join(root, 'apps/server/dist');
/** Flags of both children: the one `npm start` gives the server. */
const childExecArgv = ['--enable-source-maps'];

const descriptions: Record<ServerKind, string> = {
  bare:
    'node:http writing the same JSON (status, version, uptime, database kind, roundTripMs 0, checkedAt); ' +
    'no database, no security headers, no routing',
  app:
    'the built app (fastify, development settings): routing, request id, security headers (CSP, ' +
    'Permissions-Policy…), access check, response written by the serializer compiled from its zod schema, ' +
    'database check: a real PGlite `select 1`, reused for up to 1 s; logs at warn (a line per request ' +
    'would measure the terminal)',
};

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] === 'app' ? 'app' : 'bare');
} else {
  await main();
}

async function main(): Promise<void> {
  const require = createRequire(import.meta.url);
  const autocannon = require('autocannon') as Autocannon;
  const { buildServerIfStale } = await import('./support/bench-kit.js');
  buildServerIfStale();

  console.log(
    `GET ${healthPath}: ${connections} connections; ${rounds} rounds of ${seconds} s per server, alternating, ` +
      `after ${warmUpSeconds} s of warm-up each. Each server runs in its own process; autocannon in this one.\n`,
  );
  const servers = { bare: await startChild('bare'), app: await startChild('app') };
  const results: Record<ServerKind, AutocannonResult[]> = { bare: [], app: [] };
  /** CPU time (user + system) each server spent during its rounds, µs. */
  const cpuMicros: Record<ServerKind, number> = { bare: 0, app: 0 };
  try {
    for (const kind of ['bare', 'app'] as const) {
      const url = `http://127.0.0.1:${servers[kind].port}${healthPath}`;
      const probe = await fetch(url);
      if (probe.status !== 200) {
        throw new Error(`${kind} answered ${probe.status} to ${healthPath}`);
      }
      await probe.text();
      await autocannon({ url, connections, duration: warmUpSeconds });
    }
    // Alternating short rounds: a noisy neighbour slows both sides alike.
    for (let round = 0; round < rounds; round += 1) {
      for (const kind of ['bare', 'app'] as const) {
        const url = `http://127.0.0.1:${servers[kind].port}${healthPath}`;
        const cpuBefore = await servers[kind].cpuMicros();
        results[kind].push(await autocannon({ url, connections, duration: seconds }));
        cpuMicros[kind] += (await servers[kind].cpuMicros()) - cpuBefore;
      }
    }
  } finally {
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
      cpuPerRequest: cpuMicros[kind] / total,
      failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors + run.timeouts, 0),
    };
  };
  const bare = summary('bare');
  const app = summary('app');
  console.table(
    (['bare', 'app'] as const).map((kind) => {
      const row = kind === 'bare' ? bare : app;
      return {
        server: kind === 'bare' ? 'bare node:http' : 'Telemedicina app',
        'req/s': Math.round(row.requestsPerSecond),
        'p50 ms (worst round)': row.p50,
        'p99 ms (worst round)': row.p99,
        requests: row.total,
        'CPU µs/req': Number(row.cpuPerRequest.toFixed(1)),
        'non-2xx/errors': row.failures,
      };
    }),
  );
  for (const kind of ['bare', 'app'] as const) {
    console.log(`  ${kind === 'bare' ? 'bare node:http  ' : 'Telemedicina app'}: ${descriptions[kind]}`);
  }
  const ratio = app.requestsPerSecond / bare.requestsPerSecond;
  const roundRatios = results.app.map(
    (run, index) => run.requests.average / results.bare[index]!.requests.average,
  );
  const sortedRatios = [...roundRatios].sort((a, b) => a - b);
  const medianRatio = sortedRatios[Math.floor((sortedRatios.length - 1) / 2)]!;
  const verdict = ratio >= 0.75 ? 'meets' : 'BELOW';
  console.log(
    `\nratio app / bare (req/s): ${ratio.toFixed(2)} — ${verdict} the 0.75 target ` +
      `(per round: ${roundRatios.map((value) => value.toFixed(2)).join(', ')}; median ${medianRatio.toFixed(2)})`,
  );
  console.log(`p99 latency: app ${app.p99} ms vs bare ${bare.p99} ms`);
  // Throughput also depends on how the machine shares its cores between the server and autocannon;
  // the CPU each server spends per answer does not, so it is the steadier figure on a busy machine.
  console.log(
    `server CPU per request: app ${app.cpuPerRequest.toFixed(1)} µs vs bare ${bare.cpuPerRequest.toFixed(1)} µs ` +
      `(bare / app: ${(bare.cpuPerRequest / app.cpuPerRequest).toFixed(2)})`,
  );
  if (app.failures > 0) {
    console.log('WARNING: the app answered errors during the run; the figures are not meaningful.');
    process.exitCode = 1;
  }
  const twoDecimals = (value: number) => Number(value.toFixed(2));
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      name: 'api-health',
      metrics: [
        {
          label: `GET ${healthPath} req/s (baseline bare node:http)`,
          value: Math.round(app.requestsPerSecond),
          unit: 'req/s',
          baseline: Math.round(bare.requestsPerSecond),
          ratio: twoDecimals(ratio),
          target: '≥ 0.75 × bare',
        },
        {
          label: `GET ${healthPath} server CPU per request (ratio app / bare)`,
          value: Number(app.cpuPerRequest.toFixed(1)),
          unit: 'µs',
          baseline: Number(bare.cpuPerRequest.toFixed(1)),
          ratio: twoDecimals(app.cpuPerRequest / bare.cpuPerRequest),
          target: null,
        },
        {
          label: `GET ${healthPath} p99 (worst round)`,
          value: app.p99,
          unit: 'ms',
          baseline: bare.p99,
          ratio: bare.p99 > 0 ? twoDecimals(app.p99 / bare.p99) : null,
          target: null,
        },
      ],
    })}`,
  );
}

/** Starts this file as `--serve <kind>` on plain Node and waits for the port it listens on. */
async function startChild(
  kind: ServerKind,
): Promise<{ port: number; cpuMicros: () => Promise<number>; stop: () => Promise<void> }> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', kind], {
    execArgv: childExecArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} server exited early (code ${code})`)));
  });
  return {
    port,
    cpuMicros: () =>
      new Promise<number>((resolve) => {
        child.once('message', (message) => resolve((message as { cpuMicros: number }).cpuMicros));
        child.send('cpu');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
      }),
  };
}

async function serve(kind: ServerKind): Promise<void> {
  const startedAt = Date.now();
  let close: () => Promise<void>;
  let port: number;
  if (kind === 'bare') {
    // The same body as the app's: its database check is a second old at most, so is this one.
    let checkedAt = new Date();
    const refresh = setInterval(() => {
      checkedAt = new Date();
    }, 1_000);
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url !== healthPath) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.stringify({
        status: 'ok',
        version: '0.1.0',
        uptimeSeconds: (Date.now() - startedAt) / 1000,
        database: { kind: 'pglite', roundTripMs: 0, checkedAt: checkedAt.toISOString() },
      });
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
    server.on('close', () => clearInterval(refresh));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  } else {
    // The build, not the sources: this process has no TypeScript loader.
    const { loadConfig } = (await import(pathToFileURL(path.join(serverBuild, 'config/config.js')).href)) as {
      loadConfig: typeof LoadConfig;
    };
    const { startServer } = (await import(pathToFileURL(path.join(serverBuild, 'server.js')).href)) as {
      startServer: typeof StartServer;
    };
    const dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-bench-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      REALTIME_PORT: '0',
      // Request logs would measure the terminal, not the server.
      LOG_LEVEL: 'warn',
    });
    const running = await startServer(config);
    port = (running.app.server.address() as AddressInfo).port;
    close = async () => {
      await running.close();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  process.on('message', (message) => {
    if (message === 'cpu') {
      const usage = process.cpuUsage();
      process.send?.({ cpuMicros: usage.user + usage.system });
    }
    if (message === 'stop') {
      void close().then(() => process.exit(0));
    }
  });
  process.send?.({ port });
}
