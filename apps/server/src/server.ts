import type { AddressInfo } from 'node:net';
import { buildApp, type App } from './app.js';
import type { Config } from './config/config.js';
import { openDatabase, type DatabaseClient } from './db/client.js';
import { prepareDatabase } from './db/seed.js';

export interface RunningServer {
  app: App;
  db: DatabaseClient;
  /** URL a person on this machine can open. */
  url: string;
  /** Bound port of the separate real-time server, or null. */
  realtimePort: number | null;
  /** The database holds the demo clinic (its accounts are printed at start). */
  hasDemoData: boolean;
  /** At least one account exists (otherwise the banner says how to create the first admin). */
  hasUsers: boolean;
  /** Graceful stop: stop accepting, let in-flight requests finish, close sockets, then the database. */
  close(): Promise<void>;
}

/**
 * Opens the database named by the configuration (locking the data folder
 * for PGlite), applies migrations, seeds the system roles (and the demo
 * clinic on a first start with SEED_DEMO), builds the app and listens on the
 * main and real-time ports. A `db` passed in is used instead and closed with the
 * server.
 */
export async function startServer(
  config: Config,
  options: { db?: DatabaseClient } = {},
): Promise<RunningServer> {
  // Until the app (and its logger) exists, pool errors go to stderr.
  let reportPoolError = (error: Error): void => {
    console.error('Database pool error:', error.message);
  };
  const db =
    options.db ??
    (await openDatabase(
      config.databaseUrl === null
        ? { kind: 'pglite', dataDir: config.dataDir }
        : { kind: 'postgres', url: config.databaseUrl, onPoolError: (error) => reportPoolError(error) },
    ));
  let app: App | null = null;
  try {
    await db.migrate();
    const { hasDemoData, hasUsers } = await prepareDatabase(db, config, new Date());
    app = await buildApp({ config, database: db });
    const log = app.log;
    reportPoolError = (error) => log.error({ err: error }, 'database pool error (an idle connection failed)');
    await app.listen({ port: config.port, host: config.host });
    const realtimePort =
      config.realtimePort === null ? null : await app.realtime.listen(config.realtimePort, config.host);
    const port = (app.server.address() as AddressInfo).port;
    const started = app;
    let closing: Promise<void> | null = null;
    return {
      app: started,
      db,
      url: `http://${displayHost(config.host)}:${port}`,
      realtimePort,
      hasDemoData,
      hasUsers,
      close: () =>
        (closing ??= (async () => {
          try {
            await started.close();
          } finally {
            await db.close();
          }
        })()),
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** Wildcard addresses are not something to type into a browser. */
function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '') {
    return 'localhost';
  }
  return host.includes(':') ? `[${host}]` : host;
}
