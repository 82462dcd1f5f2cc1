import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { openDatabase, type DatabaseClient } from '../db/client.js';
import { DataDirLockedError } from '../db/data-dir-lock.js';
import {
  BackupArchiveError,
  createBackup,
  defaultArchivePath,
  RestoreRefusedError,
  restoreBackup,
} from './backup.js';

const backupUsage = `Usage: npm run backup -- [--out backups/name.tar.gz]

Writes one archive with the database (a consistent logical dump of DATABASE_URL,
or of the embedded database in DATA_DIR — stop the server first), the uploads
folder (UPLOADS_DIR) and a manifest with a sha256 of every part.`;

const restoreUsage = `Usage: npm run restore -- <archive.tar.gz> [--force]

Restores an archive made by \`npm run backup\` into the configured database
(DATABASE_URL, or the embedded one in DATA_DIR) and UPLOADS_DIR. The target
must be a fresh, empty instance; --force replaces whatever is there. Stop the
servers first.`;

/** Opens the configured database for an offline tool, with a clear message when the server holds it. */
async function openConfigured(
  config: Config,
  { mustExist }: { mustExist: boolean },
): Promise<DatabaseClient> {
  if (config.databaseUrl !== null) {
    return openDatabase({ kind: 'postgres', url: config.databaseUrl, poolSize: 2 });
  }
  if (mustExist) {
    if (!existsSync(path.join(config.dataDir, 'pglite'))) {
      throw new BackupArchiveError(
        `There is no embedded database in ${config.dataDir} (DATA_DIR) to back up.`,
      );
    }
  }
  try {
    return await openDatabase({ kind: 'pglite', dataDir: config.dataDir });
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      throw new BackupArchiveError(
        `The embedded database in ${config.dataDir} is in use by a running server (PGlite allows one process). ` +
          'Stop the server, then run this again. With PostgreSQL (DATABASE_URL) backups run while servers keep working.',
      );
    }
    throw error;
  }
}

async function backupCommand(argv: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }).values;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${backupUsage}`);
    return 2;
  }
  if (values.help === true) {
    console.log(backupUsage);
    return 0;
  }
  const config = loadConfig(process.env);
  const now = new Date();
  const client = await openConfigured(config, { mustExist: true });
  try {
    const startedAt = performance.now();
    const { file, manifest } = await createBackup({
      config,
      client,
      out: values.out ?? defaultArchivePath(now),
      now,
    });
    const rows = manifest.database.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Backup written to ${file}\n  database: ${manifest.database.kind}, migration ${manifest.database.migration.tag ?? 'none'}, ` +
        `${manifest.database.tables.length} tables, ${rows} rows\n  uploads: ${manifest.uploads.length} files\n` +
        `  secret key: ${describeKey(manifest.secretKey.source)}\n  took ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
    );
    return 0;
  } finally {
    await client.close();
  }
}

function describeKey(source: 'generated' | 'configured' | 'none'): string {
  switch (source) {
    case 'generated':
      return 'the generated key from DATA_DIR/secrets is inside the archive: store the archive as securely as the data';
    case 'configured':
      return 'MFA_ENCRYPTION_KEY is not in the archive: keep it with your deployment secrets';
    case 'none':
      return 'none yet';
  }
}

async function restoreCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${restoreUsage}`);
    return 2;
  }
  const [archive, ...extra] = parsed.positionals;
  if (parsed.values.help === true || archive === undefined || extra.length > 0) {
    console.error(restoreUsage);
    return parsed.values.help === true ? 0 : 2;
  }
  const config = loadConfig(process.env);
  const client = await openConfigured(config, { mustExist: false });
  try {
    const { manifest, upgradedFrom } = await restoreBackup({
      config,
      client,
      archive,
      force: parsed.values.force === true,
    });
    const rows = manifest.database.tables.reduce((sum, table) => sum + table.rows, 0);
    console.log(
      `Restored ${archive} (made ${manifest.createdAt} by version ${manifest.appVersion} on ${manifest.database.kind})\n` +
        `  into ${config.databaseUrl === null ? `the embedded database in ${config.dataDir}` : 'DATABASE_URL'}: ` +
        `${manifest.database.tables.length} tables, ${rows} rows; ${manifest.uploads.length} files into ${config.uploadsDir}` +
        (upgradedFrom === null
          ? ''
          : `\n  then applied the migrations after ${manifest.database.migration.tag ?? 'none'}`),
    );
    return 0;
  } finally {
    await client.close();
  }
}

/** `npm run backup` / `npm run restore`: the first argument names the command. */
async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  try {
    if (command === 'backup') {
      return await backupCommand(rest);
    }
    if (command === 'restore') {
      return await restoreCommand(rest);
    }
    console.error(`${backupUsage}\n\n${restoreUsage}`);
    return 2;
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof BackupArchiveError ||
      error instanceof RestoreRefusedError
    ) {
      console.error(error.message);
      return 1;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  },
);
