#!/usr/bin/env node
// Makes sure Debian's Chromium is present for the browser tests. Playwright's
// own browser download cannot work here (no internet beyond the package
// registries), so the tests drive /usr/bin/chromium from Debian's packages.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Installs chromium with apt-get when it is missing and we are root; otherwise explains how. */
export function ensureChromium() {
  if (existsSync(chromiumPath)) {
    return chromiumPath;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    throw new Error(
      `Chromium was not found at ${chromiumPath}. Install it with "sudo apt-get install -y chromium fonts-liberation fonts-dejavu-core" ` +
        'or point CHROMIUM_PATH at a Chromium binary, then run the tests again.',
    );
  }
  console.log('[telemedicina] Installing Debian chromium for the browser tests (once)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync(
    'apt-get',
    [
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      'chromium',
      'fonts-liberation',
      'fonts-dejavu-core',
      'fonts-noto-color-emoji',
    ],
    { stdio: 'inherit', env },
  );
  if (!existsSync(chromiumPath)) {
    throw new Error(`apt-get finished but ${chromiumPath} is still missing.`);
  }
  return chromiumPath;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(ensureChromium());
}
