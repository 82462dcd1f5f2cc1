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

describe('security headers in production', () => {
  let production: TestContext;

  beforeAll(async () => {
    production = await createTestContext({ config: { nodeEnv: 'production', isProduction: true } });
  });

  afterAll(async () => {
    await production?.close();
  });

  it.each(['/', '/api/v1/health'])('send HSTS on %s', async (url) => {
    const response = await production.app.inject({ method: 'GET', url });
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=31536000; includeSubDomains/);
  });
});

describe('security header policies, directive by directive', () => {
  let production: TestContext;

  beforeAll(async () => {
    production = await createTestContext({
      config: { nodeEnv: 'production', isProduction: true, publicOrigin: 'https://clinic.example.org' },
    });
  });

  afterAll(async () => {
    await production?.close();
  });

  const everyAnswer = ['/', '/admin/patients', '/api/v1/docs/', '/api/v1/health', '/api/v1/nope'];

  it.each(everyAnswer)(
    'never allow inline or evaluated script on %s, in development or production',
    async (url) => {
      for (const app of [context.app, production.app]) {
        const response = await app.inject({ method: 'GET', url });
        const header = String(response.headers['content-security-policy']);
        expect(header).not.toContain("'unsafe-eval'");
        expect(header).not.toContain("'unsafe-hashes'");
        expect(header).not.toMatch(/\*(?:;|$| )/);
        const csp = directives(header);
        const scriptSources = csp.get('script-src') ?? csp.get('default-src') ?? [];
        expect(scriptSources).not.toContain("'unsafe-inline'");
        expect(
          scriptSources.filter((source) => source.startsWith('data:') || source.startsWith('http')),
        ).toEqual([]);
        expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['referrer-policy']).toBe('no-referrer');
      }
    },
  );

  it.each(everyAnswer)(
    'allow camera and microphone only to the app itself on %s, and deny the other powerful features',
    async (url) => {
      const response = await context.app.inject({ method: 'GET', url });
      const features = new Map(
        String(response.headers['permissions-policy'])
          .split(',')
          .map((item) => item.trim().split('=') as [string, string]),
      );
      expect(features.get('camera')).toBe('(self)');
      expect(features.get('microphone')).toBe('(self)');
      for (const [feature, allowlist] of features) {
        // Nothing is open to other origins.
        expect(['(self)', '()'], feature).toContain(allowlist);
      }
      for (const feature of ['geolocation', 'payment', 'usb', 'serial', 'hid', 'midi', 'accelerometer']) {
        expect(features.get(feature), feature).toBe('()');
      }
    },
  );

  it('send HSTS only in production (from NODE_ENV), on pages and API answers alike', async () => {
    for (const url of everyAnswer) {
      const development = await context.app.inject({ method: 'GET', url });
      expect(development.headers['strict-transport-security'], url).toBeUndefined();
      const secure = await production.app.inject({ method: 'GET', url });
      expect(secure.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
