// Builds shared, server and web when their output is missing or older than their sources.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime, npm, root } from './lib.mjs';

const targets = [
  {
    workspace: '@telemedicina/shared',
    sources: ['packages/shared/src'],
    output: 'packages/shared/dist/common.js',
  },
  {
    workspace: '@telemedicina/server',
    sources: ['apps/server/src', 'apps/server/drizzle', 'packages/shared/src'],
    output: 'apps/server/dist/main.js',
  },
  {
    workspace: '@telemedicina/web',
    sources: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'packages/shared/src'],
    output: 'apps/web/dist/index.html',
  },
];

function isStale(target) {
  const output = join(root, target.output);
  if (!existsSync(output)) {
    return true;
  }
  const built = statSync(output).mtimeMs;
  return target.sources.some((source) => {
    const path = join(root, source);
    if (!existsSync(path)) {
      return false;
    }
    const stat = statSync(path);
    return (stat.isDirectory() ? newestMtime(path) : stat.mtimeMs) > built;
  });
}

/** Builds every stale target in dependency order; returns the exit code. */
export async function buildIfNeeded({ force = false } = {}) {
  for (const target of targets) {
    if (force || isStale(target)) {
      console.log(`[telemedicina] Building ${target.workspace}…`);
      const code = await npm(['run', 'build', '-w', target.workspace]);
      if (code !== 0) {
        return code;
      }
    }
  }
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await buildIfNeeded({ force: process.argv.includes('--force') });
}
