#!/usr/bin/env node
// Makes sure Debian's coturn (the `turnserver` binary) is present for the TURN relay test
// (e2e/turn-relay.e2e.ts). Like ensure-chromium.mjs: installed with apt-get when missing and we are
// root, otherwise the message says how. apt may be busy (another install, unattended upgrades):
// apt-get waits for the dpkg lock itself, and a failed attempt is tried again a few times.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const turnserverPath = process.env.TURNSERVER_PATH ?? '/usr/bin/turnserver';

const lockWaitSeconds = 300;
const attempts = 4;

function apt(args) {
  execFileSync('apt-get', ['-o', `DPkg::Lock::Timeout=${lockWaitSeconds}`, ...args], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Sleeps the current thread (a synchronous script between two apt attempts). */
function pause(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Installs coturn with apt-get when `turnserver` is missing and we are root; otherwise explains how. */
export function ensureCoturn() {
  if (existsSync(turnserverPath)) {
    return turnserverPath;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `coturn's turnserver was not found at ${turnserverPath}. Install it with "sudo apt-get install -y coturn" ` +
        'or point TURNSERVER_PATH at a turnserver binary, then run the tests again.',
    );
  }
  console.log('[telemedicina] Installing Debian coturn for the TURN relay test (once)…');
  let lastError = null;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      apt(['update', '-qq']);
      apt(['install', '-y', '-qq', '--no-install-recommends', 'coturn']);
      lastError = null;
      break;
    } catch (error) {
      lastError = error;
      console.log(`[telemedicina] apt-get failed (attempt ${attempt} of ${attempts}); trying again shortly…`);
      pause(5_000 * attempt);
    }
  }
  if (lastError !== null || !existsSync(turnserverPath)) {
    throw new Error(`Installing coturn failed; ${turnserverPath} is still missing.`, { cause: lastError });
  }
  return turnserverPath;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureCoturn());
}
