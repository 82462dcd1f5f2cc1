import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../config/config.js';
import { openDatabase, type Database, type DatabaseClient } from '../db/client.js';
import { acquireDataDirLock } from '../db/data-dir-lock.js';
import { generatedKeyFile } from '../lib/secret-box.js';
import { files, users } from '../db/schema.js';
import { demoAccounts, demoPassword, seedDemoData } from '../db/seed.js';
import { createUser, signIn } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-context.js';
import { createTestDatabase, testDatabaseUrl } from '../test/test-database.js';
import {
  BackupArchiveError,
  createBackup,
  RestoreRefusedError,
  restoreBackup,
  type BackupManifest,
} from './backup.js';
import { journalEntries, listTables, migrateTo, quoteIdent, readMigrationLevel } from './database-dump.js';

const run = promisify(execFile);

let context: TestContext;
let work: string;
let archive: string;
let manifest: BackupManifest;
const uploaded = new Map<string, Buffer>();

/** Every table's rows as PostgreSQL's own JSON text, in primary-key order (UTC, so engines agree). */
async function snapshot(db: Database): Promise<Record<string, string[]>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('TimeZone', 'UTC', true)`);
    const result: Record<string, string[]> = {};
    for (const table of await listTables(tx)) {
      const order = table.key.length > 0 ? ` order by ${table.key.map(quoteIdent).join(', ')}` : '';
      const rows = await tx.execute(
        sql.raw(`select row_to_json(t)::text as j from (select * from ${quoteIdent(table.name)}${order}) t`),
      );
      result[table.name] = (rows as { rows: { j: string }[] }).rows.map((row) => row.j);
    }
    return result;
  });
}

async function sequences(db: Database): Promise<string> {
  const rows = await db.execute(sql`select last_value::text as v from audit_events_id_seq`);
  return (rows as { rows: { v: string }[] }).rows[0]?.v ?? '';
}

function targetConfig(name: string): Pick<Config, 'dataDir' | 'uploadsDir' | 'mfaEncryptionKey'> {
  return {
    dataDir: path.join(work, name, 'data'),
    uploadsDir: path.join(work, name, 'uploads'),
    mfaEncryptionKey: context.config.mfaEncryptionKey,
  };
}

beforeAll(async () => {
  context = await createTestContext();
  work = await mkdtemp(path.join(tmpdir(), 'telemedicina-backup-test-'));
  const db = context.db;
  expect(await seedDemoData(db, context.config, new Date())).toBe(true);
  // Sessions, audit events and a second factor sealed with the secret key.
  const admin = demoAccounts[0];
  await signIn(context.app, { email: admin?.email ?? '', password: demoPassword, totpSecret: null });
  await createUser(context.app, { roles: ['staff'], hasMfa: true, name: 'Ñandú Çedilla "comillas"' });
  // Uploaded files, one of them a user's photo (users ↔ files reference each other).
  const [owner] = await db.select({ id: users.id }).from(users).limit(1);
  for (const [index, name] of ['ab/photo-1.png', 'cd/scan-2.pdf'].entries()) {
    const bytes = Buffer.from(Array.from({ length: 2_000 + index }, (_, i) => (i * 31 + index) % 256));
    await mkdir(path.dirname(path.join(context.config.uploadsDir, name)), { recursive: true });
    await writeFile(path.join(context.config.uploadsDir, name), bytes);
    uploaded.set(name, bytes);
    const [file] = await db
      .insert(files)
      .values({
        ownerUserId: owner?.id ?? '',
        sha256: 'x'.repeat(64),
        contentType: index === 0 ? 'image/png' : 'application/pdf',
        size: bytes.length,
        storagePath: name,
      })
      .returning({ id: files.id });
    if (index === 0) {
      await db
        .update(users)
        .set({ photoFileId: file?.id ?? null })
        .where(sql`${users.id} = ${owner?.id}`);
    }
  }
  const result = await createBackup({
    config: context.config,
    client: context.database.client,
    out: path.join(work, 'out', 'backup.tar.gz'),
    now: new Date(),
  });
  archive = result.file;
  manifest = result.manifest;
}, 300_000);

afterAll(async () => {
  await context?.close();
  if (work !== undefined) {
    await rm(work, { recursive: true, force: true });
  }
});

describe('backup', () => {
  it('writes a manifest with version, migration level, kind, time and a sha256 per part', () => {
    expect(manifest).toMatchObject({
      format: 'telemedicina-backup',
      database: { kind: context.database.client.kind, migration: { count: expect.any(Number) as number } },
      secretKey: { source: 'configured', file: null },
    });
    expect(manifest.database.migration.count).toBeGreaterThan(0);
    const byName = new Map(manifest.database.tables.map((table) => [table.name, table]));
    expect(byName.get('users')?.rows).toBe(demoAccounts.length + 1);
    expect(byName.get('appointments')?.rows).toBeGreaterThan(10);
    expect(byName.get('audit_events')?.rows).toBeGreaterThan(0);
    expect(manifest.uploads.map((upload) => upload.path)).toEqual([
      'uploads/ab/photo-1.png',
      'uploads/cd/scan-2.pdf',
    ]);
  });
});

describe('restore', () => {
  const targets: {
    name: string;
    open: () => Promise<{ client: DatabaseClient; dispose: () => Promise<void> }>;
  }[] = [
    {
      name: 'a fresh embedded database (PGlite in DATA_DIR)',
      open: async () => {
        const client = await openDatabase({ kind: 'pglite', dataDir: targetConfig('pglite').dataDir });
        return { client, dispose: () => client.close() };
      },
    },
    ...(testDatabaseUrl === null
      ? []
      : [
          {
            name: 'a fresh PostgreSQL database',
            open: async () => {
              const database = await createTestDatabase();
              return { client: database.client, dispose: () => database.dispose() };
            },
          },
        ]),
  ];

  it.each(targets)(
    'restores into $name: every row and every file equal',
    async (target) => {
      const { client, dispose } = await target.open();
      const config = targetConfig(target.name.includes('PGlite') ? 'pglite' : 'postgres');
      try {
        await restoreBackup({ config, client, archive, force: false });
        expect(await snapshot(client.db)).toEqual(await snapshot(context.db));
        expect(await sequences(client.db)).toBe(await sequences(context.db));
        for (const [name, bytes] of uploaded) {
          expect((await readFile(path.join(config.uploadsDir, name))).equals(bytes)).toBe(true);
        }
        // The restored instance keeps working: triggers and foreign keys are back.
        await expect(client.db.execute(sql`delete from audit_events`)).rejects.toThrow();
        await expect(
          client.db.execute(
            sql`insert into user_roles (user_id, role_id) values (gen_random_uuid(), gen_random_uuid())`,
          ),
        ).rejects.toThrow();

        // A second restore into the same, now filled, instance is refused…
        await expect(restoreBackup({ config, client, archive, force: false })).rejects.toThrow(/not empty/);
        // …unless forced, which replaces everything (the audit trail included).
        await restoreBackup({ config, client, archive, force: true });
        expect(await snapshot(client.db)).toEqual(await snapshot(context.db));
      } finally {
        await dispose();
      }
    },
    300_000,
  );

  it('refuses a corrupted archive (a part that does not match its sha256) and changes nothing', async () => {
    const unpacked = path.join(work, 'unpacked');
    await mkdir(unpacked, { recursive: true });
    await run('tar', ['-xzf', archive, '-C', unpacked]);
    const usersPart = manifest.database.tables.find((table) => table.name === 'users')?.file ?? '';
    const original = await readFile(path.join(unpacked, usersPart), 'utf8');
    await writeFile(
      path.join(unpacked, usersPart),
      original.replace('Ana Administradora', 'Ana Administradorx'),
    );
    const corrupted = path.join(work, 'corrupted.tar.gz');
    await run('tar', ['-czf', corrupted, '-C', unpacked, '.']);

    const client = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      await client.migrate();
      const error: unknown = await restoreBackup({
        config: targetConfig('corrupted'),
        client,
        archive: corrupted,
        force: true,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BackupArchiveError);
      expect((error as Error).message).toContain(`${usersPart} does not match its sha256`);
      expect((await snapshot(client.db)).users).toEqual([]);
      await expect(
        restoreBackup({
          config: targetConfig('corrupted'),
          client,
          archive: path.join(work, 'missing.tar.gz'),
          force: false,
        }),
      ).rejects.toBeInstanceOf(BackupArchiveError);
    } finally {
      await client.close();
    }
  }, 180_000);

  it('refuses a different secret key unless forced', async () => {
    const client = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      const config = {
        ...targetConfig('other-key'),
        mfaEncryptionKey: 'another-key-of-at-least-32-characters!!',
      };
      await expect(restoreBackup({ config, client, archive, force: false })).rejects.toBeInstanceOf(
        RestoreRefusedError,
      );
      await expect(
        restoreBackup({ config: { ...config, mfaEncryptionKey: null }, client, archive, force: false }),
      ).rejects.toThrow(/MFA_ENCRYPTION_KEY, which is not set here/);
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe('the generated secret key (no MFA_ENCRYPTION_KEY)', () => {
  it('travels inside the archive and is written to the target DATA_DIR/secrets', async () => {
    const source = { ...targetConfig('key-source'), mfaEncryptionKey: null };
    const target = { ...targetConfig('key-target'), mfaEncryptionKey: null };
    const key = 'generated-key-material-of-more-than-32-characters';
    await mkdir(path.join(source.dataDir, 'secrets'), { recursive: true });
    await writeFile(path.join(source.dataDir, generatedKeyFile), `${key}\n`);
    const from = await openDatabase({ kind: 'pglite', dataDir: null });
    const into = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      await from.migrate();
      const { file, manifest: keyed } = await createBackup({
        config: source,
        client: from,
        out: path.join(work, 'keyed.tar.gz'),
        now: new Date(),
      });
      expect(keyed.secretKey).toMatchObject({ source: 'generated', file: 'secrets/mfa-encryption.key' });
      await restoreBackup({ config: target, client: into, archive: file, force: false });
      expect((await readFile(path.join(target.dataDir, generatedKeyFile), 'utf8')).trim()).toBe(key);
    } finally {
      await from.close();
      await into.close();
    }
  }, 180_000);
});

describe('migration levels', () => {
  it('loads an archive from an older version at its level, then applies the newer migrations', async () => {
    const journal = journalEntries();
    const older = await openDatabase({ kind: 'pglite', dataDir: null });
    const target = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      await migrateTo(older, journal.length - 1);
      await older.db.execute(sql`insert into app_meta (key, value) values ('backup.test', '"older"'::jsonb)`);
      const { file, manifest: olderManifest } = await createBackup({
        config: targetConfig('older-source'),
        client: older,
        out: path.join(work, 'older.tar.gz'),
        now: new Date(),
      });
      expect(olderManifest.database.migration).toMatchObject({
        count: journal.length - 1,
        tag: journal.at(-2)?.tag,
      });
      const result = await restoreBackup({
        config: targetConfig('older-target'),
        client: target,
        archive: file,
        force: false,
      });
      expect(result.upgradedFrom).toBe(journal.length - 1);
      expect((await readMigrationLevel(target.db)).count).toBe(journal.length);
      expect((await snapshot(target.db)).app_meta).toEqual(
        expect.arrayContaining([expect.stringContaining('"key":"backup.test","value":"older"')]),
      );
    } finally {
      await older.close();
      await target.close();
    }
  }, 300_000);

  it('refuses an archive from a version with migrations this one does not know', async () => {
    const unpacked = path.join(work, 'newer');
    await mkdir(unpacked, { recursive: true });
    await run('tar', ['-xzf', archive, '-C', unpacked]);
    const edited = {
      ...manifest,
      database: { ...manifest.database, migration: { count: 999, lastWhen: 1, tag: '0999_future' } },
    };
    await writeFile(path.join(unpacked, 'manifest.json'), JSON.stringify(edited));
    const client = await openDatabase({ kind: 'pglite', dataDir: null });
    try {
      await expect(
        restoreBackup({ config: targetConfig('newer'), client, archive: unpacked, force: true }),
      ).rejects.toThrow(/0999_future/);
      expect((await readMigrationLevel(client.db)).count).toBe(0);
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe('npm run backup / npm run restore', () => {
  const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

  function cli(
    args: string[],
    env: Record<string, string>,
  ): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        process.execPath,
        [
          '--conditions=@telemedicina/source',
          '--import',
          'tsx',
          'apps/server/src/backup/backup-main.ts',
          ...args,
        ],
        {
          cwd: repositoryRoot,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => resolve({ code, output }));
    });
  }

  it('restores into an empty DATA_DIR, backs it up again to the same parts, and refuses while a server holds it', async () => {
    const env = {
      DATA_DIR: path.join(work, 'cli', 'data'),
      UPLOADS_DIR: path.join(work, 'cli', 'uploads'),
      MFA_ENCRYPTION_KEY: context.config.mfaEncryptionKey ?? '',
    };
    const restored = await cli(['restore', archive], env);
    expect(restored.output).toContain('Restored');
    expect(restored.code).toBe(0);

    const again = path.join(work, 'cli', 'again.tar.gz');
    const backedUp = await cli(['backup', '--out', again], env);
    expect(backedUp.output).toContain(`Backup written to ${again}`);
    expect(backedUp.code).toBe(0);
    const { stdout } = await run('tar', ['-xzOf', again, './manifest.json']);
    const second = JSON.parse(stdout) as BackupManifest;
    expect(second.database.kind).toBe('pglite');
    expect(second.database.tables.map(({ name, rows, sha256 }) => ({ name, rows, sha256 }))).toEqual(
      manifest.database.tables.map(({ name, rows, sha256 }) => ({ name, rows, sha256 })),
    );
    expect(second.uploads).toEqual(manifest.uploads);

    const lock = await acquireDataDirLock(env.DATA_DIR);
    try {
      const refused = await cli(['backup', '--out', path.join(work, 'cli', 'refused.tar.gz')], env);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('in use by a running server');
    } finally {
      await lock.release();
    }
  }, 180_000);
});
