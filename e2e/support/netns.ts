import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from './browser.js';

/**
 * A private network for one browser, so a test can cut it for real: a network namespace joined to
 * this machine by a veth pair on a /30 of 10.213.0.0/16 (this machine's end `hostAddress`, the
 * namespace's `innerAddress`, its default route through this machine). A Chromium started inside
 * (`chromiumPath`, a wrapper around `ip netns exec`) reaches the app at `hostAddress` and nothing
 * else; `setLink(false)` takes this machine's end of the pair down, which drops every packet both
 * ways — the page's link to the server and its call media alike — without the browser being told,
 * as when a phone loses its network. (The browser's offline mode and its packet-loss emulation do
 * not stop WebRTC between two pages on one host, and this kernel has no tc actions, iptables or
 * nft.) Needs root and iproute2. Names carry this process's id, so namespaces and links left by a
 * run that was killed are found and removed by the next one.
 */
export interface NetworkNamespace {
  name: string;
  /** This machine's end of the veth pair (the one `setLink` takes down). */
  hostLink: string;
  hostAddress: string;
  innerAddress: string;
  /** Runs Chromium inside the namespace: give it to `launchBrowser` as its executable. */
  chromiumPath: string;
  /** Brings this machine's end of the pair down (a cut network) or up again. */
  setLink: (isUp: boolean) => void;
  /** Removes the namespace, its links and the wrapper (also run at process exit). */
  remove: () => void;
}

const namespacePrefix = 'tmcut-';
/** Link names: `tmc<pid>x<n>h` here, `…p` in the namespace (at most 15 characters). */
const linkPattern = /^tmc(\d+)x\d+[hp]$/;
const namespacePattern = /^tmcut-(\d+)-\d+$/;

let made = 0;

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function deleteNamespace(name: string): void {
  // A browser still inside (its run was killed) would keep the namespace and its links alive.
  const pids = (() => {
    try {
      return ip('netns', 'pids', name).split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  try {
    ip('netns', 'del', name);
  } catch {
    // already gone
  }
}

function deleteLink(name: string): void {
  try {
    ip('link', 'del', name);
  } catch {
    // already gone (deleting one end of a veth pair deletes both)
  }
}

/** Removes namespaces and links of earlier runs whose process is gone. */
export function removeStaleNamespaces(): void {
  for (const line of ip('netns', 'list').split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const owner = namespacePattern.exec(name)?.[1];
    if (owner && !isAlive(Number(owner))) {
      deleteNamespace(name);
    }
  }
  for (const line of ip('-o', 'link', 'show').split('\n')) {
    const name = /^\d+:\s+([^:@\s]+)/.exec(line)?.[1] ?? '';
    const owner = linkPattern.exec(name)?.[1];
    if (owner && !isAlive(Number(owner))) {
      deleteLink(name);
    }
  }
}

/** A free /30 of 10.213.0.0/16 (none of this machine's addresses in it). */
function freeSubnet(): { hostAddress: string; innerAddress: string } {
  const taken = new Set(
    [...ip('-4', '-o', 'addr', 'show').matchAll(/inet (10\.213\.(\d+)\.(\d+))\//g)].map(
      (match) => `${match[2]}.${Number(match[3]) & ~3}`,
    ),
  );
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const block = Math.floor(Math.random() * 16_384);
    const third = block >> 6;
    const fourth = (block & 63) << 2;
    if (!taken.has(`${third}.${fourth}`)) {
      return { hostAddress: `10.213.${third}.${fourth + 1}`, innerAddress: `10.213.${third}.${fourth + 2}` };
    }
  }
  throw new Error('No free /30 in 10.213.0.0/16 for a test network namespace');
}

/** Makes the namespace (see {@link NetworkNamespace}); anything half made is removed on failure. */
export function createNetworkNamespace(): NetworkNamespace {
  if (process.getuid?.() !== 0) {
    throw new Error('A test network namespace needs root (ip netns add, veth links)');
  }
  removeStaleNamespaces();
  made += 1;
  const name = `${namespacePrefix}${process.pid}-${made}`;
  const hostLink = `tmc${process.pid}x${made}h`;
  const innerLink = `tmc${process.pid}x${made}p`;
  const { hostAddress, innerAddress } = freeSubnet();
  const wrapperDir = mkdtempSync(join(tmpdir(), 'telemedicina-netns-'));
  const wrapper = join(wrapperDir, 'chromium-in-namespace');

  let removed = false;
  const remove = () => {
    if (removed) {
      return;
    }
    removed = true;
    process.off('exit', remove);
    deleteNamespace(name);
    deleteLink(hostLink);
    rmSync(wrapperDir, { recursive: true, force: true });
  };
  process.once('exit', remove);

  try {
    ip('netns', 'add', name);
    ip('link', 'add', hostLink, 'type', 'veth', 'peer', 'name', innerLink);
    ip('link', 'set', innerLink, 'netns', name);
    ip('addr', 'add', `${hostAddress}/30`, 'dev', hostLink);
    ip('link', 'set', hostLink, 'up');
    ip('-n', name, 'link', 'set', 'lo', 'up');
    ip('-n', name, 'addr', 'add', `${innerAddress}/30`, 'dev', innerLink);
    ip('-n', name, 'link', 'set', innerLink, 'up');
    ip('-n', name, 'route', 'add', 'default', 'via', hostAddress);
    // `ip netns exec` keeps the file descriptors, so Playwright's pipe to the browser still works.
    writeFileSync(wrapper, `#!/bin/sh\nexec ip netns exec '${name}' '${chromiumPath}' "$@"\n`);
    chmodSync(wrapper, 0o755);
  } catch (error) {
    remove();
    throw new Error(`Could not make the test network namespace ${name}`, { cause: error });
  }

  return {
    name,
    hostLink,
    hostAddress,
    innerAddress,
    chromiumPath: wrapper,
    setLink: (isUp) => {
      ip('link', 'set', hostLink, isUp ? 'up' : 'down');
    },
    remove,
  };
}
