import { fork, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Percentiles of a set of timings (nearest rank), in the timings' unit. */
export interface Figures {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarise(times: readonly number[]): Figures {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/** Rounds for printing: one decimal by default. */
export function round(value: number, decimals = 1): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Runs one statement on a PostgreSQL server (creating or dropping a benchmark's own database). */
export async function runStatement(connectionString: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const sourceCondition = '--conditions=@telemedicina/source';

/**
 * The server's modules import the shared package from source: a benchmark that loads them runs
 * itself again under that condition (with the same arguments), then `main` runs in the child.
 */
export async function runUnderSourceCondition(moduleUrl: string, main: () => Promise<void>): Promise<void> {
  if (process.execArgv.includes(sourceCondition)) {
    await main();
    return;
  }
  const child = fork(fileURLToPath(moduleUrl), process.argv.slice(2), {
    execArgv: [...process.execArgv, sourceCondition],
    stdio: 'inherit',
  });
  process.exitCode = await new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds the shared package and the server when `apps/server/dist` is missing or older than their
 * sources or migrations, so a benchmark measures what `npm start` would run.
 * `BENCH_USE_EXISTING_BUILD=true` measures the build as it is (e.g. while the sources do not compile).
 */
export function buildServerIfStale(): void {
  const built = path.join(repositoryRoot, 'apps/server/dist/main.js');
  const sources = ['apps/server/src', 'apps/server/drizzle', 'packages/shared/src'].map((folder) =>
    path.join(repositoryRoot, folder),
  );
  const isFresh = () =>
    process.env.BENCH_USE_EXISTING_BUILD === 'true' ||
    sources.every((folder) => newestMtime(folder) <= statSync(built).mtimeMs);
  if (existsSync(built) && isFresh()) {
    return;
  }
  console.log('The server build is missing or stale: building shared and server…');
  for (const workspace of ['@telemedicina/shared', '@telemedicina/server']) {
    const result = spawnSync('npm', ['run', 'build', '-w', workspace], {
      cwd: repositoryRoot,
      stdio: 'inherit',
    });
    if (result.status !== 0) {
      throw new Error(`npm run build -w ${workspace} failed`);
    }
  }
}

function newestMtime(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}
