import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { healthResponseSchema } from '@telemedicina/shared/api';
import type { ClientToServerEvents, ServerToClientEvents } from '@telemedicina/shared/realtime';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileName } from './db/data-dir-lock.js';
import type { DatabaseClient } from './db/client.js';
import { startServer } from './server.js';
import { createUser, signIn } from './test/factories.js';
import { createTestConfig, testAppOrigin } from './test/test-context.js';
import { createTestDatabase } from './test/test-database.js';

let tempDir: string;

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-server-'));
});

afterAll(async () => {
  await rm(tempDir, { recursive: true, force: true });
});

/**
 * Polls until the condition holds. The limit only bounds how long a real failure takes to show: a
 * server process compiling its sources and seeding with argon2 took over a minute on a busy two-core
 * machine.
 */
async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await delay(10);
  }
}

describe('graceful shutdown', () => {
  it('lets an in-flight request finish, refuses new connections, disconnects sockets, then closes the database', async () => {
    const database = await createTestDatabase();
    const events: string[] = [];
    const slowDb: DatabaseClient = {
      ...database.client,
      ping: async () => {
        events.push('ping:start');
        await delay(500);
        const roundTripMs = await database.client.ping();
        events.push('ping:end');
        return roundTripMs;
      },
      close: async () => {
        events.push('db:close');
        await database.client.close();
      },
    };
    const server = await startServer(createTestConfig(tempDir, { realtimePort: 0 }), { db: slowDb });
    try {
      const session = await signIn(server.app, await createUser(server.app, { roles: ['patient'] }));
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = connect(server.url, {
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { origin: testAppOrigin, cookie: `tm_session=${session.token}` },
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));

      const inFlight = fetch(`${server.url}/api/v1/health`);
      await waitFor(() => events.includes('ping:start'));
      const startedClosingAt = Date.now();
      const closing = server.close();
      events.push('close:called');

      await expect(fetch(`${server.url}/api/v1/health`)).rejects.toThrow();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(healthResponseSchema.parse(await response.json()).status).toBe('ok');
      await closing;
      expect(Date.now() - startedClosingAt).toBeLessThan(5_000);
      expect(events).toEqual(['ping:start', 'close:called', 'ping:end', 'db:close']);
      expect(await disconnected).toMatch(/disconnect|close/);
    } finally {
      await server.close();
      await database.dispose();
    }
  });
});

// Two servers on PGlite in this process: seconds on a quiet machine, over 30 s on a busy one.
describe('data folder lock (embedded database)', { timeout: 180_000 }, () => {
  it('refuses a second server on the same data folder and frees the folder on close', async () => {
    const dataDir = path.join(tempDir, 'shared-data');
    const config = createTestConfig(tempDir, { dataDir });
    const first = await startServer(config);
    try {
      expect(first.db.kind).toBe('pglite');
      expect(existsSync(path.join(dataDir, lockFileName))).toBe(true);
      await expect(startServer(config)).rejects.toThrow(
        new RegExp(
          `${dataDir.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is already in use by process ${process.pid}`,
        ),
      );
    } finally {
      await first.close();
    }
    expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
  });
});

// Each test starts `src/main.ts` through tsx: it compiles the server's sources first.
describe('process entry (src/main.ts)', { timeout: 180_000 }, () => {
  const serverRoot = fileURLToPath(new URL('..', import.meta.url));
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) {
      child.kill('SIGKILL');
    }
  });

  function run(env: Record<string, string>): {
    child: ChildProcess;
    output: () => string;
    exited: Promise<number | null>;
  } {
    const child = spawn(
      process.execPath,
      ['--conditions=@telemedicina/source', '--import', 'tsx', 'src/main.ts'],
      {
        cwd: serverRoot,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  it('starts, prints its URL and the demo accounts, refuses a second process on its data folder, and stops cleanly on SIGTERM', async () => {
    const dataDir = path.join(tempDir, 'process-data');
    const env = { DATA_DIR: dataDir, PORT: '0', REALTIME_PORT: '0', HOST: '127.0.0.1' };
    const first = run(env);
    // Ready once the demo accounts are printed; a process that exits first fails at once.
    let firstExited = false;
    void first.exited.then(() => (firstExited = true));
    await waitFor(() => first.output().includes('paciente2@example.com') || firstExited, 300_000);
    expect(firstExited, first.output()).toBe(false);
    const url = /Telemedicina listening on (http:\/\/\S+)/.exec(first.output())?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.output()).toContain('Demo accounts (password Telemedicina2026!');
    for (const email of [
      'admin@example.com',
      'medico1@example.com',
      'medico2@example.com',
      'recepcion@example.com',
      'paciente1@example.com',
    ]) {
      expect(first.output()).toContain(email);
    }
    const health = await fetch(`${url}/api/v1/health`);
    expect(healthResponseSchema.parse(await health.json()).database.kind).toBe('pglite');
    const xsrf = 'process-test-xsrf-token-0123456789abcdefghi';
    const login = await fetch(`${url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Telemedicina2026!' }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { permissions: string[] }).permissions).toContain('users.manage');

    const second = run(env);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(
      `The data folder ${dataDir} is already in use by process ${first.child.pid}`,
    );

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(path.join(dataDir, lockFileName))).toBe(false);
  }, 420_000);

  it('exits with a message naming the variable when the configuration is invalid', async () => {
    const bad = run({ PORT: 'eighty', DATA_DIR: path.join(tempDir, 'unused') });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toMatch(/Invalid configuration:\s+PORT: .*"eighty"/);
  });
});
