import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { DatabaseKind } from '@telemedicina/shared/api';
import { sql, type SQL } from 'drizzle-orm';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
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
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** How long a query may wait for a free connection before failing (503); 5 s by default. */
      connectionTimeoutMs?: number;
      onPoolError?: (error: Error) => void;
    }
  /**
   * `dataDir` null = in memory (tests); otherwise the folder is locked and
   * PGlite lives in `<dataDir>/pglite`. `loadDataDir` starts an in-memory
   * database from a dump (tests reuse one migrated template).
   */
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob };

const drizzleOptions = { schema, casing: 'snake_case' } as const;
/** Renders `sql` statements to text as the databases' own dialect does (same casing). */
const dialect = new PgDialect({ casing: drizzleOptions.casing });

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
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
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
  const db = drizzlePglite({ client: yieldingPglite(client), ...drizzleOptions });
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

/**
 * Runs a raw statement that a hot path repeats — same text, other parameter values — and answers
 * its rows. On PostgreSQL (the pool itself, outside a transaction) it is a named prepared statement:
 * each connection parses and plans it once instead of on every call, which for a statement of many
 * subqueries is most of its cost. `name` is the statement's stable prefix; each distinct text gets
 * its own server-side name. Elsewhere (PGlite, a transaction) it is a plain `execute`.
 */
export async function executeNamed(
  db: Database,
  name: string,
  query: SQL,
): Promise<Record<string, unknown>[]> {
  const client = (db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const { sql: text, params } = dialect.sqlToQuery(query);
    let statementName = statementNames.get(text);
    if (statementName === undefined) {
      statementName = `${name}_${statementNames.size + 1}`;
      statementNames.set(text, statementName);
    }
    const result = await client.query<Record<string, unknown>>({ name: statementName, text, values: params });
    return result.rows;
  }
  const result: unknown = await db.execute(query);
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** The server-side name of each statement text `executeNamed` has run (unique per text in this process). */
const statementNames = new Map<string, string>();

/** One turn of the event loop: `setImmediate` runs after the poll for I/O of the current or next iteration. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type PgliteTransaction = Parameters<Parameters<PGlite['transaction']>[0]>[0];

/**
 * PGlite runs each query synchronously in WebAssembly and resolves it without waiting for I/O, so a
 * chain of queries (a request's repository calls, one after the other) would hold the event loop
 * until the chain ends: socket events — a visit's WebRTC offer, answer and ICE candidates relayed
 * by this process — and other requests would wait behind it. This view of the client starts every
 * query (also inside a transaction) one turn of the event loop later, so pending I/O runs between
 * queries. node-postgres needs none of this: its queries wait for the socket.
 */
export function yieldingPglite(client: PGlite): PGlite {
  const wrapTransaction = (tx: PgliteTransaction): PgliteTransaction => ({
    get closed() {
      return tx.closed;
    },
    query: async (...args) => {
      await nextTurn();
      return tx.query(...args);
    },
    sql: async (...args) => {
      await nextTurn();
      return tx.sql(...args);
    },
    exec: async (...args) => {
      await nextTurn();
      return tx.exec(...args);
    },
    rollback: () => tx.rollback(),
    listen: (...args) => tx.listen(...args),
  });
  const wrapped: Partial<PGlite> = {
    query: async (...args: Parameters<PGlite['query']>) => {
      await nextTurn();
      return client.query(...args);
    },
    exec: async (...args: Parameters<PGlite['exec']>) => {
      await nextTurn();
      return client.exec(...args);
    },
    transaction: async (callback) => {
      await nextTurn();
      return client.transaction((tx) => callback(wrapTransaction(tx)));
    },
  };
  return new Proxy(client, {
    get(target, property) {
      if (Object.hasOwn(wrapped, property)) {
        return wrapped[property as keyof typeof wrapped] as unknown;
      }
      // PGlite's methods use private fields: call them on the client itself, not on this proxy.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

async function timedSelectOne(db: Database): Promise<number> {
  const startedAt = performance.now();
  await db.execute(sql`select 1`);
  return performance.now() - startedAt;
}
