import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { openDatabase, pgliteExtensions, type DatabaseClient } from '../db/client.js';
import { migrationsFolder, serverPackageRoot } from '../paths.js';

export interface TestDatabase {
  db: DatabaseClient;
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
    return { db, description: 'PGlite (in memory)', dispose: () => db.close() };
  }

  const name = `telemedicina_test_${process.pid}_${randomBytes(6).toString('hex')}`;
  await runAdmin(testDatabaseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  let db: DatabaseClient;
  try {
    db = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
    await db.migrate();
  } catch (error) {
    await runAdmin(testDatabaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw error;
  }
  let disposing: Promise<void> | null = null;
  return {
    db,
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
