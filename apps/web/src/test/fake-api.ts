import type { MeResponse } from '@telemedicina/shared/auth';
import type { ServerResponse } from 'node:http';
import { sendJson, startTestServer, type RecordedRequest } from './http-server';

export type RouteHandler = (
  request: RecordedRequest & { json: () => unknown },
  response: ServerResponse,
) => unknown;

/**
 * A real HTTP server speaking the API's shapes, for screens that talk to several endpoints. Tests
 * set `routes['POST /api/v1/auth/login'] = (request, response) => …`; anything unset answers 404
 * ROUTE_NOT_FOUND like the real server. The jsdom page is pointed at it by the caller.
 */
export async function startFakeApi() {
  const routes: Record<string, RouteHandler> = {};
  const server = await startTestServer(async (request, response) => {
    const path = new URL(request.url, 'http://x').pathname;
    const handler = routes[`${request.method} ${path}`];
    if (!handler) {
      sendJson(response, 404, {
        error: { code: 'ROUTE_NOT_FOUND', message: `No route for ${request.method} ${path}` },
      });
      return;
    }
    await handler(
      {
        ...request,
        json: () =>
          request.body.length > 0 ? (JSON.parse(request.body.toString('utf8')) as unknown) : undefined,
      },
      response,
    );
  });
  return {
    ...server,
    routes,
    /** Requests to one path ("POST /api/v1/auth/login"), in order. */
    requestsTo(route: string) {
      const [method, path] = route.split(' ');
      return server.requests.filter(
        (request) => request.method === method && new URL(request.url, 'http://x').pathname === path,
      );
    },
    reset() {
      for (const key of Object.keys(routes)) {
        delete routes[key];
      }
      server.requests.length = 0;
    },
  };
}

export type FakeApi = Awaited<ReturnType<typeof startFakeApi>>;

/** An error answer in the API's shape. */
export function sendError(
  response: ServerResponse,
  status: number,
  code: string,
  details?: unknown,
  headers: Record<string, string> = {},
) {
  for (const [name, value] of Object.entries(headers)) {
    response.setHeader(name, value);
  }
  sendJson(response, status, {
    error: { code, message: code, ...(details === undefined ? {} : { details }) },
  });
}

/** A signed-in user's `GET /me` answer. */
export function sampleMe(
  overrides: {
    permissions?: string[];
    session?: Partial<MeResponse['session']>;
    user?: Partial<MeResponse['user']>;
  } = {},
): MeResponse {
  return {
    user: {
      id: 'u-1',
      email: 'ana@clinica.example',
      name: 'Ana Pérez',
      phone: null,
      dateOfBirth: null,
      language: 'es',
      timeZone: 'Europe/Madrid',
      photoUrl: null,
      emailVerified: true,
      mfaEnabled: false,
      status: 'active',
      createdAt: '2026-01-01T00:00:00.000Z',
      ...overrides.user,
    },
    roles: [{ id: 'r-1', key: 'admin', name: { es: 'Administrador', en: 'Administrator' } }],
    permissions: overrides.permissions ?? ['outbox.read', 'users.read'],
    session: {
      idleTimeoutSeconds: 900,
      expiresAt: new Date(Date.now() + 12 * 3600_000).toISOString(),
      mfaEnrollmentRequired: false,
      ...overrides.session,
    },
  };
}
