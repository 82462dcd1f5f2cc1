import { errorResponseSchema, meResponseSchema, type RegisterRequest } from '@telemedicina/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consents, sessions, userRoles, roles, users } from '../../db/schema.js';
import { hashSecretToken } from '../../lib/tokens.js';
import {
  auditEventsOf,
  createUser,
  deliveredToken,
  latestEmail,
  nextRemoteAddress,
  send,
  sessionTokenFrom,
  signIn,
  testPassword,
  testXsrfToken,
} from '../../test/factories.js';
import {
  createTestContext,
  parseSetCookie,
  testAppOrigin,
  type TestContext,
} from '../../test/test-context.js';

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

let emailSequence = 0;
function uniqueEmail(prefix = 'persona'): string {
  emailSequence += 1;
  return `${prefix}${emailSequence}.${Date.now().toString(36)}@example.test`;
}

function registration(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  return {
    name: 'Lucía Fernández',
    email: uniqueEmail(),
    password: testPassword,
    phone: '+52 55 1234 5678',
    dateOfBirth: '1990-04-12',
    language: 'es',
    timeZone: 'America/Mexico_City',
    acceptTerms: true,
    acceptTelemedicineConsent: true,
    ...overrides,
  };
}

function errorCode(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

async function findUser(email: string) {
  const [row] = await context.db.db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

describe('POST /auth/register', () => {
  it('creates a pending patient with both consents and emails a verification link in their language', async () => {
    const body = registration({ language: 'en', email: uniqueEmail('New.Patient') });
    const response = await send(context.app, 'POST', '/api/v1/auth/register', { body });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ status: 'verification_sent' });

    const user = await findUser(body.email.toLowerCase());
    expect(user).toMatchObject({
      status: 'pending',
      emailVerifiedAt: null,
      language: 'en',
      phone: body.phone,
    });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const roleKeys = await context.db.db
      .select({ key: roles.key })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, user!.id));
    expect(roleKeys).toEqual([{ key: 'patient' }]);
    const accepted = await context.db.db.select().from(consents).where(eq(consents.userId, user!.id));
    expect(accepted.map((consent) => consent.kind).sort()).toEqual(['telemedicine', 'terms']);
    expect(
      accepted.every((consent) => consent.version.length > 0 && consent.acceptedAt instanceof Date),
    ).toBe(true);

    const email = await latestEmail(context.app, user!.email, 'verify-email');
    expect(email).toMatchObject({ language: 'en', status: expect.stringMatching(/^(queued|sent)$/) });
    expect(email?.subject).toMatch(/^Confirm your email/);
    expect(email?.text).toContain(`${testAppOrigin}/verify-email?token=`);
    expect(email?.html).toContain(`href="${testAppOrigin}/verify-email?token=`);
    expect((await auditEventsOf(context.app, 'auth.register')).at(-1)).toMatchObject({
      outcome: 'success',
      targetId: user!.id,
    });
  });

  it('refuses a weak password with 422 PASSWORD_TOO_WEAK and the reasons', async () => {
    const body = registration({ name: 'Marta Gonzalez', password: 'Gonzalez#2024xx' });
    const response = await send(context.app, 'POST', '/api/v1/auth/register', { body });
    expect(response.statusCode).toBe(422);
    const error = errorResponseSchema.parse(response.json()).error;
    expect(error.code).toBe('PASSWORD_TOO_WEAK');
    expect((error.details as { problems: string[] }).problems).toEqual(
      expect.arrayContaining(['containsPersonalData']),
    );
    expect(await findUser(body.email)).toBeNull();
  });

  it('answers 400 with field issues when the consents are not accepted', async () => {
    const response = await send(context.app, 'POST', '/api/v1/auth/register', {
      body: { ...registration(), acceptTelemedicineConsent: false },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: { issues: [{ location: 'body', path: 'acceptTelemedicineConsent' }] },
      },
    });
  });

  it('answers an already registered email exactly like a new one, and tells the owner instead', async () => {
    const owner = await createUser(context.app, { roles: ['patient'], language: 'en' });
    const fresh = await send(context.app, 'POST', '/api/v1/auth/register', { body: registration() });
    const taken = await send(context.app, 'POST', '/api/v1/auth/register', {
      body: registration({ email: owner.email.toUpperCase(), name: 'Otra Persona' }),
    });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(taken.headers['set-cookie']).toEqual(fresh.headers['set-cookie']);

    const note = await latestEmail(context.app, owner.email, 'registration-attempt');
    expect(note?.subject).toMatch(/^Sign-up attempt/);
    expect(note?.text).toContain(`${testAppOrigin}/forgot-password`);
    expect(await latestEmail(context.app, owner.email, 'verify-email')).toBeNull();
    const stillOne = await context.db.db.select().from(users).where(eq(users.email, owner.email));
    expect(stillOne).toHaveLength(1);
    expect(stillOne[0]?.name).toBe(owner.name);
  });

  it('sends a fresh verification link when the email registered before but never verified', async () => {
    const body = registration();
    await send(context.app, 'POST', '/api/v1/auth/register', { body });
    offsetMs = 1_000;
    const again = await send(context.app, 'POST', '/api/v1/auth/register', { body });
    expect(again.statusCode).toBe(202);
    const links = await context.db.db.select().from(users).where(eq(users.email, body.email));
    expect(links).toHaveLength(1);
    const rows = (
      await context.app.services.db.db.query.emailOutbox.findMany({
        where: (outbox, { eq: equals }) => equals(outbox.toAddress, body.email),
      })
    ).filter((row) => row.template === 'verify-email');
    expect(rows).toHaveLength(2);
  });
});

describe('POST /auth/verify-email', () => {
  it('activates the account with the emailed token, once', async () => {
    const body = registration();
    await send(context.app, 'POST', '/api/v1/auth/register', { body });
    const token = await deliveredToken(context, body.email, '/verify-email');

    const blocked = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: body.email, password: body.password },
    });
    expect(blocked.statusCode).toBe(403);
    expect(errorCode(blocked)).toBe('EMAIL_NOT_VERIFIED');
    const wrongPassword = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: body.email, password: 'Otra-Clave-Larga-99' },
    });
    expect(errorCode(wrongPassword)).toBe('INVALID_CREDENTIALS');

    const verified = await send(context.app, 'POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ status: 'verified' });
    expect(await findUser(body.email)).toMatchObject({ status: 'active', emailVerifiedAt: expect.any(Date) });
    expect((await auditEventsOf(context.app, 'auth.email_verified')).at(-1)?.targetId).toBe(
      (await findUser(body.email))?.id,
    );

    const again = await send(context.app, 'POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(again.statusCode).toBe(400);
    expect(errorCode(again)).toBe('TOKEN_INVALID');

    const login = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: body.email, password: body.password },
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an expired or unknown token', async () => {
    const body = registration();
    await send(context.app, 'POST', '/api/v1/auth/register', { body });
    const token = await deliveredToken(context, body.email, '/verify-email');
    offsetMs = 49 * 3_600_000;
    const expired = await send(context.app, 'POST', '/api/v1/auth/verify-email', { body: { token } });
    expect(expired.statusCode).toBe(400);
    expect(errorCode(expired)).toBe('TOKEN_INVALID');
    const unknown = await send(context.app, 'POST', '/api/v1/auth/verify-email', {
      body: { token: 'x'.repeat(43) },
    });
    expect(errorCode(unknown)).toBe('TOKEN_INVALID');
  });
});

describe('POST /auth/verify-email/resend', () => {
  it('answers 202 for any email and sends a link only to an unverified account', async () => {
    const body = registration();
    await send(context.app, 'POST', '/api/v1/auth/register', { body });
    const verifiedUser = await createUser(context.app);
    const unknownEmail = uniqueEmail('nobody');
    const answers = await Promise.all(
      [body.email, verifiedUser.email, unknownEmail].map((email) =>
        send(context.app, 'POST', '/api/v1/auth/verify-email/resend', { body: { email } }),
      ),
    );
    expect(answers.map((answer) => [answer.statusCode, answer.body])).toEqual(
      Array.from({ length: 3 }, () => [202, JSON.stringify({ status: 'accepted' })]),
    );
    const pendingMails = await context.app.services.db.db.query.emailOutbox.findMany({
      where: (outbox, { eq: equals }) => equals(outbox.toAddress, body.email),
    });
    expect(pendingMails).toHaveLength(2);
    expect(await latestEmail(context.app, verifiedUser.email)).toBeNull();
    expect(await latestEmail(context.app, unknownEmail)).toBeNull();
  });
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

    const stored = await context.db.db.select().from(sessions).where(eq(sessions.userId, user.id));
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

describe('password reset', () => {
  it('answers 202 whether or not the email exists, emailing only an existing account', async () => {
    const user = await createUser(context.app, { language: 'es' });
    const ghost = uniqueEmail('ghost');
    const known = await send(context.app, 'POST', '/api/v1/auth/password/forgot', {
      body: { email: user.email },
    });
    const unknown = await send(context.app, 'POST', '/api/v1/auth/password/forgot', {
      body: { email: ghost },
    });
    expect([known.statusCode, unknown.statusCode]).toEqual([202, 202]);
    expect(known.body).toBe(unknown.body);
    const email = await latestEmail(context.app, user.email, 'reset-password');
    expect(email?.subject).toMatch(/^Restablezca su contraseña/);
    expect(email?.text).toContain(`${testAppOrigin}/reset-password?token=`);
    expect(await latestEmail(context.app, ghost)).toBeNull();
    const requested = await auditEventsOf(context.app, 'auth.password_reset_requested');
    expect(requested.some((event) => event.targetId === user.id && event.outcome === 'success')).toBe(true);
  });

  it('sets a new password once with the emailed token, ends every session and lifts a lockout', async () => {
    const user = await createUser(context.app, { language: 'en' });
    const client = await signIn(context.app, user);
    await send(context.app, 'POST', '/api/v1/auth/password/forgot', { body: { email: user.email } });
    const token = await deliveredToken(context, user.email, '/reset-password');
    for (let round = 0; round < 5; round += 1) {
      await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'Wrong-Password-123' },
      });
    }

    const weak = await send(context.app, 'POST', '/api/v1/auth/password/reset', {
      body: { token, password: 'short' },
    });
    expect(weak.statusCode).toBe(422);
    expect(errorResponseSchema.parse(weak.json()).error).toMatchObject({
      code: 'PASSWORD_TOO_WEAK',
      details: { problems: expect.arrayContaining(['tooShort']) },
    });

    const newPassword = 'Otra-Clave-Muy-Segura-7';
    const reset = await send(context.app, 'POST', '/api/v1/auth/password/reset', {
      body: { token, password: newPassword },
    });
    expect(reset.statusCode).toBe(204);
    const old = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
    expect(errorCode(old)).toBe('SESSION_EXPIRED');
    const reused = await send(context.app, 'POST', '/api/v1/auth/password/reset', {
      body: { token, password: 'Tercera-Clave-Segura-8' },
    });
    expect(reused.statusCode).toBe(400);
    expect(errorCode(reused)).toBe('TOKEN_INVALID');

    const oldPassword = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(errorCode(oldPassword)).toBe('INVALID_CREDENTIALS');
    const signedIn = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: newPassword },
    });
    expect(signedIn.statusCode).toBe(200);
    expect((await auditEventsOf(context.app, 'auth.password_reset')).at(-1)?.targetId).toBe(user.id);
    expect((await latestEmail(context.app, user.email, 'password-changed'))?.subject).toMatch(
      /password was changed/,
    );
  });

  it('refuses an expired token', async () => {
    const user = await createUser(context.app);
    await send(context.app, 'POST', '/api/v1/auth/password/forgot', { body: { email: user.email } });
    const token = await deliveredToken(context, user.email, '/reset-password');
    offsetMs = 61 * 60_000;
    const response = await send(context.app, 'POST', '/api/v1/auth/password/reset', {
      body: { token, password: 'Otra-Clave-Muy-Segura-7' },
    });
    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('TOKEN_INVALID');
  });

  it('lets only one of two concurrent uses of a token through', async () => {
    const user = await createUser(context.app);
    await send(context.app, 'POST', '/api/v1/auth/password/forgot', { body: { email: user.email } });
    const token = await deliveredToken(context, user.email, '/reset-password');
    const results = await Promise.all(
      ['Primera-Clave-Segura-1', 'Segunda-Clave-Segura-2'].map((password) =>
        send(context.app, 'POST', '/api/v1/auth/password/reset', { body: { token, password } }),
      ),
    );
    expect(results.map((result) => result.statusCode).sort()).toEqual([204, 400]);
  });

  it('sends at most 3 reset emails per address per 15 minutes (mail-bombing guard), answering 202 each time', async () => {
    const user = await createUser(context.app);
    for (let round = 0; round < 4; round += 1) {
      const response = await send(context.app, 'POST', '/api/v1/auth/password/forgot', {
        body: { email: user.email },
      });
      expect(response.statusCode).toBe(202);
    }
    await context.app.services.background.idle();
    const sent = await context.app.services.db.db.query.emailOutbox.findMany({
      where: (outbox, { eq: equals }) =>
        and(equals(outbox.toAddress, user.email), equals(outbox.template, 'reset-password')),
    });
    expect(sent).toHaveLength(3);
  });
});
