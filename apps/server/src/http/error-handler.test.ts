import { errorResponseSchema, validationErrorDetailsSchema } from '@telemedicina/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { App } from '../app.js';
import { appError } from '../lib/app-error.js';
import { createTestContext, type TestContext } from '../test/test-context.js';

let context: TestContext;
let app: App;
/** A valid cookie/header pair so requests get past the XSRF check. */
let xsrf: { cookie: string; header: string };

function addTestRoutes(testApp: App): void {
  const config = { access: 'public' } as const;
  testApp.post(
    '/api/v1/test/patients',
    {
      config,
      schema: {
        body: z.object({
          name: z.string().min(2),
          address: z.object({ city: z.string().min(1) }),
          tags: z.array(z.string().max(3)),
        }),
        querystring: z.object({ page: z.coerce.number().int().min(1).default(1) }),
      },
    },
    (request) => ({ ok: true, name: request.body.name, page: request.query.page }),
  );
  testApp.get('/api/v1/test/conflict', { config }, () => {
    throw appError('CONFLICT', 'That slot was just booked.', { slot: '10:00' });
  });
  testApp.get('/api/v1/test/crash', { config }, () => {
    throw new Error('connect ECONNREFUSED postgres://admin:s3cret@db:5432');
  });
  testApp.get('/api/v1/test/database-down', { config }, () => {
    // What node-postgres throws (wrapped by drizzle) when PostgreSQL refuses or ends the connection.
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 user=admin password=s3cret'), {
      code: 'ECONNREFUSED',
    });
    throw new Error('Failed query: select * from sessions where id = $1', { cause });
  });
  testApp.get('/api/v1/test/database-restarting', { config }, () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  });
  testApp.get(
    '/api/v1/test/limited',
    { config: { ...config, rateLimit: { max: 2, timeWindow: 60_000 } } },
    () => ({
      ok: true,
    }),
  );
}

beforeAll(async () => {
  context = await createTestContext({ configure: addTestRoutes });
  app = context.app;
  const token = 'a'.repeat(43);
  xsrf = { cookie: `XSRF-TOKEN=${token}`, header: token };
});

afterAll(async () => {
  await context?.close();
});

function post(url: string, payload: string | object, headers: Record<string, string> = {}) {
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: xsrf.cookie, 'x-xsrf-token': xsrf.header, ...headers },
    ...(typeof payload === 'string' ? { body: payload } : { payload }),
  });
}

describe('error answers', () => {
  it.each(['/api/v1/nope', '/api/v2/health', '/api', '/api/'])(
    'GET %s → 404 ROUTE_NOT_FOUND as JSON',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = errorResponseSchema.parse(response.json());
      expect(body.error.code).toBe('ROUTE_NOT_FOUND');
      expect(body.error.message).toContain(url.split('?')[0]);
    },
  );

  it('answers unknown API paths for other methods with 404 too', async () => {
    const response = await post('/api/v1/nope', {});
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
  });

  it('maps validation issues to field paths (400 VALIDATION_FAILED)', async () => {
    const response = await post('/api/v1/test/patients', { name: 'A', address: {}, tags: ['ok', 'toolong'] });
    expect(response.statusCode).toBe(400);
    const body = errorResponseSchema.parse(response.json());
    expect(body.error.code).toBe('VALIDATION_FAILED');
    const details = validationErrorDetailsSchema.parse(body.error.details);
    expect(details.issues.map((issue) => [issue.location, issue.path]).sort()).toEqual([
      ['body', 'address.city'],
      ['body', 'name'],
      ['body', 'tags.1'],
    ]);
    expect(details.issues.every((issue) => issue.message.length > 0 && issue.code.length > 0)).toBe(true);
  });

  it('reports the query string as the location of query issues', async () => {
    const response = await post('/api/v1/test/patients?page=0', {
      name: 'Ana',
      address: { city: 'Lima' },
      tags: [],
    });
    expect(response.statusCode).toBe(400);
    const details = validationErrorDetailsSchema.parse(response.json().error.details);
    expect(details.issues).toEqual([expect.objectContaining({ location: 'querystring', path: 'page' })]);
  });

  it('lets a valid request through to the handler', async () => {
    const response = await post('/api/v1/test/patients?page=2', {
      name: 'Ana',
      address: { city: 'Lima' },
      tags: [],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, name: 'Ana', page: 2 });
  });

  it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
    const response = await post('/api/v1/test/patients', '{"name": ', { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(errorResponseSchema.parse(response.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('answers an oversized body with 413 PAYLOAD_TOO_LARGE', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), address: { city: 'Lima' }, tags: [] });
    const response = await post('/api/v1/test/patients', huge, { 'content-type': 'application/json' });
    expect(response.statusCode).toBe(413);
    expect(errorResponseSchema.parse(response.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers an unknown content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const response = await post('/api/v1/test/patients', '<patient/>', { 'content-type': 'application/xml' });
    expect(response.statusCode).toBe(415);
    expect(errorResponseSchema.parse(response.json()).error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('keeps the status, code, message and details of an AppError', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/test/conflict' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: { code: 'CONFLICT', message: 'That slot was just booked.', details: { slot: '10:00' } },
    });
  });

  it('answers 429 RATE_LIMITED past a route limit', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      statuses.push((await app.inject({ method: 'GET', url: '/api/v1/test/limited' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const response = await app.inject({ method: 'GET', url: '/api/v1/test/limited' });
    expect(response.headers['retry-after']).toBeDefined();
    expect(errorResponseSchema.parse(response.json()).error.code).toBe('RATE_LIMITED');
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and leaks nothing', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/test/crash' });
    expect(response.statusCode).toBe(500);
    const body = errorResponseSchema.parse(response.json());
    expect(body.error.code).toBe('INTERNAL_ERROR');
    expect(response.body).not.toMatch(/s3cret|ECONNREFUSED|postgres|stack|at /);
    expect(body.error.details).toBeUndefined();
  });

  it('answers a database outage with 503 SERVICE_UNAVAILABLE and leaks nothing', async () => {
    for (const url of ['/api/v1/test/database-down', '/api/v1/test/database-restarting']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(503);
      const body = errorResponseSchema.parse(response.json());
      expect(body.error).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is not reachable. Try again shortly.',
      });
      expect(response.body).not.toMatch(/s3cret|ECONNREFUSED|sessions|administrator|10\.0\.0\.5|at /);
    }
  });
});

describe('request id', () => {
  it('echoes a plausible incoming x-request-id', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/nope',
      headers: { 'x-request-id': 'trace-123.abc' },
    });
    expect(response.headers['x-request-id']).toBe('trace-123.abc');
  });

  it('replaces an implausible one and generates one when absent, also on errors', async () => {
    const forged = await app.inject({
      method: 'GET',
      url: '/api/v1/test/crash',
      headers: { 'x-request-id': 'evil\nid {"level":60}' },
    });
    const generated = await app.inject({ method: 'GET', url: '/api/v1/test/crash' });
    for (const response of [forged, generated]) {
      expect(response.statusCode).toBe(500);
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(forged.headers['x-request-id']).not.toBe(generated.headers['x-request-id']);
  });
});
