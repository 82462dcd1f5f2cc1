import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.js';
import { createUser, signIn } from '../test/factories.js';
import { createTestContext, parseSetCookie, type TestContext } from '../test/test-context.js';

let context: TestContext;
let app: App;

beforeAll(async () => {
  context = await createTestContext({
    configure: (testApp) => {
      const config = { access: 'public' } as const;
      testApp.post('/api/v1/test/echo', { config }, (request) => ({ received: request.body }));
      testApp.delete('/api/v1/test/echo', { config }, () => ({ deleted: true }));
    },
  });
  app = context.app;
});

afterAll(async () => {
  await context?.close();
});

/** Gets a token the way the web client does: from the Set-Cookie of its first read. */
async function issueToken(): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/v1/config' });
  const token = parseSetCookie(response.headers['set-cookie']).get('XSRF-TOKEN')?.value;
  if (token === undefined) {
    throw new Error('no XSRF-TOKEN cookie was set');
  }
  return token;
}

describe('XSRF cookie', () => {
  it('is set on a request without it: random, readable by scripts, SameSite=Lax, path /', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/config' });
    const cookie = parseSetCookie(response.headers['set-cookie']).get('XSRF-TOKEN');
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie?.attributes).toEqual(expect.arrayContaining(['path=/', 'samesite=lax']));
    expect(cookie?.attributes).not.toContain('httponly');
    expect(cookie?.attributes).not.toContain('secure');
    expect(await issueToken()).not.toBe(cookie?.value);
  });

  it.each(['/', '/admin/patients', '/api/v1/docs/', '/api/v1/config', '/api/v1/config?x=1', '/api/v1/me'])(
    'is handed out where a client looks for it: GET %s',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(parseSetCookie(response.headers['set-cookie']).has('XSRF-TOKEN')).toBe(true);
    },
  );

  it('comes with the anonymous 401 of GET /me, which the web client reads first', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/me' });
    expect(response.statusCode).toBe(401);
    expect(parseSetCookie(response.headers['set-cookie']).has('XSRF-TOKEN')).toBe(true);
  });

  it.each(['/api/v1/health', '/api/v1/nope', '/api/v1/openapi.json', '/assets/index-abc123.js'])(
    'is not handed out with other API answers nor hashed assets: GET %s',
    async (url) => {
      const response = await app.inject({ method: 'GET', url });
      expect(parseSetCookie(response.headers['set-cookie']).has('XSRF-TOKEN')).toBe(false);
    },
  );

  it('is not set again when the request already carries a valid one', async () => {
    const token = await issueToken();
    for (const url of ['/api/v1/config', '/']) {
      const response = await app.inject({ method: 'GET', url, headers: { cookie: `XSRF-TOKEN=${token}` } });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('replaces a malformed cookie', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/v1/config',
      headers: { cookie: 'XSRF-TOKEN=short' },
    });
    expect(parseSetCookie(response.headers['set-cookie']).get('XSRF-TOKEN')?.value).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it('comes with the 403 refusing an unsafe request without it, so the client can copy it and retry', async () => {
    const refused = await app.inject({ method: 'POST', url: '/api/v1/test/echo', payload: { n: 1 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'XSRF_TOKEN_INVALID' } });
    const token = parseSetCookie(refused.headers['set-cookie']).get('XSRF-TOKEN')?.value;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const retried = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token! },
      payload: { n: 1 },
    });
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['set-cookie']).toBeUndefined();
  });

  it('is not replaced by the 403 when the cookie was valid but the header missing', async () => {
    const token = await issueToken();
    const refused = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { cookie: `XSRF-TOKEN=${token}` },
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });
});

describe('XSRF check on unsafe API requests', () => {
  it('passes when the header equals the cookie', async () => {
    const token = await issueToken();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
      payload: { hello: 'world' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { hello: 'world' } });
  });

  it.each([
    ['no header', (token: string) => ({ cookie: `XSRF-TOKEN=${token}` })],
    [
      'a different header',
      (token: string) => ({ cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': `${token.slice(1)}x` }),
    ],
    [
      'a header of another length',
      (token: string) => ({ cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token.slice(1) }),
    ],
    ['a header but no cookie', (token: string) => ({ 'x-xsrf-token': token })],
    ['an empty header', (token: string) => ({ cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': '' })],
  ])('refuses a POST with %s: 403 XSRF_TOKEN_INVALID', async (_case, headers) => {
    const token = await issueToken();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: headers(token),
      payload: {},
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: 'XSRF_TOKEN_INVALID' } });
  });

  it('refuses other unsafe methods and percent-encoded API paths too', async () => {
    const token = await issueToken();
    const cookieOnly = { cookie: `XSRF-TOKEN=${token}` };
    const deleted = await app.inject({ method: 'DELETE', url: '/api/v1/test/echo', headers: cookieOnly });
    expect(deleted.statusCode).toBe(403);
    const encoded = await app.inject({
      method: 'POST',
      url: '/%61pi/v1/test/echo',
      headers: cookieOnly,
      payload: {},
    });
    expect(encoded.statusCode).toBe(403);
    const withHeader = await app.inject({
      method: 'DELETE',
      url: '/api/v1/test/echo',
      headers: { ...cookieOnly, 'x-xsrf-token': token },
    });
    expect(withHeader.statusCode).toBe(200);
  });

  it('never checks safe methods', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS'] as const) {
      const response = await app.inject({ method, url: '/api/v1/health' });
      expect(response.statusCode, method).not.toBe(403);
    }
  });
});

describe('XSRF cookie Secure flag', () => {
  let production: TestContext;
  let behindTls: TestContext;

  beforeAll(async () => {
    // Production reached over plain HTTP on a LAN: a Secure cookie would never come back.
    production = await createTestContext({
      config: { nodeEnv: 'production', isProduction: true, publicOrigin: 'http://192.168.1.20:3000' },
    });
    behindTls = await createTestContext({ config: { trustProxy: true, publicOrigin: 'http://clinic.test' } });
  });

  afterAll(async () => {
    await production?.close();
    await behindTls?.close();
  });

  it('is not Secure for a plain-HTTP deployment, even in production', async () => {
    const response = await production.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(parseSetCookie(response.headers['set-cookie']).get('XSRF-TOKEN')?.attributes).not.toContain(
      'secure',
    );
  });

  it('is Secure when the request came over HTTPS through a trusted proxy', async () => {
    const response = await behindTls.app.inject({
      method: 'GET',
      url: '/api/v1/config',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(parseSetCookie(response.headers['set-cookie']).get('XSRF-TOKEN')?.attributes).toContain('secure');
    const plain = await behindTls.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(parseSetCookie(plain.headers['set-cookie']).get('XSRF-TOKEN')?.attributes).not.toContain('secure');
  });

  it('is Secure whenever the public origin is https', async () => {
    const secure = await createTestContext({ config: { publicOrigin: 'https://clinic.example.org' } });
    try {
      const response = await secure.app.inject({ method: 'GET', url: '/api/v1/config' });
      expect(parseSetCookie(response.headers['set-cookie']).get('XSRF-TOKEN')?.attributes).toContain(
        'secure',
      );
    } finally {
      await secure.close();
    }
  });
});

/**
 * Generated from the route registry: every unsafe method on every API route,
 * sent by a signed-in user who holds every role (so neither authentication
 * nor the access check is what refuses it), is refused with 403
 * XSRF_TOKEN_INVALID without the header and with a mismatched one — and
 * nothing happens: the session that sent them is still alive (logout and
 * session revocation were among them).
 */
describe('XSRF check on every unsafe route of the registry', () => {
  const unsafe = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
  const concreteUrl = (pattern: string): string =>
    pattern.replaceAll(/:[A-Za-z]+/g, '0b8a1c3e-5d2f-4a6b-8c9d-0e1f2a3b4c5d').replace(/\*$/, 'x');

  it('refuses each without the header and with a mismatched one, and nothing happens', async () => {
    const user = await createUser(app, { roles: ['admin', 'doctor', 'staff', 'patient'] });
    const { token: session } = await signIn(app, user);
    const routes = app.accessRegistry.filter((entry) => unsafe.has(entry.method));
    expect(routes.length).toBeGreaterThan(40);
    const cookieToken = await issueToken();
    const cases: [string, Record<string, string>][] = [
      ['no header', { cookie: `XSRF-TOKEN=${cookieToken}; tm_session=${session}` }],
      [
        'a mismatched header',
        { cookie: `XSRF-TOKEN=${cookieToken}; tm_session=${session}`, 'x-xsrf-token': await issueToken() },
      ],
      ['a header without the cookie', { cookie: `tm_session=${session}`, 'x-xsrf-token': cookieToken }],
    ];
    const accepted: string[] = [];
    for (const entry of routes) {
      for (const [label, headers] of cases) {
        const response = await app.inject({
          method: entry.method as 'POST',
          url: concreteUrl(entry.url),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{}',
        });
        const code =
          response.statusCode === 403 ? response.json<{ error: { code: string } }>().error.code : null;
        if (response.statusCode !== 403 || code !== 'XSRF_TOKEN_INVALID') {
          accepted.push(`${entry.method} ${entry.url} with ${label}: ${response.statusCode} ${code ?? ''}`);
        }
      }
    }
    expect(accepted).toEqual([]);
    const me = await app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { cookie: `tm_session=${session}` },
    });
    expect(me.statusCode).toBe(200);
  });
});
