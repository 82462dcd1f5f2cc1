/**
 * GET /api/v1/health on the real app against a bare node:http server
 * answering the same JSON shape, measured in the same run with autocannon.
 *
 *   node --import tsx bench/api-health.bench.ts        (or: npm run bench:api)
 *   BENCH_ROUNDS=3 BENCH_SECONDS=3 BENCH_CONNECTIONS=50 node --import tsx bench/api-health.bench.ts
 *
 * Each server runs in its own child process (this file again, with
 * `--serve <kind>`), so the load generator never shares an event loop with
 * the server it measures. Target (reported, not asserted): app ≥ 0.75 × bare
 * requests/s.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const seconds = Number(process.env.BENCH_SECONDS ?? 2);
const warmUpSeconds = 1;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const healthPath = '/api/v1/health';

const descriptions: Record<ServerKind, string> = {
  bare: 'node:http writing a fixed JSON of the same shape (roundTripMs 0); no database, no headers, no routing',
  app:
    'the real app (fastify): routing, request id, security headers (CSP, Permissions-Policy…), XSRF cookie ' +
    'issued (autocannon sends no cookie), zod-serialized response, database check: a real PGlite `select 1`, ' +
    'reused for up to 1 s',
};

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] === 'app' ? 'app' : 'bare');
} else {
  await main();
}

async function main(): Promise<void> {
  const require = createRequire(import.meta.url);
  const autocannon = require('autocannon') as Autocannon;

  console.log(
    `GET ${healthPath}: ${connections} connections; ${rounds} rounds of ${seconds} s per server, alternating, ` +
      `after ${warmUpSeconds} s of warm-up each. Each server runs in its own process; autocannon in this one.\n`,
  );
  const servers = { bare: await startChild('bare'), app: await startChild('app') };
  const results: Record<ServerKind, AutocannonResult[]> = { bare: [], app: [] };
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
        results[kind].push(await autocannon({ url, connections, duration: seconds }));
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
  const verdict = ratio >= 0.75 ? 'meets' : 'BELOW';
  console.log(
    `\nratio app / bare (req/s): ${ratio.toFixed(2)} — ${verdict} the 0.75 target ` +
      `(per round: ${roundRatios.map((value) => value.toFixed(2)).join(', ')})`,
  );
  console.log(`p99 latency: app ${app.p99} ms vs bare ${bare.p99} ms`);
  if (app.failures > 0) {
    console.log('WARNING: the app answered errors during the run; the figures are not meaningful.');
    process.exitCode = 1;
  }
}

/** Starts this file as `--serve <kind>` and waits for the port it listens on. */
async function startChild(kind: ServerKind): Promise<{ port: number; stop: () => Promise<void> }> {
  const execArgv = process.execArgv.includes('--conditions=@telemedicina/source')
    ? process.execArgv
    : [...process.execArgv, '--conditions=@telemedicina/source'];
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', kind], {
    execArgv,
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

async function serve(kind: ServerKind): Promise<void> {
  const startedAt = Date.now();
  let close: () => Promise<void>;
  let port: number;
  if (kind === 'bare') {
    const server = createServer((request, response) => {
      if (request.method !== 'GET' || request.url !== healthPath) {
        response.writeHead(404).end();
        return;
      }
      const body = JSON.stringify({
        status: 'ok',
        version: '0.1.0',
        uptimeSeconds: (Date.now() - startedAt) / 1000,
        database: { kind: 'pglite', roundTripMs: 0 },
      });
      response.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  } else {
    const { loadConfig } = await import('../apps/server/src/config/config.js');
    const { startServer } = await import('../apps/server/src/server.js');
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
    if (message === 'stop') {
      void close().then(() => process.exit(0));
    }
  });
  process.send?.({ port });
}
