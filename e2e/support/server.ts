import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');

/** Asks the kernel for a free TCP port on loopback. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  port: number;
  realtimePort: number;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a data folder (e.g. to test restarts); a fresh temporary one otherwise. */
  dataDir?: string;
  /** The port to listen on (a free one otherwise): for origins in `env` that name it. */
  port?: number;
}

/**
 * Where the seeded data folder of this build is kept: a fresh embedded database with the demo data,
 * made once by the browser suite's global set-up (`prepareSeededDataDir`) and copied for each
 * server. Keyed by this checkout's built server, so another build or checkout never uses it.
 */
function seededDataDirPath(): string {
  const main = join(repoRoot, 'apps/server/dist/main.js');
  const built = statSync(main);
  const key = createHash('sha256')
    .update(`${main} ${built.mtimeMs} ${built.size}`)
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), `telemedicina-e2e-seeded-${key}`);
}

/**
 * Makes the seeded data folder of this build if it is not there yet: the first start of the
 * embedded database (initdb, migrations, the demo accounts with production password hashing) is
 * most of a server's start, and every browser file started the same one again.
 */
export async function prepareSeededDataDir(): Promise<void> {
  const target = seededDataDirPath();
  // Folders of earlier builds, left for a day in case another run still copies from one.
  for (const entry of readdirSync(tmpdir())) {
    const path = join(tmpdir(), entry);
    if (
      entry.startsWith('telemedicina-e2e-seeded-') &&
      path !== target &&
      Date.now() - statSync(path).mtimeMs > 86_400_000
    ) {
      rmSync(path, { recursive: true, force: true });
    }
  }
  if (existsSync(target)) {
    return;
  }
  const building = mkdtempSync(`${target}.building-`);
  const server = await startServer({ dataDir: building });
  await server.stop();
  try {
    renameSync(building, target);
  } catch {
    // Another run made it at the same moment: keep theirs.
    rmSync(building, { recursive: true, force: true });
  }
}

/** A fresh data folder: a copy of the seeded one when it exists, else empty (seeded on start). */
function freshDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'telemedicina-e2e-'));
  const seeded = existsSync(join(repoRoot, 'apps/server/dist/main.js')) ? seededDataDirPath() : null;
  if (seeded !== null && existsSync(seeded)) {
    cpSync(seeded, dataDir, { recursive: true });
  }
  return dataDir;
}

/**
 * Starts the built server (apps/server/dist/main.js) as its own process on
 * free ports with a fresh embedded database, and resolves once it is ready.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const realtimePort = await freePort();
  const ownsDataDir = !options.dataDir;
  // A server on PostgreSQL (DATABASE_URL) seeds its own database; the embedded one starts from a
  // copy of the seeded folder.
  const dataDir =
    options.dataDir ??
    (options.env?.DATABASE_URL ? mkdtempSync(join(tmpdir(), 'telemedicina-e2e-')) : freshDataDir());
  let log = '';
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, 'apps/server/dist/main.js')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      REALTIME_PORT: String(realtimePort),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  // About 5 s on a quiet machine; seen near 2 minutes with four servers starting at once under a
  // CPU hog. The limit only bounds how long a server that never starts takes to be reported.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with ${child.exitCode} before it was ready:\n${log}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`);
      if (response.ok) {
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not become ready within 300 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    baseUrl,
    port,
    realtimePort,
    dataDir,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      if (ownsDataDir) {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
