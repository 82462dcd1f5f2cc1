import { randomUUID } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { link, mkdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

/** File name of the lock inside the data folder. */
export const lockFileName = 'telemedicina.lock';

/** How long an unreadable lock file counts as "being written" by a starting process. */
const unreadableGraceMs = 5_000;

interface LockContent {
  pid: number;
  hostname: string;
  token: string;
  startedAt: string;
}

/** A held lock; `release` is idempotent and only removes a file that is still ours. */
export interface DataDirLock {
  readonly path: string;
  release(): Promise<void>;
}

/** Another live process holds the data folder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number | null; hostname: string | null },
    lockPath: string,
  ) {
    const who =
      holder.pid === null
        ? 'another process (its lock file is being written)'
        : `process ${holder.pid}${holder.hostname !== null && holder.hostname !== hostname() ? ` on host ${holder.hostname}` : ''}`;
    super(
      `The data folder ${dataDir} is already in use by ${who}. ` +
        `Stop that server first, or start this one with another DATA_DIR. ` +
        `If no server is using it, delete ${lockPath}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Takes an exclusive lock on `dataDir` for this process. PGlite has no lock of
 * its own and two processes writing one folder corrupt it, so the server takes
 * this before opening the embedded database.
 *
 * The lock file is created with O_CREAT|O_EXCL and holds our pid. A lock whose
 * pid no longer runs on this host is stale and taken over; a live holder (or a
 * holder on another host, which cannot be checked) makes this throw
 * {@link DataDirLockedError}.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, lockFileName);
  const content: LockContent = {
    pid: process.pid,
    hostname: hostname(),
    token: randomUUID(),
    startedAt: new Date().toISOString(),
  };

  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (tryCreate(lockPath, content)) {
      return createHandle(lockPath, content);
    }
    const holder = await inspectExisting(lockPath);
    if (holder.state === 'gone') {
      continue;
    }
    if (holder.state === 'held') {
      throw new DataDirLockedError(dataDir, holder, lockPath);
    }
    await removeStale(lockPath, holder.ino);
  }
  throw new DataDirLockedError(dataDir, { pid: null, hostname: null }, lockPath);
}

function tryCreate(lockPath: string, content: LockContent): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
  } catch (error) {
    if (isErrno(error, 'EEXIST')) {
      return false;
    }
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(content)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

type Holder =
  | { state: 'gone' }
  | { state: 'held'; pid: number | null; hostname: string | null }
  | { state: 'stale'; ino: number };

async function inspectExisting(lockPath: string): Promise<Holder> {
  let raw: string;
  let ino: number;
  let modifiedAt: number;
  try {
    const stats = await stat(lockPath);
    ino = stats.ino;
    modifiedAt = stats.mtimeMs;
    raw = await readFile(lockPath, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) {
      return { state: 'gone' };
    }
    throw error;
  }
  const content = parseLock(raw);
  if (content === null) {
    // Created but not yet written by a starting process, or garbage left by a crash.
    return Date.now() - modifiedAt < unreadableGraceMs
      ? { state: 'held', pid: null, hostname: null }
      : { state: 'stale', ino };
  }
  if (content.hostname !== hostname()) {
    // A shared folder used from another machine: its pid means nothing here.
    return { state: 'held', pid: content.pid, hostname: content.hostname };
  }
  return isProcessAlive(content.pid)
    ? { state: 'held', pid: content.pid, hostname: content.hostname }
    : { state: 'stale', ino };
}

/**
 * Removes a stale lock without ever removing a fresh one: the file is moved
 * aside atomically, and if it turns out to be a different file (another
 * process took over in between) it is put back.
 */
async function removeStale(lockPath: string, staleIno: number): Promise<void> {
  const aside = `${lockPath}.${process.pid}.${randomUUID()}.stale`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) {
      return;
    }
    throw error;
  }
  try {
    const moved = await stat(aside);
    if (moved.ino !== staleIno) {
      await link(aside, lockPath).catch(() => undefined);
    }
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

function createHandle(lockPath: string, content: LockContent): DataDirLock {
  let isReleased = false;
  const releaseSync = (): void => {
    if (isReleased) {
      return;
    }
    isReleased = true;
    process.off('exit', releaseSync);
    try {
      if (parseLock(readFileSync(lockPath, 'utf8'))?.token === content.token) {
        unlinkSync(lockPath);
      }
    } catch {
      // Already gone: nothing to release.
    }
  };
  // Last resort for exits that skip the graceful path (uncaught errors, process.exit).
  process.on('exit', releaseSync);
  return {
    path: lockPath,
    release: () => {
      releaseSync();
      return Promise.resolve();
    },
  };
}

function parseLock(raw: string): LockContent | null {
  try {
    const value = JSON.parse(raw) as Partial<LockContent>;
    if (
      typeof value.pid === 'number' &&
      Number.isInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.hostname === 'string' &&
      typeof value.token === 'string'
    ) {
      return value as LockContent;
    }
  } catch {
    // not JSON
  }
  return null;
}

/** True when a process with this pid exists (EPERM: it exists but belongs to someone else). */
function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM');
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
