import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../test/http-server';
import { createTestI18n, resetUiState } from '../test/render';
import {
  ApiError,
  createApiClient,
  joinUrl,
  parseRetryAfter,
  toFieldErrors,
  type ApiClientDependencies,
} from './api-client';
import { uiState, type Alert } from './ui-state';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

describe('api client against a real HTTP server', () => {
  let server: TestServer;
  let alerts: Alert[];
  let loadingSamples: boolean[];
  const i18n = createTestI18n('es');

  beforeAll(async () => {
    server = await startTestServer(async (request, response) => {
      const path = request.url.split('?')[0] ?? '';
      switch (path) {
        case '/api/v1/echo':
          sendJson(response, 200, {
            method: request.method,
            url: request.url,
            xsrf: request.headers['x-xsrf-token'] ?? null,
            body: request.body.toString(),
          });
          return;
        case '/api/v1/slow':
          await new Promise((resolve) => setTimeout(resolve, 120));
          sendJson(response, 200, { ok: true });
          return;
        case '/api/v1/empty':
          response.writeHead(204).end();
          return;
        case '/api/v1/conflict':
          sendJson(response, 409, { error: { code: 'CONFLICT', message: 'Overlapping booking' } });
          return;
        case '/api/v1/forbidden-xsrf':
          sendJson(response, 403, { error: { code: 'XSRF_TOKEN_INVALID', message: 'Missing token' } });
          return;
        case '/api/v1/invalid':
          sendJson(response, 400, {
            error: {
              code: 'VALIDATION_FAILED',
              message: 'Invalid body',
              details: {
                issues: [
                  {
                    location: 'body',
                    path: 'patient.email',
                    code: 'invalid_format',
                    message: 'Invalid email',
                  },
                ],
              },
            },
          });
          return;
        case '/api/v1/invalid-without-fields':
          sendJson(response, 400, { error: { code: 'VALIDATION_FAILED', message: 'Invalid' } });
          return;
        case '/api/v1/expired':
          sendJson(response, 401, { error: { code: 'SESSION_EXPIRED', message: 'Expired' } });
          return;
        case '/api/v1/limited':
          response.setHeader('Retry-After', '30');
          sendJson(response, 429, { error: { code: 'RATE_LIMITED', message: 'Slow down' } });
          return;
        case '/api/v1/locked':
          sendJson(response, 423, {
            error: { code: 'ACCOUNT_LOCKED', message: 'Locked', details: { retryAfterSeconds: 599.2 } },
          });
          return;
        case '/api/v1/crash':
          response.writeHead(502, { 'Content-Type': 'text/html' }).end('<html>Bad gateway</html>');
          return;
        default:
          sendJson(response, 404, { error: { code: 'ROUTE_NOT_FOUND', message: 'No route' } });
      }
    });
    // Relative URLs resolve against the page: make the test page live on the test server's origin.
    jsdom.reconfigure({ url: `${server.origin}/admin` });
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    resetUiState();
    alerts = [];
    loadingSamples = [];
  });

  const makeClient = (overrides: Partial<ApiClientDependencies> = {}) =>
    createApiClient({
      baseUrl: '/api/v1',
      fetch: (input, init) => fetch(input, init),
      beginLoading: () => {
        const release = uiState.getState().beginLoading();
        loadingSamples.push(true);
        return release;
      },
      publishAlert: (alert) => {
        alerts.push(alert);
      },
      translate: (key) => i18n.t(key),
      documentUrl: () => window.location.href,
      cookies: () => document.cookie,
      ...overrides,
    });

  it('joins paths to the base URL and sends the query string', async () => {
    const body = await makeClient().get<{ url: string; method: string }>('/echo', {
      query: { page: 2, q: 'ana lópez', empty: '', none: undefined },
    });
    expect(body.method).toBe('GET');
    expect(body.url).toBe('/api/v1/echo?page=2&q=ana+l%C3%B3pez');
  });

  it('copies the XSRF-TOKEN cookie into X-XSRF-TOKEN on unsafe requests to relative URLs', async () => {
    document.cookie = 'XSRF-TOKEN=tok-42; path=/';
    const client = makeClient();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const body = await client.request<{ xsrf: string | null }>('/echo', { method, body: { a: 1 } });
      expect(body.xsrf, method).toBe('tok-42');
    }
    expect((await client.get<{ xsrf: string | null }>('/echo')).xsrf).toBeNull();
    await client.request('/echo', { method: 'HEAD' });
    const headRequest = server.requests.findLast((request) => request.method === 'HEAD');
    expect(headRequest?.headers['x-xsrf-token']).toBeUndefined();
  });

  it('does not send the token to an absolute URL', async () => {
    document.cookie = 'XSRF-TOKEN=tok-42; path=/';
    const body = await makeClient({ baseUrl: `${server.origin}/api/v1` }).post<{ xsrf: string | null }>(
      '/echo',
      { a: 1 },
    );
    expect(body.xsrf).toBeNull();
  });

  it('sends bodies as JSON', async () => {
    const echoed = await makeClient().post<{ body: string }>('/echo', { name: 'Ana', tags: ['a'] });
    expect(JSON.parse(echoed.body)).toEqual({ name: 'Ana', tags: ['a'] });
    expect(server.requests.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('reads how long to wait from Retry-After or details.retryAfterSeconds', async () => {
    const limited = await makeClient()
      .get('/limited')
      .catch((error: unknown) => error);
    expect(limited).toBeInstanceOf(ApiError);
    expect((limited as ApiError).retryAfterSeconds).toBe(30);
    const locked = await makeClient()
      .get('/locked')
      .catch((error: unknown) => error);
    expect((locked as ApiError).retryAfterSeconds).toBe(600);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', null, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(30);
    expect(parseRetryAfter(null, null)).toBeNull();
  });

  it('lets the session layer take a 401 SESSION_EXPIRED instead of alerting, and records server contact', async () => {
    const ended: string[] = [];
    let contacts = 0;
    const client = makeClient({
      onSessionEnd: (error) => {
        ended.push(error.code);
        return true;
      },
      onServerContact: () => {
        contacts += 1;
      },
    });
    const error = await client.get('/expired').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).isHandled).toBe(true);
    expect(ended).toEqual(['SESSION_EXPIRED']);
    expect(alerts).toEqual([]);
    expect(contacts).toBe(0);
    await client.get('/echo');
    expect(contacts).toBe(1);

    // Not signed in: the session layer declines, and the caller's alert setting applies.
    const declining = makeClient({ onSessionEnd: () => false });
    await declining.get('/expired').catch(() => undefined);
    expect(alerts).toHaveLength(1);
  });

  it('answers undefined for 204', async () => {
    expect(await makeClient().delete('/empty')).toBeUndefined();
  });

  it('turns an error code into a translated alert and throws it', async () => {
    const error = await makeClient()
      .post('/conflict', {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(alerts).toEqual([
      {
        type: 'error',
        content:
          'Otra persona modificó estos datos al mismo tiempo. Actualice la página y vuelva a intentarlo.',
      },
    ]);
  });

  it('translates the XSRF refusal', async () => {
    await makeClient()
      .post('/forbidden-xsrf', {})
      .catch(() => undefined);
    expect(alerts[0]?.content).toContain('motivos de seguridad');
  });

  it('returns validation errors with fields to the form instead of alerting', async () => {
    const error = await makeClient()
      .post('/invalid', {})
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).fieldErrors).toEqual({ 'patient.email': 'Invalid email' });
    expect(alerts).toEqual([]);
  });

  it('alerts for a validation error that names no field', async () => {
    await makeClient()
      .post('/invalid-without-fields', {})
      .catch(() => undefined);
    expect(alerts[0]?.content).toBe('Algunos datos no son válidos. Revíselos e inténtelo de nuevo.');
  });

  it('reads a 5xx answer without the error shape as a server error', async () => {
    const error = await makeClient()
      .get('/crash')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR' });
    expect(alerts[0]?.content).toBe(
      'Se produjo un error en el servidor. Inténtelo de nuevo en unos minutos.',
    );
  });

  it('turns an unreachable server into a network alert', async () => {
    const error = await makeClient({ baseUrl: 'http://127.0.0.1:1/api/v1' })
      .get('/echo')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(alerts[0]?.content).toContain('No hay conexión con el servidor');
  });

  it('can skip the alert', async () => {
    await makeClient()
      .get('/missing', { alertOnError: false })
      .catch(() => undefined);
    expect(alerts).toEqual([]);
  });

  it('escapes the translated text it publishes as HTML', async () => {
    await makeClient({ translate: () => '<img src=x onerror=alert(1)>' })
      .get('/missing')
      .catch(() => undefined);
    expect(alerts[0]?.content).toBe('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('keeps the loading flag on while a request is in flight, unless the request opts out', async () => {
    const pending = makeClient().get('/slow');
    expect(uiState.getState().loadingCount).toBe(1);
    await pending;
    expect(uiState.getState().loadingCount).toBe(0);

    const quiet = makeClient().get('/slow', { showSpinner: false });
    expect(uiState.getState().loadingCount).toBe(0);
    await quiet;
    expect(loadingSamples).toHaveLength(1);
  });

  it('turns the flag off when a request fails', async () => {
    await makeClient()
      .get('/crash')
      .catch(() => undefined);
    expect(uiState.getState().loadingCount).toBe(0);
  });

  it('rethrows an abort without alerting', async () => {
    const controller = new AbortController();
    const pending = makeClient().get('/slow', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(alerts).toEqual([]);
    expect(uiState.getState().loadingCount).toBe(0);
  });
});

describe('joinUrl', () => {
  it.each([
    ['/api/v1', '/health', '/api/v1/health'],
    ['/api/v1/', 'health', '/api/v1/health'],
    ['/api/v1', '/api/v1/health', '/api/v1/health'],
    ['https://api.example/api/v1', '/health', 'https://api.example/api/v1/health'],
    ['/api/v1', 'https://other.example/x', 'https://other.example/x'],
  ])('%s + %s → %s', (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected);
  });
});

describe('toFieldErrors', () => {
  it.each([
    [{ issues: [{ path: 'email', message: 'Required' }] }, { email: 'Required' }],
    [[{ path: ['address', 'city'], message: 'Too short' }], { 'address.city': 'Too short' }],
    [{ fieldErrors: { name: ['Required', 'Too short'] } }, { name: 'Required' }],
    [{ issues: [{ path: '', message: 'Whole body' }] }, null],
    [undefined, null],
    ['text', null],
  ])('%j → %j', (details, expected) => {
    expect(toFieldErrors(details)).toEqual(expected);
  });
});
