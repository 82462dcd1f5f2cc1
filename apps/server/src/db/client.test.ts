import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseUrl, type TestDatabase } from '../test/test-database.js';
import { executeNamed, openDatabase } from './client.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { appMeta } from './schema.js';
import { migrationsFolder } from '../paths.js';

/** How many migrations drizzle-kit has written (one row each once applied). */
const migrationCount = (
  JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.dispose();
});

describe(`database client`, () => {
  it('uses the driver the environment asks for', () => {
    expect(database.client.kind).toBe(testDatabaseUrl === null ? 'pglite' : 'postgres');
  });

  it('applies the migrations: the schema is usable through drizzle', async () => {
    const { db } = database.client;
    await db.insert(appMeta).values({ key: 'test.fact', value: { at: '2026-01-01T00:00:00Z' } });
    const rows = await db.select().from(appMeta).where(eq(appMeta.key, 'test.fact'));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).toEqual({ at: '2026-01-01T00:00:00Z' });
    expect(rows[0]?.updatedAt).toBeInstanceOf(Date);
  });

  it('records applied migrations and re-running them changes nothing', async () => {
    await database.client.migrate();
    const rows = await database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(sql`drizzle.__drizzle_migrations`);
    expect(rows).toEqual([{ count: migrationCount }]);
  });

  it('ping measures a real round trip', async () => {
    const roundTripMs = await database.client.ping();
    expect(roundTripMs).toBeGreaterThan(0);
    expect(roundTripMs).toBeLessThan(5_000);
  });

  it('lets pending events run between the queries of a chain, also inside a transaction', async () => {
    const { db } = database.client;
    // A ticker on the event loop (as socket events are): it only advances when the loop turns.
    let ticks = 0;
    let running = true;
    const tick = (): void => {
      if (running) {
        ticks += 1;
        setImmediate(tick);
      }
    };
    setImmediate(tick);
    const ticksDuring = async (chain: () => Promise<void>): Promise<number> => {
      const before = ticks;
      await chain();
      return ticks - before;
    };
    try {
      const plain = await ticksDuring(async () => {
        for (let index = 0; index < 10; index += 1) {
          await db.execute(sql`select ${index}::int as n`);
        }
      });
      const inTransaction = await ticksDuring(() =>
        db.transaction(async (tx) => {
          for (let index = 0; index < 10; index += 1) {
            await tx.execute(sql`select ${index}::int as n`);
          }
        }),
      );
      expect(plain).toBeGreaterThanOrEqual(9);
      expect(inTransaction).toBeGreaterThanOrEqual(9);
    } finally {
      running = false;
    }
  });

  it('executeNamed answers the rows of repeated statements and keeps different texts apart', async () => {
    const { db } = database.client;
    for (const value of [1, 2, 3]) {
      expect(await executeNamed(db, 'client_test', sql`select ${value}::int as n`)).toEqual([{ n: value }]);
      // Another text under the same prefix is another statement, not the first one re-run.
      expect(await executeNamed(db, 'client_test', sql`select ${value}::int * 10 as n, 'x' as tag`)).toEqual([
        { n: value * 10, tag: 'x' },
      ]);
    }
    // Inside a transaction it runs on the transaction's connection.
    const rows = await db.transaction(async (tx) => {
      await tx.insert(appMeta).values({ key: 'named.tx', value: 1 });
      return executeNamed(
        tx,
        'client_test_tx',
        sql`select count(*)::int as n from app_meta where key = 'named.tx'`,
      );
    });
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('ping fails once the client is closed', async () => {
    const other = await createTestDatabase();
    await other.client.close();
    await expect(other.client.ping()).rejects.toThrow();
    await other.dispose();
  });
});

// Two PGlite start-ups on disk (initdb, then a reopen): over 30 s on a busy two-core machine.
describe('embedded database on disk', { timeout: 180_000 }, () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-pglite-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps data across restarts and refuses a second opener of the same folder', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir });
    await first.migrate();
    await first.db.insert(appMeta).values({ key: 'kept', value: 42 });

    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    await first.close();

    const reopened = await openDatabase({ kind: 'pglite', dataDir });
    const rows = await reopened.db.select().from(appMeta).where(eq(appMeta.key, 'kept'));
    expect(rows[0]?.value).toBe(42);
    await reopened.close();
  });
});

if (testDatabaseUrl !== null) {
  const adminUrl = testDatabaseUrl;
  // Only PostgreSQL is shared between processes: several instances may start at once.
  describe('migrations on a shared PostgreSQL server', () => {
    it('run once when several instances migrate the same fresh database at the same time', async () => {
      const name = `telemedicina_test_concurrent_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      const instances = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 3 })),
      );
      try {
        await Promise.all(instances.map((instance) => instance.migrate()));
        const rows = await instances[0]!.db
          .select({ count: sql<number>`count(*)::int` })
          .from(sql`drizzle.__drizzle_migrations`);
        expect(rows).toEqual([{ count: migrationCount }]);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    });
  });
}
