import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { openDatabase, pgliteExtensions, type Database, type DatabaseClient } from '../db/client.js';
import { migrationsFolder, serverPackageRoot } from '../paths.js';

export interface TestDatabase {
  /** The query handle (Drizzle), as services receive it. */
  db: Database;
  /** The connection behind it (kind, migrate, close), as `buildApp` takes it. */
  client: DatabaseClient;
  /** Human-readable description for test names and failures. */
  description: string;
  /** Closes the client and, on PostgreSQL, drops the database. Idempotent. */
  dispose(): Promise<void>;
}

/** The PostgreSQL server tests run against, when set; otherwise PGlite in memory. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || null;

/**
 * A fresh, migrated database for one test file: PGlite in memory, or, when
 * TEST_DATABASE_URL is set, a new uniquely named database on that server
 * (created through the URL's own database, dropped afterwards), so parallel
 * files and concurrent runs never share state.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseUrl === null) {
    const db = await openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: await pgliteTemplate() });
    await db.migrate();
    return { db: db.db, client: db, description: 'PGlite (in memory)', dispose: () => db.close() };
  }

  const name = `telemedicina_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  const template = await postgresTemplate(testDatabaseUrl);
  await runAdmin(testDatabaseUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  let db: DatabaseClient;
  try {
    db = await openDatabase({
      kind: 'postgres',
      url: databaseUrl(testDatabaseUrl, name),
      poolSize: 4,
      // A test that queues many requests on the pool of 4 (200 concurrent bookings) is about
      // correctness, not about how fast this host drains the queue: on a busy machine 162 of them
      // waited past the production 5 s and got 503s.
      connectionTimeoutMs: 120_000,
    });
    await db.migrate();
  } catch (error) {
    await runAdmin(testDatabaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw error;
  }
  let disposing: Promise<void> | null = null;
  return {
    db: db.db,
    client: db,
    description: `PostgreSQL database ${name}`,
    dispose: () =>
      (disposing ??= (async () => {
        await db.close();
        await runAdmin(testDatabaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      })()),
  };
}

/**
 * PGlite's initdb takes seconds; loading a dump takes a fraction of one. The
 * first test file migrates a blank PGlite and dumps it to the temp folder,
 * keyed by the migrations' content, and every file then starts its own fresh
 * instance from that dump (and still runs `migrate`, which finds nothing to do).
 */
async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(tmpdir(), `telemedicina-pglite-template-${await migrationsHash()}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // Not made yet.
  }
  const client = await PGlite.create({ extensions: pgliteExtensions });
  try {
    await migrate(drizzle({ client }), { migrationsFolder });
    const dump = await client.dumpDataDir('none');
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await client.close();
  }
}

let templateName: Promise<string> | null = null;

/**
 * The PostgreSQL counterpart of the PGlite dump: a database migrated once, kept on the server
 * under a name keyed by the migrations' content, and copied by `CREATE DATABASE … TEMPLATE` for
 * each test file (a copy takes a fraction of the time the migrations do). Processes that start
 * together agree through an advisory lock on who builds it; templates of older migrations go.
 */
async function postgresTemplate(adminUrl: string): Promise<string> {
  templateName ??= (async () => {
    const name = `telemedicina_template_${await migrationsHash()}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', ['telemedicina_test_template']);
      const existing = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, 'telemedicina_template_')`,
      );
      for (const { datname } of existing.rows.filter((row) => row.datname !== name)) {
        // Another checkout with other migrations may be copying it right now: then it stays.
        await client.query(`DROP DATABASE IF EXISTS "${datname}"`).catch(() => undefined);
      }
      if (!existing.rows.some((row) => row.datname === name)) {
        const building = `${name}_${process.pid}`;
        await client.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
        await client.query(`CREATE DATABASE "${building}"`);
        const db = await openDatabase({
          kind: 'postgres',
          url: databaseUrl(adminUrl, building),
          poolSize: 4,
        });
        try {
          await db.migrate();
        } finally {
          await db.close();
        }
        await client.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['telemedicina_test_template']);
      await client.end();
    }
    return name;
  })();
  try {
    return await templateName;
  } catch (error) {
    templateName = null;
    throw error;
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function migrationsHash(): Promise<string> {
  const hash = createHash('sha256');
  // The pinned PGlite version: a dump is only loadable by the version that made it.
  const manifest = JSON.parse(await readFile(path.join(serverPackageRoot, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  hash.update(manifest.dependencies['@electric-sql/pglite'] ?? '');
  const entries = (await readdir(migrationsFolder, { recursive: true })).sort();
  for (const entry of entries) {
    if (entry.endsWith('.sql') || entry.endsWith('.json')) {
      hash.update(entry);
      hash.update(await readFile(path.join(migrationsFolder, entry)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function runAdmin(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
