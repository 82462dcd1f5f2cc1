import { errorResponseSchema } from '@telemedicina/shared/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { sessions, users } from '../db/schema.js';
import { hashSecretToken } from '../lib/tokens.js';
import { auditEventsOf, createUser, send, signIn } from '../test/factories.js';
import {
  createTestConfig,
  createTestContext,
  parseSetCookie,
  type TestContext,
} from '../test/test-context.js';
import { createTestDatabase } from '../test/test-database.js';

let context: TestContext;
let offsetMs = 0;
const minute = 60_000;

beforeAll(async () => {
  context = await createTestContext({
    config: { trustProxy: true },
    now: () => new Date(Date.now() + offsetMs),
  });
});

afterAll(async () => {
  await context?.close();
});

beforeEach(() => {
  offsetMs = 0;
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

async function lastSeenOf(token: string): Promise<Date | undefined> {
  const [row] = await context.db
    .select()
    .from(sessions)
    .where(eq(sessions.id, hashSecretToken(token)));
  return row?.lastSeenAt;
}

describe('route access declarations', () => {
  it('makes buildApp throw for an /api route without config.access', async () => {
    const database = await createTestDatabase();
    try {
      await expect(
        buildApp({
          config: createTestConfig(context.tempDir),
          database: database.client,
          extraApiRoutes: [
            (api) => {
              api.get('/undeclared', () => ({ ok: true }));
            },
          ],
        }),
      ).rejects.toThrow(/GET \/api\/v1\/undeclared declares no access/);
    } finally {
      await database.dispose();
    }
  });

  it('makes buildApp throw for a permission that is not in the catalogue', async () => {
    const database = await createTestDatabase();
    try {
      await expect(
        buildApp({
          config: createTestConfig(context.tempDir),
          database: database.client,
          extraApiRoutes: [
            (api) => {
              api.get(
                '/typo',
                { config: { access: { anyOf: ['users.mange' as 'users.manage'] } } },
                () => ({}),
              );
            },
          ],
        }),
      ).rejects.toThrow(/requires unknown permissions: users\.mange/);
    } finally {
      await database.dispose();
    }
  });

  it("checks access before a route's own onRequest hooks, on GET and its HEAD route alike", async () => {
    const database = await createTestDatabase();
    const ownHookRuns: string[] = [];
    const app = await buildApp({
      config: createTestConfig(context.tempDir),
      database: database.client,
      extraApiRoutes: [
        (api) => {
          api.get(
            '/guarded-with-hook',
            {
              config: { access: 'authenticated' },
              onRequest: (request, _reply, next) => {
                ownHookRuns.push(request.method);
                next();
              },
            },
            () => ({ ok: true }),
          );
        },
      ],
    });
    try {
      for (const method of ['GET', 'HEAD'] as const) {
        const response = await app.inject({ method, url: '/api/v1/guarded-with-hook' });
        expect(response.statusCode).toBe(401);
      }
      expect(ownHookRuns).toEqual([]);
    } finally {
      await app.close();
      await database.dispose();
    }
  });

  it('lists every API route with its access in the registry', () => {
    const registry = context.app.accessRegistry;
    expect(registry).toContainEqual({
      method: 'POST',
      url: '/api/v1/auth/login',
      access: 'public',
      allowDuringMfaEnrollment: false,
    });
    expect(registry).toContainEqual({
      method: 'GET',
      url: '/api/v1/me',
      access: 'authenticated',
      allowDuringMfaEnrollment: true,
    });
    expect(registry).toContainEqual({
      method: 'GET',
      url: '/api/v1/outbox',
      access: { anyOf: ['outbox.read'] },
      allowDuringMfaEnrollment: false,
    });
    expect(registry.every((entry) => entry.url.startsWith('/api/'))).toBe(true);
  });
});

describe('session resolution', () => {
  it('answers 401 UNAUTHENTICATED without a cookie, and for a forged token (clearing it)', async () => {
    const none = await send(context.app, 'GET', '/api/v1/me');
    expect(none.statusCode).toBe(401);
    expect(codeOf(none)).toBe('UNAUTHENTICATED');
    const forged = await send(context.app, 'GET', '/api/v1/me', { session: 'f'.repeat(43) });
    expect(codeOf(forged)).toBe('UNAUTHENTICATED');
    expect(parseSetCookie(forged.headers['set-cookie']).get('tm_session')?.value).toBe('');
  });

  it('ends a staff session after 15 idle minutes: 401 SESSION_EXPIRED, cookie cleared, and it stays ended', async () => {
    const client = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    offsetMs = 14 * minute;
    expect((await send(context.app, 'GET', '/api/v1/me', { session: client.token })).statusCode).toBe(200);
    offsetMs = 14 * minute + 15 * minute;
    const expired = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(expired.statusCode).toBe(401);
    expect(codeOf(expired)).toBe('SESSION_EXPIRED');
    const cleared = parseSetCookie(expired.headers['set-cookie']).get('tm_session');
    expect(cleared).toMatchObject({ value: '' });
    expect(cleared?.attributes).toEqual(expect.arrayContaining(['max-age=0', 'httponly']));
    const [row] = await context.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, hashSecretToken(client.token)));
    expect(row).toMatchObject({ revokedReason: 'idle', revokedAt: expect.any(Date) });
    offsetMs = 0;
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: client.token }))).toBe(
      'SESSION_EXPIRED',
    );
  });

  it('gives patients 30 idle minutes', async () => {
    const client = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    offsetMs = 29 * minute;
    expect((await send(context.app, 'GET', '/api/v1/me', { session: client.token })).statusCode).toBe(200);
    offsetMs = 29 * minute + 30 * minute;
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: client.token }))).toBe(
      'SESSION_EXPIRED',
    );
  });

  it('ends any session at its absolute lifetime (12 h), however active', async () => {
    const client = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    for (let elapsed = 10; elapsed < 12 * 60; elapsed += 10) {
      offsetMs = elapsed * minute;
      const response = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
      expect(response.statusCode, `after ${elapsed} minutes`).toBe(200);
    }
    offsetMs = 12 * 60 * minute;
    const expired = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(codeOf(expired)).toBe('SESSION_EXPIRED');
  });

  it('records activity at most every 15 seconds', async () => {
    const client = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const start = await lastSeenOf(client.token);
    offsetMs = 10_000;
    await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(await lastSeenOf(client.token)).toEqual(start);
    offsetMs = 20_000;
    await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect((await lastSeenOf(client.token))!.getTime()).toBeGreaterThanOrEqual(start!.getTime() + 20_000);
  });

  it('ends the sessions of a user who was disabled', async () => {
    const user = await createUser(context.app, { roles: ['staff'] });
    const client = await signIn(context.app, user);
    await context.db.update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const response = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(codeOf(response)).toBe('SESSION_EXPIRED');
  });

  it('lets an ended session still reach public routes (sign in again) without an error', async () => {
    const user = await createUser(context.app, { roles: ['patient'] });
    const client = await signIn(context.app, user);
    offsetMs = 31 * minute;
    const login = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
      session: client.token,
    });
    expect(login.statusCode).toBe(200);
    expect(parseSetCookie(login.headers['set-cookie']).get('tm_session')?.value).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });
});

describe('cookie Secure flag', () => {
  it('is set when the request came over HTTPS through the trusted proxy, not over plain HTTP', async () => {
    const user = await createUser(context.app);
    const overTls = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(parseSetCookie(overTls.headers['set-cookie']).get('tm_session')?.attributes).toContain('secure');
    expect(parseSetCookie(overTls.headers['set-cookie']).get('XSRF-TOKEN')?.attributes).toContain('secure');
    const plain = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(parseSetCookie(plain.headers['set-cookie']).get('tm_session')?.attributes).not.toContain('secure');
  });

  it('is set when PUBLIC_ORIGIN is https, even for a plain request', async () => {
    const secure = await createTestContext({ config: { publicOrigin: 'https://clinica.example.org' } });
    try {
      const user = await createUser(secure.app);
      const response = await send(secure.app, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(response.statusCode).toBe(200);
      expect(parseSetCookie(response.headers['set-cookie']).get('tm_session')?.attributes).toContain(
        'secure',
      );
    } finally {
      await secure.close();
    }
  });
});

describe('permission checks', () => {
  it('answers 403 FORBIDDEN and records access.denied for a role without the permission', async () => {
    const user = await createUser(context.app, { roles: ['patient'] });
    const client = await signIn(context.app, user);
    const response = await send(context.app, 'GET', '/api/v1/outbox', { session: client.token });
    expect(response.statusCode).toBe(403);
    expect(codeOf(response)).toBe('FORBIDDEN');
    const denied = (await auditEventsOf(context.app, 'access.denied')).at(-1);
    expect(denied).toMatchObject({
      actorUserId: user.id,
      outcome: 'denied',
      targetType: 'route',
      targetId: 'GET /api/v1/outbox',
      details: { required: ['outbox.read'] },
    });
  });

  it('reads permissions on every request: a grant removed takes effect at once', async () => {
    const user = await createUser(context.app, { roles: ['admin'] });
    const admin = await createUser(context.app, { roles: ['admin'] });
    const client = await signIn(context.app, user);
    expect((await send(context.app, 'GET', '/api/v1/outbox', { session: client.token })).statusCode).toBe(
      200,
    );
    const adminClient = await signIn(context.app, admin);
    await send(context.app, 'PUT', `/api/v1/users/${user.id}/roles`, {
      session: adminClient.token,
      body: { roleKeys: ['staff'] },
    });
    const after = await send(context.app, 'GET', '/api/v1/outbox', { session: client.token });
    expect(after.statusCode).toBe(401);
  });
});
