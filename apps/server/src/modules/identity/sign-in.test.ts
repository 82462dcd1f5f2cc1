import { errorResponseSchema } from '@telemedicina/shared/api';
import { meResponseSchema } from '@telemedicina/shared/auth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema.js';
import { hashSecretToken } from '../../lib/tokens.js';
import {
  auditEventsOf,
  createUser,
  nextRemoteAddress,
  send,
  sessionTokenFrom,
  signIn,
  testPassword,
  testXsrfToken,
} from '../../test/factories.js';
import { createTestContext, parseSetCookie, type TestContext } from '../../test/test-context.js';
import { errorCode, registration, uniqueEmail } from './identity-test-support.js';

let context: TestContext;
/** The app's clock follows real time shifted by this much (expiry and lockout tests move it). */
let offsetMs = 0;

beforeAll(async () => {
  context = await createTestContext({ now: () => new Date(Date.now() + offsetMs), smtp: true });
});

afterAll(async () => {
  await context?.close();
});

beforeEach(() => {
  offsetMs = 0;
});

describe('POST /auth/login', () => {
  it('signs in: MeResponse, an httpOnly SameSite=Lax session cookie, a rotated XSRF token, only a hash stored', async () => {
    const user = await createUser(context.app, { roles: ['staff'] });
    const response = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email.toUpperCase(), password: user.password },
      headers: { 'user-agent': 'Vitest Browser/1.0' },
    });
    expect(response.statusCode).toBe(200);
    const me = meResponseSchema.parse(response.json());
    expect(me.user).toMatchObject({
      id: user.id,
      email: user.email,
      emailVerified: true,
      mfaEnabled: false,
      status: 'active',
    });
    expect(me.roles.map((role) => role.key)).toEqual(['staff']);
    expect(me.roles[0]?.name).toEqual({ es: 'Recepción', en: 'Reception' });
    expect(me.permissions).toEqual(expect.arrayContaining(['appointments.book.any', 'patients.register']));
    expect(me.permissions).not.toContain('users.manage');
    expect(me.session).toMatchObject({ idleTimeoutSeconds: 15 * 60, mfaEnrollmentRequired: false });

    const cookies = parseSetCookie(response.headers['set-cookie']);
    const session = cookies.get('tm_session');
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session?.attributes).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', 'max-age=43200']),
    );
    expect(session?.attributes).not.toContain('secure');
    const xsrf = cookies.get('XSRF-TOKEN');
    expect(xsrf?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(xsrf?.value).not.toBe(testXsrfToken);
    expect(xsrf?.attributes).not.toContain('httponly');

    const stored = await context.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.id).toBe(hashSecretToken(session!.value));
    expect(stored[0]?.id).not.toContain(session!.value);
    expect(stored[0]?.userAgent).toBe('Vitest Browser/1.0');
    expect((await auditEventsOf(context.app, 'auth.login')).at(-1)).toMatchObject({
      actorUserId: user.id,
      outcome: 'success',
    });

    const meAgain = await send(context.app, 'GET', '/api/v1/me', { session: session!.value });
    expect(meAgain.statusCode).toBe(200);
    expect(meResponseSchema.parse(meAgain.json()).user.id).toBe(user.id);
  });

  it('gives patients the longer idle timeout', async () => {
    const client = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(client.me.session.idleTimeoutSeconds).toBe(30 * 60);
  });

  it('answers a wrong password and an unknown email identically (401 INVALID_CREDENTIALS)', async () => {
    const user = await createUser(context.app);
    const wrong = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: 'Wrong-Password-123' },
    });
    const unknown = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: uniqueEmail('ghost'), password: 'Wrong-Password-123' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(errorCode(wrong)).toBe('INVALID_CREDENTIALS');
    expect(sessionTokenFrom(wrong)).toBeNull();
    const failures = await auditEventsOf(context.app, 'auth.login_failed');
    expect(failures.some((event) => event.targetId === user.id)).toBe(true);
    expect(failures.some((event) => event.targetId === null && event.outcome === 'failure')).toBe(true);
  });

  it('verifies unknown emails against a dummy argon2 hash, so timing does not reveal them', async () => {
    const user = await createUser(context.app);
    const hasher = context.app.services.passwords;
    const calls: string[] = [];
    const original = { ...hasher };
    const { verify, verifyDummy } = original;
    hasher.verify = (hash, password) => {
      calls.push('verify');
      return verify(hash, password);
    };
    hasher.verifyDummy = (password) => {
      calls.push('dummy');
      return verifyDummy(password);
    };
    try {
      await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: uniqueEmail('ghost'), password: 'Wrong-Password-123' },
      });
      await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'Wrong-Password-123' },
      });
    } finally {
      Object.assign(hasher, original);
    }
    // One argon2id verification per attempt either way.
    expect(calls).toEqual(['dummy', 'verify']);
  });

  it('refuses a disabled account with the right password (403 ACCOUNT_DISABLED), not with a wrong one', async () => {
    const user = await createUser(context.app, { status: 'disabled' });
    const right = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(right.statusCode).toBe(403);
    expect(errorCode(right)).toBe('ACCOUNT_DISABLED');
    const wrong = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: 'Wrong-Password-123' },
    });
    expect(errorCode(wrong)).toBe('INVALID_CREDENTIALS');
  });

  it('rotates the session at sign-in: the token sent along dies', async () => {
    const user = await createUser(context.app);
    const first = await signIn(context.app, user);
    const second = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
      session: first.token,
    });
    expect(second.statusCode).toBe(200);
    const newToken = sessionTokenFrom(second);
    expect(newToken).not.toBe(first.token);
    const old = await send(context.app, 'GET', '/api/v1/me', { session: first.token });
    expect(old.statusCode).toBe(401);
    expect(errorCode(old)).toBe('SESSION_EXPIRED');
    expect((await send(context.app, 'GET', '/api/v1/me', { session: newToken })).statusCode).toBe(200);
  });

  it('never adopts a session id planted before sign-in (session fixation)', async () => {
    const user = await createUser(context.app);
    const planted = 'attacker-chosen-session-token-0123456789abcdef';
    const response = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
      session: planted,
    });
    expect(response.statusCode).toBe(200);
    const issued = sessionTokenFrom(response);
    expect(issued).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(issued).not.toBe(planted);
    expect((await send(context.app, 'GET', '/api/v1/me', { session: planted })).statusCode).toBe(401);
    expect((await send(context.app, 'GET', '/api/v1/me', { session: issued })).statusCode).toBe(200);
  });

  it('answers 400 VALIDATION_FAILED for a malformed body', async () => {
    const response = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'not-an-email', password: '' },
    });
    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('VALIDATION_FAILED');
  });
});

describe('lockout', () => {
  async function attempt(email: string, password = 'Wrong-Password-123') {
    return send(context.app, 'POST', '/api/v1/auth/login', { body: { email, password } });
  }

  it('locks an email after 5 failures within 15 minutes, identically for known and unknown emails', async () => {
    const user = await createUser(context.app);
    const ghost = uniqueEmail('ghost');
    const knownAnswers: [number, string][] = [];
    const unknownAnswers: [number, string][] = [];
    for (let round = 0; round < 6; round += 1) {
      const known = await attempt(user.email);
      const unknown = await attempt(ghost);
      knownAnswers.push([known.statusCode, errorCode(known)]);
      unknownAnswers.push([unknown.statusCode, errorCode(unknown)]);
    }
    expect(knownAnswers).toEqual([
      [401, 'INVALID_CREDENTIALS'],
      [401, 'INVALID_CREDENTIALS'],
      [401, 'INVALID_CREDENTIALS'],
      [401, 'INVALID_CREDENTIALS'],
      [423, 'ACCOUNT_LOCKED'],
      [423, 'ACCOUNT_LOCKED'],
    ]);
    expect(unknownAnswers).toEqual(knownAnswers);

    const locked = await attempt(user.email, user.password);
    expect(locked.statusCode).toBe(423);
    const details = errorResponseSchema.parse(locked.json()).error.details as { retryAfterSeconds: number };
    expect(details.retryAfterSeconds).toBeGreaterThan(14 * 60);
    expect(details.retryAfterSeconds).toBeLessThanOrEqual(15 * 60);
    const lockouts = await auditEventsOf(context.app, 'auth.lockout');
    expect(lockouts.filter((event) => event.targetId === user.id)).toHaveLength(1);
    expect(lockouts.some((event) => (event.details as { email?: string }).email === ghost)).toBe(true);
  });

  it('unlocks by itself after 15 minutes', async () => {
    const user = await createUser(context.app);
    for (let round = 0; round < 5; round += 1) {
      await attempt(user.email);
    }
    expect((await attempt(user.email, user.password)).statusCode).toBe(423);
    offsetMs = 14 * 60_000;
    expect((await attempt(user.email, user.password)).statusCode).toBe(423);
    offsetMs = 15 * 60_000 + 1_000;
    const after = await attempt(user.email, user.password);
    expect(after.statusCode).toBe(200);
  });

  it('starts counting again once failures are older than the window', async () => {
    const user = await createUser(context.app);
    for (let round = 0; round < 4; round += 1) {
      await attempt(user.email);
    }
    offsetMs = 16 * 60_000;
    const fifth = await attempt(user.email);
    expect(fifth.statusCode).toBe(401);
    expect((await attempt(user.email, user.password)).statusCode).toBe(200);
  });

  it('forgets failures after a successful sign-in', async () => {
    const user = await createUser(context.app);
    for (let round = 0; round < 4; round += 1) {
      await attempt(user.email);
    }
    expect((await attempt(user.email, user.password)).statusCode).toBe(200);
    for (let round = 0; round < 4; round += 1) {
      expect((await attempt(user.email)).statusCode).toBe(401);
    }
  });
});

describe('rate limits', () => {
  it('answers 429 RATE_LIMITED with Retry-After past 10 failed sign-ins a minute from one address', async () => {
    const address = nextRemoteAddress();
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<typeof send>> | null;
    for (let round = 0; round < 11; round += 1) {
      last = await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: uniqueEmail('limited'), password: 'Wrong-Password-123' },
        remoteAddress: address,
      });
      statuses.push(last.statusCode);
    }
    expect(statuses).toEqual([...Array.from({ length: 10 }, () => 401), 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    const error = errorResponseSchema.parse(last?.json()).error;
    expect(error.code).toBe('RATE_LIMITED');
    expect((error.details as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    // Another address is not affected.
    const other = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: uniqueEmail('x'), password: 'Wrong-Password-123' },
    });
    expect(other.statusCode).toBe(401);
  });

  it('does not count successful sign-ins as failures (a clinic behind one address), but caps all attempts at 30 a minute', async () => {
    const address = nextRemoteAddress();
    const user = await createUser(context.app);
    const statuses: number[] = [];
    for (let round = 0; round < 31; round += 1) {
      const response = await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: user.password },
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array.from({ length: 30 }, () => 200), 429]);
  });

  it('counts wrong codes and locked emails as failures too', async () => {
    const address = nextRemoteAddress();
    const user = await createUser(context.app);
    const statuses: number[] = [];
    for (let round = 0; round < 11; round += 1) {
      const response = await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'Wrong-Password-123' },
        remoteAddress: address,
      });
      statuses.push(response.statusCode);
    }
    // 4 wrong passwords, the 5th locks, 5 more answered "locked", then the address is limited.
    expect(statuses).toEqual([401, 401, 401, 401, 423, 423, 423, 423, 423, 423, 429]);
  });

  it.each([
    ['/api/v1/auth/register', 5, () => registration()],
    ['/api/v1/auth/password/forgot', 5, () => ({ email: uniqueEmail('forgot') })],
    ['/api/v1/auth/verify-email/resend', 5, () => ({ email: uniqueEmail('resend') })],
    ['/api/v1/auth/password/reset', 5, () => ({ token: 'y'.repeat(43), password: testPassword })],
  ])('limits %s to %i requests per window per address', async (url, max, body) => {
    const address = nextRemoteAddress();
    const statuses: number[] = [];
    for (let round = 0; round <= max; round += 1) {
      statuses.push(
        (await send(context.app, 'POST', url, { body: body(), remoteAddress: address })).statusCode,
      );
    }
    expect(statuses.slice(0, max).every((status) => status !== 429)).toBe(true);
    expect(statuses[max]).toBe(429);
  });
});

describe('POST /auth/logout', () => {
  it('ends the session, clears the cookie and records it', async () => {
    const user = await createUser(context.app);
    const client = await signIn(context.app, user);
    const response = await send(context.app, 'POST', '/api/v1/auth/logout', { session: client.token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const cleared = parseSetCookie(response.headers['set-cookie']).get('tm_session');
    expect(cleared?.value).toBe('');
    expect(cleared?.attributes).toContain('max-age=0');
    const after = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(after.statusCode).toBe(401);
    expect((await auditEventsOf(context.app, 'auth.logout')).at(-1)).toMatchObject({ actorUserId: user.id });
  });

  it('answers 204 without a session too', async () => {
    const response = await send(context.app, 'POST', '/api/v1/auth/logout');
    expect(response.statusCode).toBe(204);
  });
});
