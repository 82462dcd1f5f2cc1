import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server the suites use; each run creates its own database on it. */
export const postgresServerUrl =
  process.env.TEST_DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/test';

export interface ScratchDatabase {
  name: string;
  /** Connection string of the scratch database itself. */
  url: string;
  /** Host and port of the PostgreSQL server (for a TCP proxy in front of it). */
  host: string;
  port: number;
  /** Runs one statement on the scratch database through a short-lived connection. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

async function runOnServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresServerUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, empty database `tm_sys_<random>` on the test PostgreSQL server, so a
 * run never meets another run's rows; the built server migrates it at start.
 */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `tm_sys_${randomBytes(6).toString('hex')}`;
  await runOnServer(`CREATE DATABASE "${name}"`);
  const url = new URL(postgresServerUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    host: url.hostname,
    port: Number(url.port || 5432),
    query: async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () => runOnServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}
