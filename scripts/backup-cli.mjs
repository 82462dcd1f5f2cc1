// Shared launcher of `npm run backup` and `npm run restore` (one CLI, apps/server/src/backup/backup-main.ts).
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newestMtime, nodeBin, root, run } from './lib.mjs';

const built = join(root, 'apps/server/dist/backup/backup-main.js');
const source = join(root, 'apps/server/src/backup/backup-main.ts');

/** Runs the built CLI when it is up to date with the server's sources, else the source through tsx. */
export function runBackupCli(command, args) {
  const isBuiltFresh =
    existsSync(built) &&
    (!existsSync(source) || statSync(built).mtimeMs >= newestMtime(join(root, 'apps/server/src')));
  return isBuiltFresh
    ? run(nodeBin, [built, command, ...args], { cwd: process.cwd() })
    : run(nodeBin, ['--conditions=@telemedicina/source', '--import', 'tsx', source, command, ...args], {
        cwd: process.cwd(),
      });
}
