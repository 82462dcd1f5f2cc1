import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { DatabaseKind } from '@telemedicina/shared';
import { sql } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { migrationsFolder } from '../paths.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import * as schema from './schema.js';

export type DatabaseSchema = typeof schema;
/** The contrib extensions the migrations create (bundled with PGlite; trusted extensions on PostgreSQL). */
export const pgliteExtensions = { pg_trgm, btree_gist };

/** The drizzle database, typed the same for PGlite and node-postgres so repositories work on both. */
export type Database = PgDatabase<PgQueryResultHKT, DatabaseSchema>;

/** One open database, whichever driver backs it. */
export interface DatabaseClient {
  readonly kind: DatabaseKind;
  readonly db: Database;
  /** Runs `select 1` on the database and resolves with the round-trip time in milliseconds. */
  ping(): Promise<number>;
  /** Applies pending SQL migrations from `apps/server/drizzle/` (idempotent). */
  migrate(): Promise<void>;
  /** Closes connections and, for PGlite, releases the data folder lock. Idempotent. */
  close(): Promise<void>;
}

export type OpenDatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; onPoolError?: (error: Error) => void }
  /**
   * `dataDir` null = in memory (tests); otherwise the folder is locked and
   * PGlite lives in `<dataDir>/pglite`. `loadDataDir` starts an in-memory
   * database from a dump (tests reuse one migrated template).
   */
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob };

const drizzleOptions = { schema, casing: 'snake_case' } as const;

/**
 * Session advisory lock held while migrating PostgreSQL, so several
 * instances starting at once apply each migration exactly once (the others
 * wait, then find nothing to do). Any constant works; this is
 * "telemedicina" read as ASCII digits, trimmed to fit a bigint.
 */
const migrationLockKey = 7_410_195_105_100_105n;

/** Opens PostgreSQL (pool) or the embedded PGlite as the options say. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseClient> {
  return options.kind === 'postgres'
    ? openPostgres(options)
    : openPglite(options.dataDir, options.loadDataDir);
}

function openPostgres(options: Extract<OpenDatabaseOptions, { kind: 'postgres' }>): DatabaseClient {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    // Fail a health check quickly instead of hanging when the server is unreachable.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection emits 'error' on the pool; unhandled, it kills the process.
  pool.on('error', (error) => options.onPoolError?.(error));
  // A checked-out client (inside a transaction) has no listener of the pool's: when PostgreSQL ends
  // its connection (restart, pg_terminate_backend, network cut) it emits 'error' itself, which
  // would kill the process too. Its queries fail on their own (and it is not reused), so reporting
  // is enough.
  pool.on('connect', (client) => {
    client.on('error', (error) => options.onPoolError?.(error));
  });
  const db = drizzleNodePg({ client: pool, ...drizzleOptions });
  let closing: Promise<void> | null = null;
  return {
    kind: 'postgres',
    db,
    ping: () => timedSelectOne(db),
    migrate: async () => {
      const lockClient = await pool.connect();
      try {
        await lockClient.query('select pg_advisory_lock($1)', [migrationLockKey.toString()]);
        try {
          await migrateNodePg(db, { migrationsFolder });
        } finally {
          await lockClient.query('select pg_advisory_unlock($1)', [migrationLockKey.toString()]);
        }
      } finally {
        lockClient.release();
      }
    },
    close: () => (closing ??= pool.end()),
  };
}

async function openPglite(dataDir: string | null, loadDataDir: Blob | undefined): Promise<DatabaseClient> {
  let lock: DataDirLock | null = null;
  let client: PGlite;
  if (dataDir === null) {
    client = await PGlite.create(
      loadDataDir === undefined
        ? { extensions: pgliteExtensions }
        : { loadDataDir, extensions: pgliteExtensions },
    );
  } else {
    lock = await acquireDataDirLock(dataDir);
    try {
      client = await PGlite.create(path.join(dataDir, 'pglite'), { extensions: pgliteExtensions });
    } catch (error) {
      await lock.release();
      throw error;
    }
  }
  const db = drizzlePglite({ client, ...drizzleOptions });
  let closing: Promise<void> | null = null;
  return {
    kind: 'pglite',
    db,
    ping: () => timedSelectOne(db),
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () =>
      (closing ??= (async () => {
        try {
          await client.close();
        } finally {
          await lock?.release();
        }
      })()),
  };
}

async function timedSelectOne(db: Database): Promise<number> {
  const startedAt = performance.now();
  await db.execute(sql`select 1`);
  return performance.now() - startedAt;
}
