import { ConfigError, loadConfig, type Config } from './config/config.js';
import { mailDeliveryWarning } from './config/startup-warnings.js';
import { DataDirLockedError } from './db/data-dir-lock.js';
import { demoAccounts, demoPassword } from './db/seed.js';
import { startServer, type RunningServer } from './server.js';

/** How long a graceful stop may take before the process gives up and exits anyway. */
const shutdownTimeoutMs = 15_000;

/**
 * Process entry: configuration, database, listen, graceful shutdown. Prints
 * `Telemedicina listening on http://…` once ready (scripts wait for it).
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : error);
  }

  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (error) {
    fail(describeStartError(error));
  }

  console.log(`Telemedicina listening on ${server.url}`);
  if (server.realtimePort !== null) {
    console.log(`Real-time (Socket.IO) also on port ${server.realtimePort}, path /socket.io`);
  }
  if (config.databaseUrl === null) {
    console.log(`Embedded database in ${config.dataDir}`);
  }
  const mailWarning = mailDeliveryWarning(config);
  if (mailWarning !== null) {
    console.error(mailWarning);
    server.app.log.warn({ smtp: 'not configured' }, 'SMTP_URL is not set: emails are not delivered');
  }
  if (server.hasDemoData) {
    console.log(`Demo accounts (password ${demoPassword}, as created on the first start):`);
    for (const account of demoAccounts) {
      console.log(`  ${account.email.padEnd(24)} ${account.role}`);
    }
  } else if (!server.hasUsers) {
    console.log(
      'No demo data. Create the first administrator with `npm run create-admin -- --email … --name …`.',
    );
  }

  let isStopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (isStopping) {
      server.app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    isStopping = true;
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      server.app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, shutdownTimeoutMs);
    timer.unref();
    server.close().then(
      () => {
        server.app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        server.app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function describeStartError(error: unknown): unknown {
  if (error instanceof DataDirLockedError) {
    return error.message;
  }
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') {
    return `Cannot start: ${error.message}. Another program uses this port; set PORT (and REALTIME_PORT) to free ones.`;
  }
  return error;
}

function fail(reason: unknown): never {
  const text =
    typeof reason === 'string'
      ? reason
      : reason instanceof Error
        ? (reason.stack ?? reason.message)
        : String(reason);
  console.error(`Telemedicina could not start.\n${text}`);
  process.exit(1);
}

await main();
