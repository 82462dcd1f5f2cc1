// Small helpers shared by the project's scripts (start, test, dev).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const nodeBin = process.execPath;

/** Warns when the scripts are not running on the project's Node 24 (npm puts it first on PATH). */
export function checkNodeVersion() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 24) {
    console.warn(
      `[telemedicina] Running on Node ${process.versions.node}; the project expects Node 24 ` +
        '(installed by `npm ci` into node_modules/.bin). Run the scripts through npm: `npm start`, `npm test`.',
    );
  }
}

/** Newest modification time of any file below `dir` (skipping dist and node_modules). */
export function newestMtime(dir) {
  let newest = 0;
  const walk = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) {
        continue;
      }
      const path = join(current, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else {
        newest = Math.max(newest, statSync(path).mtimeMs);
      }
    }
  };
  if (existsSync(dir)) {
    walk(dir);
  }
  return newest;
}

/** Runs a command with inherited output; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', ...options });
    child.on('exit', (code, signal) => resolvePromise(code ?? (signal ? 1 : 0)));
    child.on('error', (error) => {
      console.error(error);
      resolvePromise(1);
    });
  });
}

/** npm, run from the same Node so PATH keeps node_modules/.bin first. */
export function npm(args, options = {}) {
  return run(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, options);
}
