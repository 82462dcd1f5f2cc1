#!/usr/bin/env node
// `npm run security:scan`: SQL injection scan of every parameterized GET endpoint with sqlmap.
//
// Builds the server when needed, starts it on free ports with a fresh embedded database and the
// demo data, signs in as the demo administrator (the credentials the server prints), reads the
// endpoints and their parameters from the server's own OpenAPI document, and runs sqlmap
// (`--batch --level 2 --risk 1`, PostgreSQL payloads) on each with the session cookie and the XSRF
// header. Path values no list hands out are made first through the API (a diagnosis code, the
// verification code of a prescription the demo doctor issues). The server runs with NODE_ENV=test
// and SECURITY_SCAN_NO_RATE_LIMITS=true, which it honours in no other environment: requests from
// this machine skip the rate limits, so sqlmap is not answered 429 on a rate-limited endpoint.
// Prints a table (endpoint, parameters tested, result) and exits non-zero on any finding,
// or when an endpoint could not be tested (its sample request did not answer 2xx, or sqlmap did
// not finish): a scan that skipped something must not pass quietly.
//
//   npm run security:scan
//   SCAN_ONLY=/users,/search SCAN_PARALLEL=2 SCAN_ENDPOINT_SECONDS=240 npm run security:scan
//
// sqlmap comes from Debian (`apt-get install sqlmap`), installed here when missing and running as root.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkNodeVersion, newestMtime, nodeBin, npm, root } from './lib.mjs';
import { demoAccountsFrom, getJson, planTargets, prepareRecords, signIn } from './security-scan/targets.mjs';

const parallel = Math.max(1, Number(process.env.SCAN_PARALLEL ?? 2));
const endpointSeconds = Number(process.env.SCAN_ENDPOINT_SECONDS ?? 300);
const only = process.env.SCAN_ONLY?.split(',').filter(Boolean);

checkNodeVersion();
const sqlmap = ensureSqlmap();
if ((await buildServerIfNeeded()) !== 0) {
  console.error('[security:scan] The server build failed.');
  process.exit(1);
}

const workDir = mkdtempSync(join(tmpdir(), 'telemedicina-sqlmap-'));
const server = await startServer(join(workDir, 'data'));
let exitCode = 1;
try {
  const accounts = demoAccountsFrom(server.output());
  const sessions = [];
  for (const account of accounts) {
    const session = { ...account, ...(await signIn(server.baseUrl, account)) };
    session.userId = (await getJson(server.baseUrl, '/api/v1/me', session)).body?.user?.id ?? null;
    sessions.push(session);
  }
  console.log(
    `[security:scan] Signed in as ${accounts.map((account) => `${account.email} (${account.role})`).join(', ')} ` +
      `on ${server.baseUrl}.`,
  );
  const knownValues = await prepareRecords(server.baseUrl, sessions);
  const targets = await planTargets(server.baseUrl, sessions, knownValues, only);
  console.log(
    `[security:scan] ${targets.filter((target) => target.url).length} endpoints to scan, ` +
      `${parallel} at a time (sqlmap ${sqlmapVersion(sqlmap)}; output under ${workDir}).\n`,
  );
  const results = await runAll(targets, (target, index) => scan(target, index));
  exitCode = report(results);
} catch (error) {
  console.error(`[security:scan] ${error instanceof Error ? error.message : String(error)}`);
  console.error(server.output().slice(-2_000));
} finally {
  await server.stop();
  if (exitCode === 0) {
    rmSync(workDir, { recursive: true, force: true });
  } else {
    console.log(`[security:scan] sqlmap's logs are kept in ${workDir}.`);
  }
}
process.exit(exitCode);

/** Builds shared and server (the API is what is scanned; the web app is not needed) when stale. */
async function buildServerIfNeeded() {
  const built = join(root, 'apps/server/dist/main.js');
  const sources = ['apps/server/src', 'apps/server/drizzle', 'packages/shared/src'].map((folder) =>
    join(root, folder),
  );
  if (existsSync(built) && sources.every((folder) => newestMtime(folder) <= statSync(built).mtimeMs)) {
    return 0;
  }
  console.log('[security:scan] Building shared and server…');
  for (const workspace of ['@telemedicina/shared', '@telemedicina/server']) {
    const code = await npm(['run', 'build', '-w', workspace]);
    if (code !== 0) {
      return code;
    }
  }
  return 0;
}

/** The sqlmap binary, installed from Debian when missing and running as root. */
function ensureSqlmap() {
  const found = ['/usr/bin/sqlmap', '/usr/local/bin/sqlmap'].find((path) => existsSync(path));
  if (found) {
    return found;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      '[security:scan] sqlmap is not installed. Install it with "sudo apt-get install -y sqlmap" and run this again.',
    );
    process.exit(2);
  }
  console.log('[security:scan] Installing Debian sqlmap (once)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'sqlmap'], {
    stdio: 'inherit',
    env,
  });
  if (!existsSync('/usr/bin/sqlmap')) {
    console.error('[security:scan] apt-get finished but /usr/bin/sqlmap is still missing.');
    process.exit(2);
  }
  return '/usr/bin/sqlmap';
}

function sqlmapVersion(binary) {
  try {
    return execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().split('\n')[0];
  } catch {
    return '(version unknown)';
  }
}

async function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** The built server on a free port with a fresh data folder and the demo data (as e2e/support/server.ts). */
async function startServer(dataDir) {
  const port = await freePort();
  let log = '';
  const child = spawn(nodeBin, [join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      // NODE_ENV=test: the only environment in which the server honours SECURITY_SCAN_NO_RATE_LIMITS
      // (it refuses to start with it otherwise). Requests from this machine then skip the rate
      // limits, so sqlmap's thousands of requests reach rate-limited endpoints (the public
      // prescription check allows 30 per 15 minutes) instead of being answered 429.
      NODE_ENV: 'test',
      SECURITY_SCAN_NO_RATE_LIMITS: 'true',
      HOST: '127.0.0.1',
      PORT: String(port),
      REALTIME_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      REMINDER_POLL_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk) => (log += chunk.toString()));
  child.stderr.on('data', (chunk) => (log += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`The server exited with ${child.exitCode} before it was ready:\n${log}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/v1/health`)).ok) {
        break;
      }
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The server did not become ready within 90 s:\n${log}`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  // Wait for the start banner too (it lists the demo accounts).
  while (!log.includes('Demo accounts') && Date.now() < deadline) {
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
  return { baseUrl, output: () => log, stop };
}

async function runAll(targets, worker) {
  const results = new Array(targets.length);
  let next = 0;
  const lanes = Array.from({ length: parallel }, async () => {
    while (next < targets.length) {
      const index = next;
      next += 1;
      results[index] = await worker(targets[index], index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** One sqlmap run; resolves with the verdict read from its output. */
function scan(target, index) {
  const { session } = target;
  if (target.url === null) {
    return Promise.resolve({ ...target, verdict: 'untested', detail: target.note });
  }
  const outputDir = join(workDir, `sqlmap-${String(index).padStart(2, '0')}`);
  const args = [
    '-u',
    target.url,
    '--batch',
    '--level',
    '2',
    '--risk',
    '1',
    '--dbms',
    'PostgreSQL',
    '--flush-session',
    '--disable-coloring',
    '--skip-waf',
    '--timeout',
    '10',
    '--retries',
    '1',
    '--threads',
    '2',
    '--output-dir',
    outputDir,
    '--cookie',
    session.cookie,
    '-H',
    `X-XSRF-TOKEN: ${session.xsrf}`,
  ];
  if (target.queryParameters.length > 0) {
    // Only the endpoint's parameters: level 2 would otherwise also mangle the session cookie.
    args.push('-p', target.queryParameters.join(','));
  } else {
    args.push('--skip', 'tm_session,XSRF-TOKEN');
  }
  if (target.ignoreCode !== null) {
    args.push('--ignore-code', target.ignoreCode);
  }
  const startedAt = Date.now();
  console.log(`[security:scan] ${target.label}: testing ${target.tested.join(', ')}…`);
  return new Promise((resolveScan) => {
    const child = spawn(sqlmap, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk.toString()));
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, endpointSeconds * 1_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = Math.round((Date.now() - startedAt) / 1_000);
      writeFileSync(
        join(workDir, `sqlmap-${String(index).padStart(2, '0')}.txt`),
        `${args.join(' ')}\n\n${output}`,
      );
      const verdict = readVerdict(output, outputDir, timedOut, code);
      console.log(`[security:scan] ${target.label}: ${verdict.verdict} (${seconds} s)`);
      resolveScan({ ...target, ...verdict, seconds });
    });
  });
}

/** Findings, a clean run, or an inconclusive one, from sqlmap's console output and its log file. */
function readVerdict(output, outputDir, timedOut, code) {
  let log = '';
  try {
    log = readFileSync(join(outputDir, '127.0.0.1', 'log'), 'utf8');
  } catch {
    // no injection point logged
  }
  const injectable = new Set();
  for (const match of `${output}\n${log}`.matchAll(
    /(?:GET|URI|\(custom\) URI) parameter '([^']+)' (?:is|appears to be) '[^']*' injectable/g,
  )) {
    injectable.add(match[1]);
  }
  for (const match of `${output}\n${log}`.matchAll(/^Parameter: (.+?) \((?:GET|URI|\(custom\) URI)\)/gm)) {
    injectable.add(match[1]);
  }
  if (injectable.size > 0 || /identified the following injection point/.test(output)) {
    return { verdict: 'VULNERABLE', detail: `injectable: ${[...injectable].join(', ') || 'see log'}` };
  }
  const heuristic = [
    ...output.matchAll(/heuristic \(basic\) test shows that .*? parameter '([^']+)' might be injectable/g),
  ].map((match) => match[1]);
  if (timedOut) {
    return { verdict: 'inconclusive', detail: `sqlmap did not finish within ${endpointSeconds} s` };
  }
  if (/all tested parameters do not appear to be injectable/.test(output)) {
    return {
      verdict: 'clean',
      detail:
        heuristic.length > 0
          ? `not injectable (heuristic hint on ${heuristic.join(', ')}: an error page mentioned SQL — check)`
          : 'not injectable',
    };
  }
  const critical = output.match(/\[CRITICAL\] (.+)/)?.[1] ?? `sqlmap exited with ${code}`;
  return { verdict: 'inconclusive', detail: critical.slice(0, 160) };
}

function report(results) {
  const rows = results.map((result) => ({
    endpoint: `GET ${result.label}`,
    as: result.as ?? '—',
    parameters: result.tested.join(', ') || '—',
    result: result.verdict,
    detail: result.detail ?? '',
  }));
  const keys = ['endpoint', 'as', 'parameters', 'result'];
  const titles = ['endpoint', 'as', 'parameters tested', 'result'];
  const widths = keys.map((key, index) =>
    Math.max(titles[index].length, ...rows.map((row) => row[key].length)),
  );
  const line = (cells) =>
    cells.map((cell, index) => (index < keys.length ? cell.padEnd(widths[index]) : cell)).join('  ');
  console.log(
    '\nSQL injection scan (sqlmap --level 2 --risk 1, PostgreSQL payloads, signed in as demo accounts)\n',
  );
  console.log(line([...titles, 'detail']));
  console.log(line(widths.map((width) => '─'.repeat(width)).concat('──────')));
  for (const row of rows) {
    console.log(line([...keys.map((key) => row[key]), row.detail]));
  }
  const vulnerable = results.filter((result) => result.verdict === 'VULNERABLE').length;
  const unfinished = results.filter(
    (result) => result.verdict !== 'clean' && result.verdict !== 'VULNERABLE',
  ).length;
  const clean = results.length - vulnerable - unfinished;
  console.log(
    `\n${results.length} endpoints: ${clean} clean, ${vulnerable} vulnerable, ${unfinished} not tested or inconclusive; ` +
      `${results.reduce((sum, result) => sum + result.tested.length, 0)} parameters.`,
  );
  if (vulnerable > 0) {
    console.log('FAILED: sqlmap found injectable parameters.');
    return 1;
  }
  if (unfinished > 0) {
    console.log('FAILED: some endpoints could not be tested (see detail).');
    return 1;
  }
  console.log('PASSED: no injectable parameter found.');
  return 0;
}
