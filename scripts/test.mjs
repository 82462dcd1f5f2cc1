// `npm test`: every suite the project has, in the order that fails fastest.
//   1. static checks (typecheck, lint, translation keys)   2. build
//   3. unit + integration suites (shared, server on PGlite, web under jsdom)
//   4. the server suite again on real PostgreSQL when TEST_DATABASE_URL is set
//   5. whole-system suites (crash, scale-out) with TEST_SYSTEM=1
//   6. browser journeys in Debian's Chromium against the built server
// It ends with the line `N passed, N failed` and a non-zero exit on any failure.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildIfNeeded } from './build-if-needed.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { checkNodeVersion, npm, root, run } from './lib.mjs';

checkNodeVersion();
const resultsDir = join(root, 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const rows = [];
let passed = 0;
let failed = 0;

function record(name, ok, detail) {
  rows.push({ name, ok, detail });
  if (ok) {
    passed += 1;
  } else {
    failed += 1;
  }
}

/** Runs one vitest invocation and adds its per-test results to the totals. */
async function vitest(label, args, env = {}) {
  const output = join(resultsDir, `${label}.json`);
  const code = await run(
    'vitest',
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${output}`],
    { env: { ...process.env, TZ: 'UTC', ...env } },
  );
  if (!existsSync(output)) {
    record(`${label} (vitest did not report)`, false);
    return;
  }
  const report = JSON.parse(readFileSync(output, 'utf8'));
  const ran = report.numPassedTests + report.numFailedTests;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  // A suite that fails to load shows up as a failed file with no failed test: count it.
  const brokenFiles = report.testResults.filter(
    (file) => file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed'),
  );
  failed += brokenFiles.length;
  rows.push({
    name: `${label}: ${report.numPassedTests} passed, ${report.numFailedTests + brokenFiles.length} failed`,
    ok: code === 0 && ran > 0,
  });
  // Name what failed beside the summary: the tail of a CI log is often all that is kept.
  for (const file of report.testResults) {
    const where = file.name.replace(`${root}/`, '');
    for (const test of file.assertionResults.filter((result) => result.status === 'failed')) {
      const reason = (test.failureMessages?.[0] ?? '').split('\n')[0].slice(0, 200);
      rows.push({ name: `  ${where} › ${test.fullName}${reason ? ` — ${reason}` : ''}`, ok: false });
    }
  }
  for (const file of brokenFiles) {
    const reason = (file.message ?? '').split('\n')[0].slice(0, 200);
    rows.push({ name: `  ${file.name.replace(`${root}/`, '')} did not load${reason ? ` — ${reason}` : ''}`, ok: false });
  }
  if (ran === 0) {
    record(`${label}: no test ran`, false);
  } else if (code !== 0 && report.numFailedTests + brokenFiles.length === 0) {
    record(`${label}: vitest exited with ${code}`, false);
  }
}

const only = process.env.TEST_ONLY?.split(',').filter(Boolean);
const wants = (step) => !only || only.includes(step);

if (wants('static')) {
  record('typecheck', (await npm(['run', 'typecheck'])) === 0);
  record('lint', (await npm(['run', 'lint'])) === 0);
}

const buildOk = (await buildIfNeeded()) === 0;
record('build', buildOk);

if (wants('unit')) {
  await vitest('unit-pglite', ['--project', 'shared', '--project', 'server', '--project', 'web']);
}
if (wants('unit') && process.env.TEST_DATABASE_URL) {
  await vitest('server-postgres', ['--project', 'server'], {
    TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  });
}
// Whole-system suites need built servers, PostgreSQL and Redis: CI sets TEST_SYSTEM=1.
if (wants('system') && process.env.TEST_SYSTEM === '1' && buildOk) {
  await vitest('system', ['--project', 'system']);
}
if (wants('e2e')) {
  let chromiumReady = false;
  try {
    ensureChromium();
    chromiumReady = true;
  } catch (error) {
    record(`chromium: ${error instanceof Error ? error.message : String(error)}`, false);
  }
  if (chromiumReady && buildOk) {
    // Two files at a time: each starts its own server and browser, and a journey mostly waits on
    // pages, so two share the cores well. The journeys that time real video calls and the 5 s
    // autosave run afterwards, alone.
    const soloFiles = ['visit.e2e.ts', 'clinical-record.e2e.ts'];
    await vitest('e2e', [
      '--project',
      'e2e',
      '--fileParallelism',
      '--maxWorkers=2',
      ...soloFiles.flatMap((file) => ['--exclude', `**/${file}`]),
    ]);
    await vitest('e2e-solo', ['--project', 'e2e', ...soloFiles.map((file) => `e2e/${file}`)]);
  }
}

console.log('\nSummary');
for (const row of rows) {
  console.log(`  ${row.ok ? 'ok  ' : 'FAIL'}  ${row.name}`);
}
const closing = `${passed} passed, ${failed} failed`;
writeFileSync(join(resultsDir, 'summary.txt'), `${closing}\n`);
console.log(closing);
process.exitCode = failed > 0 ? 1 : 0;
