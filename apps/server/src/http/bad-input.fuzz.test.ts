import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, requestHeaders, signIn, type TestUser } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-context.js';
import type { RouteAccessEntry } from './authentication.js';

/**
 * Bad input against every REST endpoint, generated from the route registry
 * and the routes' own schemas (through the OpenAPI document they produce):
 * wrong types, 1 MB strings, objects nested 1000 deep, unknown fields, bad
 * dates, negative/huge/NaN pages, invalid ids in the path, bad JSON, wrong
 * content types and prototype-pollution keys — in the query, the path and
 * the body. The caller holds every system role, so each route's access check
 * lets the input through to the schema and the service. Every answer must be
 * below 500 and a JSON 4xx must be in the error shape.
 *
 * Bounded run time: a fixed corpus per route plus a few fast-check runs with
 * a fixed seed (printed, with the counterexample, when a property fails).
 */

const seed = 20_260_615;
const runsPerRoute = 4;

let context: TestContext;
let superUser: TestUser;
let session: string;

interface OpenApiParameter {
  in: 'query' | 'path' | 'header';
  name: string;
  schema?: JsonSchema;
}
interface JsonSchema {
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
let operations: Map<string, OpenApiOperation>;

beforeAll(async () => {
  context = await createTestContext();
  superUser = await createUser(context.app, { roles: ['admin', 'doctor', 'staff', 'patient'] });
  session = (await signIn(context.app, superUser)).token;
  const document = (await context.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<{
    paths: Record<string, Record<string, OpenApiOperation>>;
  }>();
  operations = new Map(
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [
        `${method.toUpperCase()} ${path.replaceAll(/\{(\w+)\}/g, ':$1')}`,
        operation,
      ]),
    ),
  );
}, 30_000);

afterAll(async () => {
  await context?.close();
});

const megabyte = 'x'.repeat(1_000_000);
const hugeString = 'é'.repeat(100) + 'x'.repeat(1_000_000 - 100);

function deepObject(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) {
    value = { a: value };
  }
  return value;
}
const deepArrayJson = `${'['.repeat(1000)}1${']'.repeat(1000)}`;

const badIds = [
  'not-a-uuid',
  '-1',
  '99999999999999999999999999',
  '00000000-0000-0000-0000-00000000000g',
  "1' OR '1'='1",
  '%00',
  '%E0%A4%A',
  '__proto__',
  'x'.repeat(2_000),
];

/** Query strings every route gets: pages, sizes, dates, sorts, pollution, repeated and huge values. */
const badQueries = [
  'page=-1&pageSize=-10',
  'page=NaN&pageSize=NaN',
  'page=1e309&pageSize=1e309',
  'page=99999999999999999999&pageSize=99999999999',
  'page=0&pageSize=0',
  'page=1.5&pageSize=2.5',
  'page=1&page=2&pageSize=10&pageSize=20',
  'page[]=1&pageSize[x]=2',
  'from=not-a-date&to=2026-13-45T99:99:99Z&date=yesterday&day=2026-02-30&startsAt=0',
  'from=2026-06-15&to=1900-01-01&weekOf=-271821-04-20',
  'sort=__proto__&order=sideways&status=%00&role=admin%27--',
  '__proto__[polluted]=1&constructor[prototype][polluted]=1&__proto__=1',
  `q=${'x'.repeat(100_000)}&search=${'%F0%9F%92%A9'.repeat(2_000)}`,
  'q=%&search=%zz&format=../../x',
  'q=%00%00%00&search=a%00b&name=%00&email=%00%40x.test&code=%00',
  'unknownField=1&isAdmin=true',
];

function schemaTypes(schema: JsonSchema | undefined): string[] {
  if (schema === undefined) {
    return [];
  }
  const own = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  return [...own, ...(schema.anyOf ?? []).flatMap(schemaTypes), ...(schema.oneOf ?? []).flatMap(schemaTypes)];
}

/** A value of a type the field does not take. */
function wrongTypeFor(schema: JsonSchema | undefined): unknown {
  const types = schemaTypes(schema);
  if (types.includes('string')) {
    return types.includes('number') || types.includes('integer') ? { not: 'scalar' } : 12_345;
  }
  if (types.includes('number') || types.includes('integer')) {
    return 'twelve';
  }
  if (types.includes('boolean')) {
    return 'yes';
  }
  if (types.includes('array')) {
    return { length: 3 };
  }
  if (types.includes('object')) {
    return ['an', 'array'];
  }
  return { unexpected: ['object'] };
}

function bodyProperties(operation: OpenApiOperation | undefined): Record<string, JsonSchema> {
  const schema = operation?.requestBody?.content?.['application/json']?.schema;
  return schema?.properties ?? {};
}

interface BadRequest {
  label: string;
  url: string;
  payload?: string;
  contentType?: string;
}

/** The fixed corpus of bad requests for one route. */
function corpus(entry: RouteAccessEntry, operation: OpenApiOperation | undefined): BadRequest[] {
  const requests: BadRequest[] = [];
  const hasParams = /:[A-Za-z]+|\*/.test(entry.url);
  const withIds = (id: string): string =>
    entry.url.replaceAll(/:[A-Za-z]+/g, id).replace(/\*$/, encodeURIComponent(id));
  const validShape = withIds('0b8a1c3e-5d2f-4a6b-8c9d-0e1f2a3b4c5d');
  if (hasParams) {
    for (const id of badIds) {
      requests.push({ label: `param ${id.slice(0, 20)}`, url: withIds(id) });
    }
  }
  const queryNames = (operation?.parameters ?? []).filter((parameter) => parameter.in === 'query');
  // Routes without a query schema never read it: a few representative strings are enough there.
  const queries = queryNames.length > 0 ? badQueries : badQueries.filter((_query, index) => index % 4 === 0);
  for (const query of queries) {
    requests.push({ label: `query ${query.slice(0, 40)}`, url: `${validShape}?${query}` });
  }
  if (queryNames.length > 0) {
    const wrong = queryNames
      .map((parameter) => {
        const types = schemaTypes(parameter.schema);
        const value = types.includes('number') || types.includes('integer') ? 'abc' : '%00'.repeat(3);
        return `${encodeURIComponent(parameter.name)}=${value}`;
      })
      .join('&');
    requests.push({ label: 'query wrong types', url: `${validShape}?${wrong}` });
    requests.push({
      label: 'query huge values',
      url: `${validShape}?${queryNames.map((parameter) => `${encodeURIComponent(parameter.name)}=${'y'.repeat(20_000)}`).join('&')}`,
    });
  }
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(entry.method)) {
    return requests;
  }
  const properties = bodyProperties(operation);
  const names = Object.keys(properties);
  const json = (label: string, value: unknown): void => {
    requests.push({
      label,
      url: validShape,
      payload: JSON.stringify(value),
      contentType: 'application/json',
    });
  };
  const raw = (label: string, payload: string, contentType = 'application/json'): void => {
    requests.push({ label, url: validShape, payload, contentType });
  };
  raw('bad JSON', '{"a": ');
  raw('bad JSON (trailing)', '{"a": 1}}');
  raw('empty JSON', '');
  raw('JSON with a BOM and comments', '\uFEFF{/* x */ "a": 1}');
  raw('text/plain', 'hello', 'text/plain');
  raw(
    'application/xml',
    '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    'application/xml',
  );
  raw('form-encoded', 'a=1&__proto__[polluted]=1', 'application/x-www-form-urlencoded');
  raw('multipart without boundary', '--x\r\n', 'multipart/form-data');
  raw(
    'multipart with a 300-character boundary',
    '--x\r\n',
    `multipart/form-data; boundary=${'b'.repeat(300)}`,
  );
  raw(
    'multipart cut short',
    '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    'multipart/form-data; boundary=b',
  );
  raw('a bogus content type', '{}', 'application/json; charset=utf-7');
  raw('prototype pollution (__proto__)', '{"__proto__": {"polluted": true, "isAdmin": true}}');
  raw('prototype pollution (constructor)', '{"constructor": {"prototype": {"polluted": true}}}');
  raw('deep array', deepArrayJson);
  json('null', null);
  json('a number', 42);
  json('a string', 'body');
  json('an array', [1, 2, 3]);
  json('deep object', deepObject(1000));
  json('unknown fields only', { unknownField: true, isAdmin: true, roles: ['admin'] });
  json('1 MB string', { value: megabyte });
  if (names.length > 0) {
    json('wrong types', Object.fromEntries(names.map((name) => [name, wrongTypeFor(properties[name])])));
    json('1 MB in every field', Object.fromEntries(names.map((name) => [name, hugeString])));
    json('deep in every field', Object.fromEntries(names.map((name) => [name, deepObject(1000)])));
    json('nulls', Object.fromEntries(names.map((name) => [name, null])));
    json('NUL characters', Object.fromEntries(names.map((name) => [name, 'a\u0000b'])));
    json(
      'bad dates and numbers',
      Object.fromEntries(
        names.map((name) => {
          const types = schemaTypes(properties[name]);
          if (types.includes('number') || types.includes('integer')) {
            return [name, -1e308];
          }
          return [name, types.includes('string') ? '2026-02-30T25:61:61+99:00' : '0000-00-00'];
        }),
      ),
    );
  }
  return requests;
}

/** A JSON body from generated keys (known fields and polluting names) and values of any JSON type. */
function bodyArbitrary(names: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(...(names.length > 0 ? names : ['name']), '__proto__', 'constructor', 'prototype'),
    fc.string({ maxLength: 12 }),
  );
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(-1, 0, Number.MAX_SAFE_INTEGER, 1e308, '', 'NaN', '2026-02-30', ' '.repeat(300)),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 8 })
    .map(
      (pairs) =>
        `{${pairs.map(([name, item]) => `${JSON.stringify(name)}:${JSON.stringify(item) ?? 'null'}`).join(',')}}`,
    );
}

function queryArbitrary(names: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    fc.constantFrom(
      ...names,
      'page',
      'pageSize',
      'sort',
      'from',
      'to',
      '__proto__',
      'constructor[prototype]',
    ),
    fc.string({ maxLength: 8 }),
  );
  const value = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom('-1', 'NaN', 'Infinity', '1e400', '2026-13-01', 'true', '[]', '{}'),
    fc.integer().map(String),
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 6 })
    .map((pairs) =>
      pairs.map(([name, item]) => `${encodeURIComponent(name)}=${encodeURIComponent(item)}`).join('&'),
    );
}

async function sendBad(entry: RouteAccessEntry, request: BadRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...requestHeaders(session) };
  if (request.contentType !== undefined) {
    headers['content-type'] = request.contentType;
  }
  let response = await context.app.inject({
    method: entry.method as 'GET',
    url: request.url,
    headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
  if (response.statusCode === 401) {
    // A route ended the session (logout, revoke): sign in again and retry once.
    session = (await signIn(context.app, superUser)).token;
    response = await context.app.inject({
      method: entry.method as 'GET',
      url: request.url,
      headers: { ...headers, ...requestHeaders(session) },
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
  }
  return response;
}

/** Routes where at least one answer got past the access check (not 401, not 403 FORBIDDEN). */
const passedAccess = new Set<string>();

/** What is wrong with an answer, or null. */
function problemWith(response: LightMyRequestResponse): string | null {
  if (response.statusCode >= 500) {
    return `${response.statusCode} ${response.body.slice(0, 300)}`;
  }
  const isJson = String(response.headers['content-type'] ?? '').startsWith('application/json');
  if (response.statusCode >= 400 && isJson) {
    const body = response.json<{ error?: { code?: unknown; message?: unknown } }>();
    if (typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
      return `${response.statusCode} not in the error shape: ${response.body.slice(0, 300)}`;
    }
  }
  return null;
}

function apiRoutes(): RouteAccessEntry[] {
  return context.app.accessRegistry.filter((entry) => entry.url.startsWith('/api/'));
}

describe('bad input against every REST endpoint', () => {
  it('covers the registry and finds each route in the OpenAPI document', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const undocumented = routes
      .filter((entry) => !entry.url.startsWith('/api/v1/docs') && entry.url !== '/api/v1/openapi.json')
      .filter((entry) => !operations.has(`${entry.method} ${entry.url}`))
      .map((entry) => `${entry.method} ${entry.url}`);
    expect(undocumented).toEqual([]);
  });

  it('answers every route below 500, with the error shape, for the fixed corpus and generated input', async () => {
    const problems: string[] = [];
    let requestCount = 0;
    for (const entry of apiRoutes()) {
      const operation = operations.get(`${entry.method} ${entry.url}`);
      for (const request of corpus(entry, operation)) {
        requestCount += 1;
        const response = await sendBad(entry, request);
        if (
          response.statusCode !== 401 &&
          !(response.statusCode === 403 && response.body.includes('"FORBIDDEN"'))
        ) {
          passedAccess.add(`${entry.method} ${entry.url}`);
        }
        const problem = problemWith(response);
        if (problem !== null) {
          problems.push(`${entry.method} ${entry.url} [${request.label}]: ${problem}`);
        }
      }
      const queryNames = (operation?.parameters ?? [])
        .filter((parameter) => parameter.in === 'query')
        .map((parameter) => parameter.name);
      const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(entry.method);
      const validShape = entry.url
        .replaceAll(/:[A-Za-z]+/g, '0b8a1c3e-5d2f-4a6b-8c9d-0e1f2a3b4c5d')
        .replace(/\*$/, 'x');
      try {
        await fc.assert(
          fc.asyncProperty(
            queryArbitrary(queryNames),
            hasBody ? bodyArbitrary(Object.keys(bodyProperties(operation))) : fc.constant(undefined),
            async (query, payload) => {
              requestCount += 1;
              const response = await sendBad(entry, {
                label: 'generated',
                url: query === '' ? validShape : `${validShape}?${query}`,
                ...(payload === undefined ? {} : { payload, contentType: 'application/json' }),
              });
              const problem = problemWith(response);
              if (problem !== null) {
                throw new Error(problem);
              }
            },
          ),
          { numRuns: runsPerRoute, seed, endOnFailure: true },
        );
      } catch (error) {
        problems.push(
          `${entry.method} ${entry.url} [generated, seed ${seed}]: ${String(error).slice(0, 600)}`,
        );
      }
    }
    expect(requestCount).toBeGreaterThan(apiRoutes().length * 10);
    console.info(`bad-input fuzz: ${requestCount} requests over ${apiRoutes().length} routes (seed ${seed})`);
    expect(problems).toEqual([]);
    // The caller really got through to the schemas and services of every route.
    expect(
      apiRoutes()
        .map((entry) => `${entry.method} ${entry.url}`)
        .filter((key) => !passedAccess.has(key)),
    ).toEqual([]);
    // Nothing leaked into the prototypes the JSON and query parsers build objects from.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    // And the server still serves.
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  }, 120_000);
});

/** Regression tests for the 5xx and shapeless answers the fuzzing found (fixed in the server). */
describe('bad input found by the fuzzing', () => {
  it('answers a NUL character that reaches PostgreSQL with 400 VALIDATION_FAILED, not 500', async () => {
    for (const url of ['/api/v1/diagnoses/%00', '/api/v1/search?q=a%00b']) {
      const response = await context.app.inject({ method: 'GET', url, headers: requestHeaders(session) });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('answers a multipart body without a usable boundary with 400, not 500', async () => {
    for (const contentType of ['multipart/form-data', `multipart/form-data; boundary=${'b'.repeat(300)}`]) {
      const response = await context.app.inject({
        method: 'PUT',
        url: '/api/v1/me/photo',
        headers: { ...requestHeaders(session), 'content-type': contentType },
        payload: '--b\r\n',
      });
      expect(response.statusCode, contentType).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });

  it('answers a malformed percent-encoding and an over-long path parameter in the error shape', async () => {
    const badUrl = await context.app.inject({ method: 'GET', url: '/api/v1/users/%E0%A4%A/photo' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: expect.any(String) },
    });
    const longParam = await context.app.inject({
      method: 'GET',
      url: `/api/v1/users/${'x'.repeat(2_000)}/photo`,
    });
    expect(longParam.statusCode).toBe(414);
    expect(longParam.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', message: expect.any(String) },
    });
  });
});
