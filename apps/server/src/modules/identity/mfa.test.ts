import { errorResponseSchema } from '@telemedicina/shared/api';
import { meResponseSchema, mfaEnableResponseSchema, mfaSetupResponseSchema } from '@telemedicina/shared/auth';
import { xsrfCookieName } from '@telemedicina/shared/api';
import { eq } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, mfaRecoveryCodes, sessions, users } from '../../db/schema.js';
import { hashSecretToken } from '../../lib/tokens.js';
import { currentTotp } from '../../lib/totp.js';
import { writeSetting } from '../settings/settings.repository.js';
import { settingKeys } from '../settings/settings.service.js';
import {
  auditEventsOf,
  createUser,
  send,
  sessionTokenFrom,
  signIn,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';

let context: TestContext;
/** The clock moves forward a minute per code so a TOTP code is never the previous one (replay guard). */
let offsetMs = 0;
let mainPort: number;

beforeAll(async () => {
  context = await createTestContext({ now: () => new Date(Date.now() + offsetMs) });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  mainPort = typeof address === 'object' && address !== null ? address.port : 0;
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

async function code(secret: string): Promise<string> {
  offsetMs += 60_000;
  return currentTotp(secret, context.app.services.now());
}

async function setMfaRequiredRoles(roleKeys: string[]): Promise<void> {
  await writeSetting(context.db, settingKeys.mfaRequiredRoles, roleKeys, { now: new Date() });
}

/**
 * Enrols through the API; resolves with the secret, the recovery codes and
 * the rotated session's token (the one passed in has ended).
 */
async function enrol(token: string): Promise<{ secret: string; recoveryCodes: string[]; token: string }> {
  const setup = await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session: token });
  expect(setup.statusCode).toBe(200);
  const { secret } = mfaSetupResponseSchema.parse(setup.json());
  const enabled = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
    session: token,
    body: { code: await code(secret) },
  });
  expect(enabled.statusCode).toBe(200);
  const rotated = sessionTokenFrom(enabled);
  if (rotated === null) {
    throw new Error('enrol: no session cookie was set');
  }
  return {
    secret,
    recoveryCodes: mfaEnableResponseSchema.parse(enabled.json()).recoveryCodes,
    token: rotated,
  };
}

/** The `XSRF-TOKEN` value a response set, or null. */
function xsrfTokenFrom(response: { headers: Record<string, unknown> }): string | null {
  const header = response.headers['set-cookie'];
  const cookies = Array.isArray(header) ? header : typeof header === 'string' ? [header] : [];
  const found = cookies
    .map((cookie) => String(cookie))
    .find((cookie) => cookie.startsWith(`${xsrfCookieName}=`));
  return found?.slice(xsrfCookieName.length + 1).split(';')[0] ?? null;
}

function login(user: Pick<TestUser, 'email' | 'password'>, extra: Record<string, string> = {}) {
  return send(context.app, 'POST', '/api/v1/auth/login', {
    body: { email: user.email, password: user.password, ...extra },
  });
}

describe('TOTP enrolment', () => {
  it('gives a pending secret as otpauth URI, QR code and key, stored encrypted', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const response = await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session: client.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const setup = mfaSetupResponseSchema.parse(response.json());
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Telemedicina:/);
    expect(setup.otpauthUrl).toContain(`secret=${setup.secret}`);
    expect(setup.otpauthUrl).toContain(encodeURIComponent(user.email));
    expect(setup.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const [row] = await context.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.mfaPendingSecretEncrypted).toMatch(/^v1:/);
    expect(row?.mfaPendingSecretEncrypted).not.toContain(setup.secret);
    expect(row?.mfaEnabledAt).toBeNull();
  });

  it('enables with a right code only, returns 10 single-use recovery codes once, and stores only their hashes', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const setup = mfaSetupResponseSchema.parse(
      (await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session: client.token })).json(),
    );
    const wrong = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
      session: client.token,
      body: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(codeOf(wrong)).toBe('MFA_INVALID');

    const enabled = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
      session: client.token,
      body: { code: await code(setup.secret) },
    });
    expect(enabled.statusCode).toBe(200);
    const { recoveryCodes } = mfaEnableResponseSchema.parse(enabled.json());
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(recoveryCodes.every((value) => /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(value))).toBe(true);
    const stored = await context.db
      .select()
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    expect(stored.some((row) => recoveryCodes.includes(row.codeHash))).toBe(false);

    const session = sessionTokenFrom(enabled);
    const me = meResponseSchema.parse((await send(context.app, 'GET', '/api/v1/me', { session })).json());
    expect(me.user.mfaEnabled).toBe(true);
    expect((await auditEventsOf(context.app, 'auth.mfa_enabled')).at(-1)?.targetId).toBe(user.id);

    const again = await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session });
    expect(again.statusCode).toBe(409);
  });

  it('limits code attempts to 10 per 15 minutes per session (429 RATE_LIMITED)', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session: client.token });
    const statuses: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      const response = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
        session: client.token,
        body: { code: '000000' },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.every((status) => status === 400)).toBe(true);
    const limited = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
      session: client.token,
      body: { code: '000000' },
    });
    expect(limited.statusCode).toBe(429);
    expect(codeOf(limited)).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses enable before setup with 409', async () => {
    const client = await signIn(context.app, await createUser(context.app));
    const response = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
      session: client.token,
      body: { code: '123456' },
    });
    expect(response.statusCode).toBe(409);
  });
});

describe('session rotation on enable', () => {
  it('replaces the session: the old token answers 401, the new cookie works, the XSRF token and the socket go', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const oldId = hashSecretToken(client.token);
    const { secret } = mfaSetupResponseSchema.parse(
      (await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session: client.token })).json(),
    );
    // A refused code changes nothing: no cookie, the session goes on.
    const wrong = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
      session: client.token,
      body: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(sessionTokenFrom(wrong)).toBeNull();
    expect((await send(context.app, 'GET', '/api/v1/me', { session: client.token })).statusCode).toBe(200);

    const socket = connect(`http://127.0.0.1:${mainPort}`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { origin: testAppOrigin, cookie: `tm_session=${client.token}` },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const disconnected = new Promise<string>((resolve) =>
        socket.once('disconnect', (reason) => resolve(reason)),
      );
      const enabled = await send(context.app, 'POST', '/api/v1/me/mfa/enable', {
        session: client.token,
        body: { code: await code(secret) },
      });
      expect(enabled.statusCode).toBe(200);
      expect(Object.keys(mfaEnableResponseSchema.strict().parse(enabled.json()))).toEqual(['recoveryCodes']);
      expect(await disconnected).toBe('io server disconnect');

      const newToken = sessionTokenFrom(enabled);
      expect(newToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(newToken).not.toBe(client.token);
      const newId = hashSecretToken(newToken!);
      expect(newId).not.toBe(oldId);
      const xsrf = xsrfTokenFrom(enabled);
      expect(xsrf).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const old = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
      expect(old.statusCode).toBe(401);
      expect(codeOf(old)).toBe('SESSION_EXPIRED');
      const fresh = await send(context.app, 'GET', '/api/v1/me', { session: newToken });
      expect(fresh.statusCode).toBe(200);
      expect(meResponseSchema.parse(fresh.json()).user.mfaEnabled).toBe(true);

      const rows = await context.db.select().from(sessions).where(eq(sessions.userId, user.id));
      const byId = new Map(rows.map((row) => [row.id, row]));
      expect(byId.get(oldId)).toMatchObject({ revokedReason: 'rotated' });
      expect(byId.get(oldId)?.revokedAt).not.toBeNull();
      expect(byId.get(newId)).toMatchObject({
        revokedAt: null,
        mfaEnrollmentRequired: false,
        userId: user.id,
      });

      const [event] = await context.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.targetId, user.id))
        .then((events) => events.filter((row) => row.action === 'auth.mfa_enabled'));
      expect(event?.details).toEqual({ sessionId: newId.slice(0, 12) });
    } finally {
      socket.disconnect();
    }
  });

  it('lets one of two enables on the same session win; the other changes nothing', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const { secret } = mfaSetupResponseSchema.parse(
      (await send(context.app, 'POST', '/api/v1/me/mfa/setup', { session: client.token })).json(),
    );
    const totpCode = await code(secret);
    const answers = await Promise.all(
      [0, 1].map(() =>
        send(context.app, 'POST', '/api/v1/me/mfa/enable', {
          session: client.token,
          body: { code: totpCode },
        }),
      ),
    );
    // The loser either found the session ended (401) or the factor already on (409), by timing.
    const winners = answers.filter((answer) => answer.statusCode === 200);
    const losers = answers.filter((answer) => answer.statusCode !== 200);
    expect(winners).toHaveLength(1);
    expect(losers.map(codeOf)).toSatisfy(
      (codes: string[]) => codes.length === 1 && ['SESSION_EXPIRED', 'CONFLICT'].includes(codes[0]!),
    );
    // No new session for the loser (an ended one's cookie is cleared).
    expect([null, '']).toContain(sessionTokenFrom(losers[0]!));
    const winner = winners[0]!;
    const open = (await context.db.select().from(sessions).where(eq(sessions.userId, user.id))).filter(
      (row) => row.revokedAt === null,
    );
    expect(open.map((row) => row.id)).toEqual([hashSecretToken(sessionTokenFrom(winner)!)]);
    const { recoveryCodes } = mfaEnableResponseSchema.parse(winner.json());
    expect((await login(user, { recoveryCode: recoveryCodes[0]! })).statusCode).toBe(200);
  });
});

describe('sign-in with a second factor', () => {
  it('asks for the code (401 MFA_REQUIRED, no session), accepts a right one once, refuses a wrong or replayed one', async () => {
    const user = await createUser(context.app);
    const { secret } = await enrol((await signIn(context.app, user)).token);

    const missing = await login(user);
    expect(missing.statusCode).toBe(401);
    expect(codeOf(missing)).toBe('MFA_REQUIRED');
    expect(sessionTokenFrom(missing)).toBeNull();

    const wrong = await login(user, { totpCode: '000000' });
    expect(wrong.statusCode).toBe(401);
    expect(codeOf(wrong)).toBe('MFA_INVALID');
    expect((await auditEventsOf(context.app, 'auth.login_failed')).at(-1)?.details).toMatchObject({
      reason: 'mfa',
    });

    const totpCode = await code(secret);
    const right = await login(user, { totpCode });
    expect(right.statusCode).toBe(200);
    expect(sessionTokenFrom(right)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await auditEventsOf(context.app, 'auth.login')).at(-1)?.details).toMatchObject({
      secondFactor: 'totp',
    });

    const replayed = await login(user, { totpCode });
    expect(codeOf(replayed)).toBe('MFA_INVALID');
  });

  it('accepts each recovery code once (case and hyphen do not matter)', async () => {
    const user = await createUser(context.app);
    const { recoveryCodes } = await enrol((await signIn(context.app, user)).token);
    const [first, second] = recoveryCodes;
    const used = await login(user, { recoveryCode: first!.toUpperCase() });
    expect(used.statusCode).toBe(200);
    expect((await auditEventsOf(context.app, 'auth.login')).at(-1)?.details).toMatchObject({
      secondFactor: 'recovery_code',
    });
    const reused = await login(user, { recoveryCode: first! });
    expect(reused.statusCode).toBe(401);
    expect(codeOf(reused)).toBe('MFA_INVALID');
    expect((await login(user, { recoveryCode: second!.replace('-', '') })).statusCode).toBe(200);
  });

  it('counts wrong codes toward the lockout', async () => {
    const user = await createUser(context.app);
    await enrol((await signIn(context.app, user)).token);
    const statuses: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      statuses.push((await login(user, { totpCode: '111111' })).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
  });
});

describe('recovery codes and turning the second factor off', () => {
  it('replaces the recovery codes when confirmed with a code; the old ones stop working', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const { secret, recoveryCodes, token } = await enrol(client.token);
    const wrong = await send(context.app, 'POST', '/api/v1/me/mfa/recovery-codes', {
      session: token,
      body: { code: '000000' },
    });
    expect(codeOf(wrong)).toBe('MFA_INVALID');
    const response = await send(context.app, 'POST', '/api/v1/me/mfa/recovery-codes', {
      session: token,
      body: { code: await code(secret) },
    });
    expect(response.statusCode).toBe(200);
    const fresh = mfaEnableResponseSchema.parse(response.json()).recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(codeOf(await login(user, { recoveryCode: recoveryCodes[0]! }))).toBe('MFA_INVALID');
    expect((await login(user, { recoveryCode: fresh[0]! })).statusCode).toBe(200);
    expect((await auditEventsOf(context.app, 'auth.mfa_recovery_codes_regenerated')).at(-1)?.targetId).toBe(
      user.id,
    );
  });

  it('turns it off with the password and a code', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const { secret, token } = await enrol(client.token);
    const badPassword = await send(context.app, 'POST', '/api/v1/me/mfa/disable', {
      session: token,
      body: { password: 'Not-The-Password-9', code: await code(secret) },
    });
    expect(codeOf(badPassword)).toBe('PASSWORD_INCORRECT');
    const badCode = await send(context.app, 'POST', '/api/v1/me/mfa/disable', {
      session: token,
      body: { password: user.password, code: '000000' },
    });
    expect(codeOf(badCode)).toBe('MFA_INVALID');
    const done = await send(context.app, 'POST', '/api/v1/me/mfa/disable', {
      session: token,
      body: { password: user.password, code: await code(secret) },
    });
    expect(done.statusCode).toBe(204);
    expect((await login(user)).statusCode).toBe(200);
    expect(
      await context.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id)),
    ).toEqual([]);
    expect((await auditEventsOf(context.app, 'auth.mfa_disabled')).at(-1)?.targetId).toBe(user.id);
  });

  it('refuses to turn it off when a role requires it (409 MFA_REQUIRED_BY_POLICY)', async () => {
    const user = await createUser(context.app, { roles: ['doctor'] });
    const client = await signIn(context.app, user);
    const { secret, token } = await enrol(client.token);
    await setMfaRequiredRoles(['doctor']);
    try {
      const response = await send(context.app, 'POST', '/api/v1/me/mfa/disable', {
        session: token,
        body: { password: user.password, code: await code(secret) },
      });
      expect(response.statusCode).toBe(409);
      expect(codeOf(response)).toBe('MFA_REQUIRED_BY_POLICY');
    } finally {
      await setMfaRequiredRoles([]);
    }
  });
});

describe('MFA_ENROLLMENT_REQUIRED', () => {
  it('limits a required role without a second factor to /me, logout and /me/mfa/* until enrolment', async () => {
    await setMfaRequiredRoles(['admin', 'doctor']);
    try {
      const user = await createUser(context.app, { roles: ['admin'] });
      const client = await signIn(context.app, user);
      const waiting = await signIn(context.app, user);
      expect(client.me.session.mfaEnrollmentRequired).toBe(true);

      expect((await send(context.app, 'GET', '/api/v1/me', { session: client.token })).statusCode).toBe(200);
      for (const [method, url] of [
        ['GET', '/api/v1/outbox'],
        ['PATCH', '/api/v1/me'],
        ['GET', '/api/v1/me/sessions'],
      ] as const) {
        const blocked = await send(context.app, method, url, {
          session: client.token,
          body: method === 'PATCH' ? { name: 'Otro Nombre' } : undefined,
        });
        expect(blocked.statusCode, `${method} ${url}`).toBe(403);
        expect(codeOf(blocked)).toBe('MFA_ENROLLMENT_REQUIRED');
      }

      const { token } = await enrol(client.token);
      const me = meResponseSchema.parse(
        (await send(context.app, 'GET', '/api/v1/me', { session: token })).json(),
      );
      expect(me.session.mfaEnrollmentRequired).toBe(false);
      expect((await send(context.app, 'GET', '/api/v1/outbox', { session: token })).statusCode).toBe(200);
      // The enrolment-only session did not become a full one: it was replaced.
      expect(codeOf(await send(context.app, 'GET', '/api/v1/outbox', { session: client.token }))).toBe(
        'SESSION_EXPIRED',
      );
      // The other session never passed a second factor: it was ended.
      expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: waiting.token }))).toBe(
        'SESSION_EXPIRED',
      );
      expect((await send(context.app, 'POST', '/api/v1/auth/logout', { session: token })).statusCode).toBe(
        204,
      );
    } finally {
      await setMfaRequiredRoles([]);
    }
  });

  it('does not apply to roles the setting does not name', async () => {
    await setMfaRequiredRoles(['admin', 'doctor']);
    try {
      const client = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
      expect(client.me.session.mfaEnrollmentRequired).toBe(false);
      expect(
        (await send(context.app, 'GET', '/api/v1/me/sessions', { session: client.token })).statusCode,
      ).toBe(200);
    } finally {
      await setMfaRequiredRoles([]);
    }
  });

  it('lets logout through during enrolment', async () => {
    await setMfaRequiredRoles(['doctor']);
    try {
      const client = await signIn(context.app, await createUser(context.app, { roles: ['doctor'] }));
      const response = await send(context.app, 'POST', '/api/v1/auth/logout', { session: client.token });
      expect(response.statusCode).toBe(204);
      expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: client.token }))).toBe(
        'SESSION_EXPIRED',
      );
    } finally {
      await setMfaRequiredRoles([]);
    }
  });
});
