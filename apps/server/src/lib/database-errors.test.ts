import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseClient } from '../db/client.js';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../test/test-database.js';
import { isDatabaseUnavailable, isUniqueViolation } from './database-errors.js';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function failureOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection through the pool and drizzle (real driver errors)', async () => {
    const db = await openDatabase({
      kind: 'postgres',
      url: `postgres://postgres@127.0.0.1:${await closedPort()}/nowhere`,
    });
    try {
      expect(isDatabaseUnavailable(await failureOf(() => db.ping()))).toBe(true);
      expect(isDatabaseUnavailable(await failureOf(() => db.db.execute(sql`select 1`)))).toBe(true);
    } finally {
      await db.close();
    }
  });

  it('recognises a server that accepts and then hangs up (connection terminated)', async () => {
    const server = createServer((socket) => socket.destroy());
    const port = await new Promise<number>((resolve) => {
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
    const db = await openDatabase({ kind: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/x` });
    try {
      expect(isDatabaseUnavailable(await failureOf(() => db.db.execute(sql`select 1`)))).toBe(true);
    } finally {
      await db.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('recognises SQLSTATE classes 08 and 57P0x, also as a cause; not constraint errors or plain bugs', () => {
    const withCode = (code: string): Error => Object.assign(new Error('driver error'), { code });
    expect(isDatabaseUnavailable(withCode('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: withCode('57P03') }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('42P01'))).toBe(false);
    // A message that merely mentions a refused connection is not one (no code): it stays a 500.
    expect(isDatabaseUnavailable(new Error('connect ECONNREFUSED postgres://db:5432'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

// A backend ended by the server (what a PostgreSQL restart or pg_terminate_backend does).
if (testDatabaseUrl !== null) {
  describe('on PostgreSQL', () => {
    let database: TestDatabase;
    let db: DatabaseClient;

    beforeAll(async () => {
      database = await createTestDatabase();
      db = database.client;
    });

    afterAll(async () => {
      await database?.dispose();
    });

    it('a statement cut by pg_terminate_backend is "unavailable" (57P01), and the pool reconnects by itself', async () => {
      const result: unknown = await db.db.execute(sql`select current_database() as name`);
      const databaseName = (result as { rows: { name: string }[] }).rows[0]!.name;
      const sleeping = failureOf(() => db.db.execute(sql`select pg_sleep(10)`));
      const admin = new pg.Client({ connectionString: testDatabaseUrl! });
      await admin.connect();
      try {
        for (let attempt = 0; attempt < 50; attempt += 1) {
          const ended = await admin.query(
            `select pg_terminate_backend(pid) from pg_stat_activity
           where datname = $1 and query like 'select pg_sleep%' and pid <> pg_backend_pid()`,
            [databaseName],
          );
          if (ended.rowCount !== null && ended.rowCount > 0) {
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await admin.end();
      }
      const error = await sleeping;
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(isUniqueViolation(error)).toBe(false);
      await expect(db.ping()).resolves.toBeGreaterThan(0);
    });

    it('a transaction whose connection PostgreSQL ends fails as "unavailable"; the process lives on and the pool recovers', async () => {
      // db/client.ts listens for 'error' on every client it hands out: without that, a checked-out
      // client (inside a transaction) losing its connection emits an unhandled 'error' event, which
      // ends the process (vitest reports it as an unhandled error).
      const result: unknown = await db.db.execute(sql`select current_database() as name`);
      const url = new URL(testDatabaseUrl!);
      url.pathname = `/${(result as { rows: { name: string }[] }).rows[0]!.name}`;
      const poolErrors: Error[] = [];
      const client = await openDatabase({
        kind: 'postgres',
        url: url.toString(),
        poolSize: 2,
        onPoolError: (error) => poolErrors.push(error),
      });
      try {
        const failure = await failureOf(() =>
          client.db.transaction(async (tx) => {
            const backend: unknown = await tx.execute(sql`select pg_backend_pid() as pid`);
            const admin = new pg.Client({ connectionString: testDatabaseUrl! });
            await admin.connect();
            try {
              await admin.query('select pg_terminate_backend($1)', [
                (backend as { rows: { pid: number }[] }).rows[0]!.pid,
              ]);
            } finally {
              await admin.end();
            }
            for (let waited = 0; poolErrors.length === 0 && waited < 5_000; waited += 20) {
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
            await tx.execute(sql`select 1`);
          }),
        );
        expect(poolErrors.length).toBeGreaterThan(0);
        expect(isDatabaseUnavailable(poolErrors[0])).toBe(true);
        expect(isDatabaseUnavailable(failure)).toBe(true);
        // The broken connection is not reused: the next statements get a fresh one.
        await expect(client.ping()).resolves.toBeGreaterThan(0);
        await expect(client.db.transaction((tx) => tx.execute(sql`select 1`))).resolves.toBeDefined();
      } finally {
        await client.close();
      }
    });
  });
}
