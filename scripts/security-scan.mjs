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
  const targets = await planTargets(server.baseUrl, sessions, knownValues);
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

/**
 * The demo administrator, first doctor and first patient as the server printed them: "Demo accounts
 * (password X, …)" then "  email  role" lines. Some endpoints are only a doctor's (visits) or a patient's (waitlist).
 */
function demoAccountsFrom(output) {
  const password = output.match(/Demo accounts \(password (\S+?),/)?.[1];
  const accounts = ['admin', 'doctor', 'patient'].flatMap((role) => {
    const email = output.match(new RegExp(`^\\s+(\\S+@\\S+)\\s+${role}\\s*$`, 'm'))?.[1];
    return email ? [{ email, password, role }] : [];
  });
  if (!password || accounts[0]?.role !== 'admin') {
    throw new Error('The server did not print the demo accounts; cannot sign in.');
  }
  return accounts;
}

function cookiesOf(response, jar) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    jar.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
  }
}

/** Signs in like the web client: XSRF cookie from GET /config, then POST /auth/login with the header. */
async function signIn(baseUrl, { email, password }) {
  const jar = new Map();
  cookiesOf(await fetch(`${baseUrl}/api/v1/config`), jar);
  const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
      'x-xsrf-token': jar.get('XSRF-TOKEN') ?? '',
    },
    body: JSON.stringify({ email, password }),
  });
  cookiesOf(response, jar);
  if (response.status !== 200 || !jar.get('tm_session')) {
    throw new Error(`Sign-in as ${email} answered ${response.status}: ${await response.text()}`);
  }
  return {
    cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
    xsrf: jar.get('XSRF-TOKEN') ?? '',
  };
}

async function getJson(baseUrl, path, session) {
  const response = await fetch(`${baseUrl}${path}`, {
    headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf },
  });
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // CSV and the like
  }
  return { status: response.status, body };
}

async function sendJson(baseUrl, method, path, session, body) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { cookie: session.cookie, 'x-xsrf-token': session.xsrf, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed, text };
}

/**
 * Real values for path parameters no list hands out, made through the API the way people make them:
 * a code of the diagnosis catalogue (as the demo doctor, whom `/diagnoses` is for) and the
 * verification code of a prescription the demo doctor issues to the demo patient. With a made-up
 * value these endpoints answer 400 or 404 before any query runs, and sqlmap has nothing to test.
 * Keyed by the OpenAPI path; throws when one cannot be made (the scan must not pass without them).
 */
async function prepareRecords(baseUrl, sessions) {
  const doctor = sessions.find((session) => session.role === 'doctor');
  const patient = sessions.find((session) => session.role === 'patient');
  if (!doctor || !patient?.userId) {
    throw new Error('The demo doctor and patient are needed to prepare a diagnosis and a prescription.');
  }
  const diagnoses = await getJson(baseUrl, '/api/v1/diagnoses?q=J06', doctor);
  const diagnosisCode = diagnoses.body?.items?.[0]?.code;
  if (diagnoses.status !== 200 || typeof diagnosisCode !== 'string') {
    throw new Error(`GET /api/v1/diagnoses?q=J06 as the demo doctor answered ${diagnoses.status}.`);
  }
  const issued = await sendJson(baseUrl, 'POST', `/api/v1/patients/${patient.userId}/prescriptions`, doctor, {
    items: [
      {
        medication: 'Paracetamol 500 mg',
        dose: '1 tablet',
        route: 'oral',
        frequency: 'every 8 hours',
        duration: '3 days',
        quantity: '9 tablets',
      },
    ],
  });
  const verificationCode = issued.body?.verificationCode;
  if (issued.status !== 201 || typeof verificationCode !== 'string') {
    throw new Error(
      `Issuing a prescription as the demo doctor answered ${issued.status}: ${issued.text.slice(0, 300)}`,
    );
  }
  console.log(
    `[security:scan] Prepared diagnosis ${diagnosisCode} and prescription verification code ${verificationCode}.`,
  );
  return {
    '/api/v1/diagnoses/{code}': { code: diagnosisCode },
    '/api/v1/prescriptions/verify/{code}': { code: verificationCode },
  };
}

/**
 * Every GET operation of the OpenAPI document with a query or path parameter, with sample
 * values that make the request answer 2xx (path ids: the first item of the matching list), as
 * the first demo account allowed to call it. A 404 sample (no photo, an unknown token) is
 * still a stable answer sqlmap can compare against.
 */
async function planTargets(baseUrl, sessions, knownValues) {
  const { body: document } = await getJson(baseUrl, '/api/v1/openapi.json', sessions[0]);
  if (document === null || typeof document.paths !== 'object') {
    throw new Error('GET /api/v1/openapi.json did not answer an OpenAPI document.');
  }
  const firstIds = new Map();
  const idFrom = async (listPath, session) => {
    const key = `${session.role} ${listPath}`;
    if (!firstIds.has(key)) {
      const { status, body } = await getJson(baseUrl, listPath, session);
      const items = Array.isArray(body) ? body : Array.isArray(body?.data) ? body.data : [];
      const item = items[0];
      firstIds.set(key, status === 200 && item ? (item.id ?? item.userId ?? item.user?.id ?? null) : null);
    }
    return firstIds.get(key);
  };
  const today = new Date();
  const isoDate = (date) => date.toISOString().slice(0, 10);
  const samples = {
    q: 'an',
    role: 'patient',
    language: 'es',
    tz: 'Europe/Madrid',
    actor: 'admin',
    action: 'auth.login',
    targetType: 'user',
    targetId: 'x',
    v: '1',
  };
  /** A sample query value, or null when there is none (an optional uuid filter with no list). */
  const sampleFor = async (parameter, session) => {
    const schema = parameter.schema ?? {};
    const name = parameter.name;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      return String(schema.enum[0]);
    }
    if (schema.type === 'integer' || schema.type === 'number') {
      return String(schema.default ?? schema.minimum ?? 1);
    }
    if (schema.format === 'date') {
      return name === 'to' ? isoDate(today) : isoDate(new Date(today.getTime() - 30 * 86_400_000));
    }
    if (schema.format === 'date-time') {
      return name === 'to' ? new Date(today.getTime() + 7 * 86_400_000).toISOString() : today.toISOString();
    }
    if (schema.format === 'uuid' || /Id$/.test(name)) {
      const list =
        {
          specialtyId: '/api/v1/specialties',
          doctorId: '/api/v1/doctors',
          patientId: '/api/v1/users?role=patient',
        }[name] ?? null;
      return list === null ? null : await idFrom(list, session);
    }
    return samples[name] ?? 'test';
  };
  /** A sample path value: the first item of the matching list, else a placeholder (answers 404). */
  const pathSample = async (path, parameter, session) => {
    const name = parameter.name;
    const known = knownValues[path]?.[name];
    if (known !== undefined) {
      return known;
    }
    const list =
      name === 'appointmentId'
        ? '/api/v1/appointments'
        : name === 'doctorId'
          ? '/api/v1/doctors'
          : name === 'id'
            ? path.split('/{id}')[0]
            : null;
    if (list === '/api/v1/doctors' && session.role === 'doctor') {
      return session.userId; // a doctor's own waitlist, schedule…
    }
    const id = list === null ? null : await idFrom(list, session);
    if (id) {
      return id;
    }
    if (/id$/i.test(name)) {
      return '00000000-0000-4000-8000-000000000000';
    }
    // A well-formed value that matches nothing: digits for an index, a token-shaped string otherwise.
    return String(parameter.schema?.pattern ?? '').includes('\\d') ? '0' : 'A'.repeat(43);
  };

  const targets = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    const parameters = (operations.get?.parameters ?? []).filter(
      (parameter) => parameter.in === 'query' || parameter.in === 'path',
    );
    const label = path.replace(/^\/api\/v1/, '');
    if (parameters.length === 0 || (only && !only.some((prefix) => label.startsWith(prefix)))) {
      continue;
    }
    let chosen = null;
    const answers = [];
    for (const session of sessions) {
      let resolved = path;
      let marked = path;
      const query = new URLSearchParams();
      const queryParameters = [];
      const pathParameters = [];
      let missing = null;
      for (const parameter of parameters) {
        if (parameter.in === 'path') {
          const value = await pathSample(path, parameter, session);
          resolved = resolved.replace(`{${parameter.name}}`, value);
          // sqlmap's custom injection mark: the path segment itself is tested.
          marked = marked.replace(`{${parameter.name}}`, `${value}*`);
          pathParameters.push(`{${parameter.name}}`);
          continue;
        }
        const value = await sampleFor(parameter, session);
        if (value === null) {
          missing ??= parameter.required ? parameter.name : null;
          continue;
        }
        query.set(parameter.name, value);
        queryParameters.push(parameter.name);
      }
      const search = query.size > 0 ? `?${query}` : '';
      const probe = missing === null ? await getJson(baseUrl, `${resolved}${search}`, session) : null;
      const status = probe?.status ?? null;
      answers.push(
        `${session.role} ${status ?? '—'}${probe?.body?.error?.code ? ` ${probe.body.error.code}` : ''}`,
      );
      // A 404, or a 400 from the service (not the schema's VALIDATION_FAILED), means the sample got
      // as far as the code that queries: still a stable answer to compare injected requests with.
      const isComparable =
        status === 404 || (status === 400 && probe?.body?.error?.code !== 'VALIDATION_FAILED');
      const candidate = {
        isComparable,
        session,
        resolved,
        marked,
        search,
        queryParameters,
        pathParameters,
        status,
        missing,
      };
      if (status !== null && status >= 200 && status < 300) {
        chosen = candidate;
        break;
      }
      if (isComparable && !chosen?.isComparable) {
        chosen = candidate;
      } else if (chosen === null) {
        chosen = candidate;
      }
    }
    const {
      session,
      resolved,
      marked,
      search,
      queryParameters,
      pathParameters,
      status,
      missing,
      isComparable,
    } = chosen;
    const tested = [...pathParameters, ...queryParameters];
    if (missing !== null) {
      targets.push({ label, tested, url: null, note: `no sample value for ${missing}` });
      continue;
    }
    if ((status < 200 || status >= 300) && !isComparable) {
      targets.push({
        label,
        tested,
        url: null,
        note: `no demo account's sample request answered 2xx (${answers.join(', ')})`,
      });
      continue;
    }
    const common = { session, ignoreCode: isComparable ? String(status) : null, as: session.role };
    // With a custom mark sqlmap tests only the marked places: query and path are separate runs.
    if (queryParameters.length > 0) {
      targets.push({
        ...common,
        label,
        tested: queryParameters,
        url: `${baseUrl}${resolved}${search}`,
        queryParameters,
      });
    }
    if (pathParameters.length > 0) {
      targets.push({
        ...common,
        label: `${label} (path)`,
        tested: pathParameters,
        url: `${baseUrl}${marked}${search}`,
        queryParameters: [],
      });
    }
  }
  return targets;
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
