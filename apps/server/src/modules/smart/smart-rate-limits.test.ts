import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../http/rate-limits.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { allowOpenRegistration, testRedirectUri } from './smart-test-support.js';

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext();
  await allowOpenRegistration(context.app);
});

afterAll(async () => {
  await context?.close();
});

function register(remoteAddress: string) {
  return context.app.inject({
    method: 'POST',
    url: '/oauth/reg',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: {
      client_name: 'App de prueba',
      redirect_uris: [testRedirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  });
}

describe('limits on the authorization server (/oauth is handed to oidc-provider as it is)', () => {
  it('refuses registrations past the limit from one address with 429 in the error shape; others still register', async () => {
    const { max } = rateLimits.appRegistration;
    for (let index = 0; index < max; index += 1) {
      const response = await register('10.77.0.1');
      expect(response.statusCode, response.body).toBe(201);
    }
    const refused = await register('10.77.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await register('10.77.0.2')).statusCode).toBe(201);
  });

  it('limits the rest of /oauth per address too', async () => {
    const { max } = rateLimits.authorizationServer;
    const jwks = () => context.app.inject({ method: 'GET', url: '/oauth/jwks', remoteAddress: '10.77.1.1' });
    for (let index = 0; index < max; index += 1) {
      expect((await jwks()).statusCode).toBe(200);
    }
    expect((await jwks()).statusCode).toBe(429);
    const other = await context.app.inject({ method: 'GET', url: '/oauth/jwks', remoteAddress: '10.77.1.2' });
    expect(other.statusCode).toBe(200);
  });
});
