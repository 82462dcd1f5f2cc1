// `npm run dev`: the server from its TypeScript sources with reload (tsx watch)
// and Vite's dev server with hot reload on http://localhost:5173 (it proxies /api and /socket.io).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { checkNodeVersion, nodeBin, root } from './lib.mjs';

checkNodeVersion();
const children = [
  spawn(
    nodeBin,
    [
      '--conditions=@telemedicina/source',
      '--import',
      'tsx',
      '--watch',
      join(root, 'apps/server/src/main.ts'),
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: { NODE_ENV: 'development', PUBLIC_ORIGIN: 'http://localhost:5173', ...process.env },
    },
  ),
  spawn('vite', [], { cwd: join(root, 'apps/web'), stdio: 'inherit' }),
];
const stop = (signal) => children.forEach((child) => child.kill(signal));
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) {
  child.on('exit', (code) => {
    stop('SIGTERM');
    process.exitCode = code ?? 0;
  });
}
