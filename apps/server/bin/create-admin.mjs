// `npm run create-admin`: runs the built CLI when the server was built, else the
// TypeScript source through tsx (development checkouts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli/create-admin-main.js', import.meta.url));
const source = fileURLToPath(new URL('../src/cli/create-admin-main.ts', import.meta.url));

if (existsSync(built)) {
  await import(built);
} else {
  const child = spawn(
    process.execPath,
    ['--conditions=@telemedicina/source', '--import', 'tsx', source, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
