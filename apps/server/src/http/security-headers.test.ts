import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-context.js';

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext({ config: { realtimePort: 0 } });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  await context.app.realtime.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await context?.close();
});

function directives(header: string | string[] | number | undefined): Map<string, string[]> {
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name = '', ...values]) => [name, values]),
  );
}

const permissionsPolicy =
  'camera=(self), microphone=(self), display-capture=(self), fullscreen=(self), geolocation=(), payment=(), usb=(), ' +
  'accelerometer=(), gyroscope=(), magnetometer=(), hid=(), serial=(), midi=(), idle-detection=(), ' +
  'xr-spatial-tracking=(), browsing-topics=()';

describe('security headers', () => {
  it.each(['/', '/admin/x', '/api/v1/docs/'])('give the page %s a strict document policy', async (url) => {
    const response = await context.app.inject({ method: 'GET', url, headers: { host: 'clinic.test:3000' } });
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['permissions-policy']).toBe(permissionsPolicy);
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it.each(['/api/v1/health', '/api/v1/nope', '/api/v1/openapi.json'])(
    'give the API answer %s a short policy that allows nothing',
    async (url) => {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['permissions-policy']).toBe(permissionsPolicy);
    },
  );

  it('lets the page connect to the separate real-time port on the host it was loaded from', async () => {
    const port = context.app.realtime.separatePort();
    expect(port).toBeGreaterThan(0);
    const response = await context.app.inject({
      method: 'GET',
      url: '/',
      headers: { host: 'clinic.test:3000' },
    });
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('connect-src')).toEqual([
      "'self'",
      `http://clinic.test:${port}`,
      `ws://clinic.test:${port}`,
    ]);
  });

  it('gives each host its own connect-src (the policy is cached per host)', async () => {
    const port = context.app.realtime.separatePort();
    for (const host of ['clinic.test', '192.168.1.20', 'clinic.test']) {
      const response = await context.app.inject({
        method: 'GET',
        url: '/',
        headers: { host: `${host}:3000` },
      });
      const csp = directives(response.headers['content-security-policy']);
      expect(csp.get('connect-src')).toEqual(["'self'", `http://${host}:${port}`, `ws://${host}:${port}`]);
    }
  });

  it('does not reflect a malformed Host header into the policy', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/',
      headers: { host: "evil.test;script-src 'unsafe-inline'" },
    });
    const csp = directives(response.headers['content-security-policy']);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
  });
});

describe('HSTS in production', () => {
  let plainHttp: TestContext;
  let behindProxy: TestContext;
  let httpsOrigin: TestContext;

  beforeAll(async () => {
    const production = { nodeEnv: 'production', isProduction: true } as const;
    plainHttp = await createTestContext({
      config: { ...production, publicOrigin: 'http://clinic.lan:3000' },
    });
    behindProxy = await createTestContext({
      config: { ...production, publicOrigin: 'http://clinic.lan:3000', trustProxy: true },
    });
    httpsOrigin = await createTestContext({
      config: { ...production, publicOrigin: 'https://clinic.example.org' },
    });
  });

  afterAll(async () => {
    await plainHttp?.close();
    await behindProxy?.close();
    await httpsOrigin?.close();
  });

  it.each(['/', '/admin/x', '/api/v1/health'])(
    'never sends it over plain HTTP when the public origin is http (%s)',
    async (url) => {
      const response = await plainHttp.app.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it('ignores a forged X-Forwarded-Proto when no proxy is trusted', async () => {
    for (const url of ['/', '/api/v1/health']) {
      const response = await plainHttp.app.inject({
        method: 'GET',
        url,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it.each(['/', '/admin/x', '/api/v1/health'])(
    'sends it when a trusted proxy says the request came over HTTPS (%s)',
    async (url) => {
      const secure = await behindProxy.app.inject({
        method: 'GET',
        url,
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const plain = await behindProxy.app.inject({ method: 'GET', url });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
    },
  );

  it.each(['/', '/admin/x', '/api/v1/health'])(
    'sends it on every answer when the public origin is https (%s)',
    async (url) => {
      const response = await httpsOrigin.app.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    },
  );

  it('is not sent outside production, even over HTTPS', async () => {
    const development = await createTestContext({
      config: { publicOrigin: 'https://clinic.example.org', trustProxy: true },
    });
    try {
      const response = await development.app.inject({
        method: 'GET',
        url: '/',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(response.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await development.close();
    }
  });
});
