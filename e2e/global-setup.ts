import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumPath } from './support/browser.js';
import { prepareSeededDataDir, repoRoot } from './support/server.js';

/**
 * Fails early, with the fix, when the browser tests cannot run; then makes the seeded data folder
 * every browser file's server starts from (once per build).
 */
export default async function setup(): Promise<void> {
  for (const file of ['apps/server/dist/main.js', 'apps/web/dist/index.html']) {
    if (!existsSync(join(repoRoot, file))) {
      throw new Error(`${file} is missing: run \`npm run build\` (npm test does it for you).`);
    }
  }
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: run \`node scripts/ensure-chromium.mjs\` as root.`,
    );
  }
  await prepareSeededDataDir();
}
