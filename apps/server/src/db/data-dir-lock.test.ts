import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, lockFileName } from './data-dir-lock.js';

let dataDir: string;
let lockPath: string;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-lock-'));
  lockPath = path.join(dataDir, lockFileName);
});

afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** A pid that certainly ran on this host and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

async function writeLock(content: object): Promise<void> {
  await writeFile(lockPath, JSON.stringify(content));
}

describe('acquireDataDirLock', () => {
  it('creates the folder and a lock file holding our pid, removed on release', async () => {
    const nested = path.join(dataDir, 'a', 'b');
    const lock = await acquireDataDirLock(nested);
    const content = JSON.parse(await readFile(path.join(nested, lockFileName), 'utf8')) as { pid: number };
    expect(content.pid).toBe(process.pid);
    await lock.release();
    await expect(stat(lock.path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a second lock on the same folder while the first is held, naming folder and pid', async () => {
    const first = await acquireDataDirLock(dataDir);
    const error = await acquireDataDirLock(dataDir).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(dataDir);
    expect((error as Error).message).toContain(`process ${process.pid}`);
    await first.release();
    const again = await acquireDataDirLock(dataDir);
    await again.release();
  });

  it('refuses a lock held by another live process', async () => {
    // pid 1 (init) is always alive.
    await writeLock({ pid: 1, hostname: hostname(), token: 'other', startedAt: new Date().toISOString() });
    await expect(acquireDataDirLock(dataDir)).rejects.toThrow(/in use by process 1\b/);
    // The other process's lock is left alone.
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: 1, token: 'other' });
  });

  it('takes over a stale lock whose process has exited', async () => {
    const pid = deadPid();
    await writeLock({ pid, hostname: hostname(), token: 'stale', startedAt: '2020-01-01T00:00:00.000Z' });
    const lock = await acquireDataDirLock(dataDir);
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('refuses a lock from another host, whose pid cannot be checked here', async () => {
    const pid = deadPid();
    await writeLock({
      pid,
      hostname: 'another-machine',
      token: 'remote',
      startedAt: new Date().toISOString(),
    });
    await expect(acquireDataDirLock(dataDir)).rejects.toThrow(/on host another-machine/);
  });

  it('treats a fresh unreadable lock file as being written, and an old one as stale', async () => {
    await writeFile(lockPath, '');
    await expect(acquireDataDirLock(dataDir)).rejects.toBeInstanceOf(DataDirLockedError);
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath, old, old);
    const lock = await acquireDataDirLock(dataDir);
    await lock.release();
  });

  it('never removes a lock file that is no longer its own', async () => {
    const lock = await acquireDataDirLock(dataDir);
    await writeLock({
      pid: 1,
      hostname: hostname(),
      token: 'someone-else',
      startedAt: new Date().toISOString(),
    });
    await lock.release();
    expect(JSON.parse(await readFile(lockPath, 'utf8'))).toMatchObject({ token: 'someone-else' });
  });
});
