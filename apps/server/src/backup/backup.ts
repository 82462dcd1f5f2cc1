import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  chmod,
  copyFile,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { DatabaseClient } from '../db/client.js';
import { generatedKeyFile } from '../lib/secret-box.js';
import { serverVersion } from '../paths.js';
import {
  dumpDatabase,
  findTablesWithData,
  journalEntries,
  loadDatabase,
  migrateTo,
  readLines,
  readMigrationLevel,
  RestoreRefusedError,
} from './database-dump.js';

const run = promisify(execFile);

export { RestoreRefusedError } from './database-dump.js';

/** The archive cannot be used: unreadable, not ours, or a part does not match its checksum. */
export class BackupArchiveError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}

const sha256Schema = z.string().regex(/^[0-9a-f]{64}$/);
/** A part's path inside the archive: relative, forward slashes, no `..`, under a known folder. */
const partPathSchema = z
  .string()
  .max(1_000)
  .regex(/^(database|uploads|secrets)\/[^\0\\]+$/)
  .refine((value) =>
    value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..'),
  );

const manifestSchema = z.object({
  format: z.literal('telemedicina-backup'),
  formatVersion: z.literal(1),
  appVersion: z.string(),
  createdAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    migration: z.object({
      count: z.number().int().min(0),
      lastWhen: z.number().int().nullable(),
      tag: z.string().nullable(),
    }),
    tables: z.array(
      z.object({
        name: z.string().min(1),
        columns: z.array(z.string().min(1)),
        rows: z.number().int().min(0),
        file: partPathSchema,
        sha256: sha256Schema,
      }),
    ),
    sequences: z.array(
      z.object({ name: z.string().min(1), lastValue: z.string().regex(/^-?\d+$/), isCalled: z.boolean() }),
    ),
  }),
  uploads: z.array(z.object({ path: partPathSchema, size: z.number().int().min(0), sha256: sha256Schema })),
  /**
   * The key sealing second-factor secrets (and keying token hashes). `generated`:
   * the server made it in DATA_DIR and the archive carries it (guard the
   * archive); `configured`: MFA_ENCRYPTION_KEY, which the archive does not hold.
   */
  secretKey: z.object({
    source: z.enum(['generated', 'configured', 'none']),
    fingerprint: z.string().nullable(),
    file: partPathSchema.nullable(),
    sha256: sha256Schema.nullable(),
  }),
});

export type BackupManifest = z.infer<typeof manifestSchema>;

export const manifestFileName = 'manifest.json';

/** A default archive name: `backups/telemedicina-20260101-120000.tar.gz`. */
export function defaultArchivePath(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return path.join('backups', `telemedicina-${stamp}.tar.gz`);
}

/**
 * A short, one-way fingerprint of the secret key: lets a restore check that the
 * key it will run with is the one the data was sealed with, without storing it.
 */
function keyFingerprint(key: string): string {
  return createHash('sha256').update(`telemedicina-backup-key-check\0${key}`).digest('hex').slice(0, 16);
}

async function readGeneratedKey(dataDir: string): Promise<string | null> {
  try {
    const key = (await readFile(path.join(dataDir, generatedKeyFile), 'utf8')).trim();
    return key.length >= 32 ? key : null;
  } catch {
    return null;
  }
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/** Regular files below `dir` as paths relative to it (forward slashes); none when it does not exist. */
async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { recursive: true, withFileTypes: true });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      return [];
    }
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** Hard link when the staging folder is on the same file system (no copy of big uploads), else copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await link(from, to);
  } catch {
    await copyFile(from, to);
  }
}

export interface BackupResult {
  file: string;
  manifest: BackupManifest;
}

/**
 * Writes one `.tar.gz` holding `manifest.json` (version, migration level,
 * database kind, time, a sha256 per part), one NDJSON file per table (one
 * consistent snapshot) and the uploads folder. The archive is written under a
 * temporary name and renamed when complete.
 */
export async function createBackup(options: {
  config: Pick<Config, 'dataDir' | 'uploadsDir' | 'mfaEncryptionKey'>;
  client: DatabaseClient;
  out: string;
  now: Date;
}): Promise<BackupResult> {
  const { config, client, now } = options;
  const out = path.resolve(options.out);
  await mkdir(path.dirname(out), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(out), '.telemedicina-backup-'));
  try {
    await mkdir(path.join(staging, 'database'));
    const migration = await readMigrationLevel(client.db);
    const fileOf = new Map<string, string>();
    const dump = await dumpDatabase(client.db, (table) => {
      const file = `database/${String(fileOf.size).padStart(3, '0')}-${table}.ndjson`;
      fileOf.set(table, file);
      return path.join(staging, file);
    });

    const uploads: BackupManifest['uploads'] = [];
    for (const relative of await listFiles(config.uploadsDir)) {
      const part = `uploads/${relative}`;
      const target = path.join(staging, part);
      await linkOrCopy(path.join(config.uploadsDir, relative), target);
      uploads.push({ path: part, size: (await lstat(target)).size, sha256: await hashFile(target) });
    }

    let secretKey: BackupManifest['secretKey'] = {
      source: 'none',
      fingerprint: null,
      file: null,
      sha256: null,
    };
    if (config.mfaEncryptionKey !== null) {
      secretKey = {
        source: 'configured',
        fingerprint: keyFingerprint(config.mfaEncryptionKey),
        file: null,
        sha256: null,
      };
    } else {
      const generated = await readGeneratedKey(config.dataDir);
      if (generated !== null) {
        const file = 'secrets/mfa-encryption.key';
        await mkdir(path.join(staging, 'secrets'), { mode: 0o700 });
        await writeFile(path.join(staging, file), `${generated}\n`, { mode: 0o600 });
        secretKey = {
          source: 'generated',
          fingerprint: keyFingerprint(generated),
          file,
          sha256: await hashFile(path.join(staging, file)),
        };
      }
    }

    const manifest: BackupManifest = {
      format: 'telemedicina-backup',
      formatVersion: 1,
      appVersion: serverVersion,
      createdAt: now.toISOString(),
      database: {
        kind: client.kind,
        migration: { count: migration.count, lastWhen: migration.lastWhen, tag: migration.tag },
        tables: dump.tables.map((table) => ({
          name: table.name,
          columns: table.columns,
          rows: table.rows,
          file: fileOf.get(table.name) ?? '',
          sha256: table.sha256,
        })),
        sequences: dump.sequences,
      },
      uploads,
      secretKey,
    };
    await writeFile(path.join(staging, manifestFileName), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = `${out}.partial`;
    await run('tar', ['-czf', partial, '-C', staging, '.']);
    await chmod(partial, 0o600);
    await rename(partial, out);
    return { file: out, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Unpacks (or, for a folder, reads) an archive and checks every part against the manifest. */
export async function openArchive(
  archive: string,
): Promise<{ dir: string; manifest: BackupManifest; dispose(): Promise<void> }> {
  const source = path.resolve(archive);
  let stats;
  try {
    stats = await lstat(source);
  } catch {
    throw new BackupArchiveError(`The archive ${source} does not exist.`);
  }
  let dir = source;
  let dispose = (): Promise<void> => Promise.resolve();
  if (!stats.isDirectory()) {
    dir = await mkdtemp(path.join(tmpdir(), 'telemedicina-restore-'));
    dispose = () => rm(dir, { recursive: true, force: true });
    try {
      await run('tar', ['-xzf', source, '-C', dir, '--no-same-owner', '--no-same-permissions']);
    } catch (error) {
      await dispose();
      const detail =
        error instanceof Error && 'stderr' in error ? String(error.stderr).trim() : String(error);
      throw new BackupArchiveError(`The archive ${source} cannot be unpacked (${detail}).`);
    }
  }
  try {
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(path.join(dir, manifestFileName), 'utf8'));
    } catch {
      throw new BackupArchiveError(
        `${source} is not a Telemedicina backup: ${manifestFileName} is missing or unreadable.`,
      );
    }
    const parsed = manifestSchema.safeParse(raw);
    if (!parsed.success) {
      throw new BackupArchiveError(
        `${source} has a manifest this version cannot read (${parsed.error.issues[0]?.message ?? 'invalid'}).`,
      );
    }
    const manifest = parsed.data;
    const parts = [
      ...manifest.database.tables.map((table) => ({ path: table.file, sha256: table.sha256 })),
      ...manifest.uploads,
      ...(manifest.secretKey.file === null || manifest.secretKey.sha256 === null
        ? []
        : [{ path: manifest.secretKey.file, sha256: manifest.secretKey.sha256 }]),
    ];
    for (const part of parts) {
      const file = path.join(dir, part.path);
      let isFile = false;
      try {
        isFile = (await lstat(file)).isFile();
      } catch {
        // reported below
      }
      if (!isFile) {
        throw new BackupArchiveError(`The archive is incomplete: ${part.path} is missing.`);
      }
      if ((await hashFile(file)) !== part.sha256) {
        throw new BackupArchiveError(
          `The archive is corrupted: ${part.path} does not match its sha256 in the manifest.`,
        );
      }
    }
    return { dir, manifest, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Migrations applied after loading (an archive from an older version). */
  upgradedFrom: number | null;
}

/**
 * Restores an archive into the configured database and uploads folder. Every
 * check runs before anything is written: the archive's checksums, its
 * migration level against this version, the secret key, and that the target
 * is empty (a fresh instance: no rows beyond the system roles a start writes,
 * no uploaded files) unless `force`, which replaces what is there.
 */
export async function restoreBackup(options: {
  config: Pick<Config, 'dataDir' | 'uploadsDir' | 'mfaEncryptionKey'>;
  client: DatabaseClient;
  archive: string;
  force: boolean;
}): Promise<RestoreResult> {
  const { config, client, force } = options;
  const opened = await openArchive(options.archive);
  try {
    const { manifest, dir } = opened;
    const journal = journalEntries();
    const level = manifest.database.migration;
    const knownLast = level.count === 0 ? null : journal[level.count - 1];
    if (level.count > journal.length || (knownLast !== null && knownLast?.when !== level.lastWhen)) {
      throw new RestoreRefusedError(
        `The archive was made by a version with migrations this one does not know (its last: ${level.tag ?? 'unknown'}). ` +
          'Restore it with that version or a newer one.',
      );
    }

    const configuredKey = config.mfaEncryptionKey;
    const archiveKey = manifest.secretKey;
    if (!force && archiveKey.fingerprint !== null) {
      if (configuredKey !== null && keyFingerprint(configuredKey) !== archiveKey.fingerprint) {
        throw new RestoreRefusedError(
          'MFA_ENCRYPTION_KEY differs from the key the backed-up data was sealed with: second factors and ' +
            'recovery codes would stop working. Set the original key (or pass --force to restore anyway).',
        );
      }
      if (configuredKey === null && archiveKey.source === 'configured') {
        throw new RestoreRefusedError(
          'The backed-up data was sealed with MFA_ENCRYPTION_KEY, which is not set here. Set the same key ' +
            'before restoring (or pass --force to restore anyway).',
        );
      }
    }

    const target = await readMigrationLevel(client.db);
    if (target.count > level.count) {
      throw new RestoreRefusedError(
        `The target database is already at migration ${target.tag ?? target.count}, newer than the archive's ` +
          `${level.tag ?? level.count}. Restore into a new, empty database (a fresh DATA_DIR or a new ` +
          'PostgreSQL database); the remaining migrations run after the data is loaded.',
      );
    }
    await migrateTo(client, level.count);
    const occupied = await findTablesWithData(client.db);
    const existingUploads = await listFiles(config.uploadsDir);
    if (!force && (occupied.length > 0 || existingUploads.length > 0)) {
      const what = [
        ...(occupied.length > 0 ? [`rows in ${occupied.join(', ')}`] : []),
        ...(existingUploads.length > 0 ? [`${existingUploads.length} files in ${config.uploadsDir}`] : []),
      ];
      throw new RestoreRefusedError(
        `The target is not empty (${what.join('; ')}). Restore into a fresh instance, or pass --force to replace everything there.`,
      );
    }

    await loadDatabase(client.db, {
      tables: manifest.database.tables,
      sequences: manifest.database.sequences,
      lines: (table) => {
        const file = manifest.database.tables.find((entry) => entry.name === table)?.file ?? '';
        return readLines(path.join(dir, file));
      },
    });
    const upgradedFrom = level.count < journal.length ? level.count : null;
    if (upgradedFrom !== null) {
      await client.migrate();
    }

    for (const relative of existingUploads) {
      await rm(path.join(config.uploadsDir, relative), { force: true });
    }
    for (const upload of manifest.uploads) {
      const to = path.join(config.uploadsDir, upload.path.slice('uploads/'.length));
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(path.join(dir, upload.path), to);
    }

    if (archiveKey.source === 'generated' && archiveKey.file !== null && configuredKey === null) {
      const keyFile = path.join(config.dataDir, generatedKeyFile);
      await mkdir(path.dirname(keyFile), { recursive: true, mode: 0o700 });
      await writeFile(keyFile, await readFile(path.join(dir, archiveKey.file)), { mode: 0o600 });
      await chmod(keyFile, 0o600);
    }
    return { manifest, upgradedFrom };
  } finally {
    await opened.dispose();
  }
}
