// Runs a TypeScript file (benchmarks, one-off tools) on the project's Node with tsx.
import { nodeBin, run } from './lib.mjs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/run-ts.mjs <file.ts> [args…]');
  process.exit(2);
}
process.exitCode = await run(nodeBin, ['--import', 'tsx', file, ...rest]);
