// The security scan's signed-in sessions and the endpoints it plans to test (scripts/security-scan.mjs):
// the demo accounts the server prints, sign-in with the session cookie and the XSRF header, the
// records made first so path values exist, and one target per parameterized GET endpoint read from
// the server's OpenAPI document.

/**
 * The demo administrator, first doctor and first patient as the server printed them: "Demo accounts
 * (password X, …)" then "  email  role" lines. Some endpoints are only a doctor's (visits) or a patient's (waitlist).
 */
export function demoAccountsFrom(output) {
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
export async function signIn(baseUrl, { email, password }) {
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

export async function getJson(baseUrl, path, session) {
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

export async function sendJson(baseUrl, method, path, session, body) {
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
export async function prepareRecords(baseUrl, sessions) {
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
export async function planTargets(baseUrl, sessions, knownValues, only) {
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
