// `npm start`: builds what is missing, then runs one server process on the
// embedded database (PGlite in ./data) unless DATABASE_URL says otherwise.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';
import { checkNodeVersion, nodeBin, root } from './lib.mjs';

checkNodeVersion();
const buildCode = await buildIfNeeded();
if (buildCode !== 0) {
  console.error('[telemedicina] The build failed; the server was not started.');
  process.exit(buildCode);
}

const child = spawn(nodeBin, ['--enable-source-maps', join(root, 'apps/server/dist/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
