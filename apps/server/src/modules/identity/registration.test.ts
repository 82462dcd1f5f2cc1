import { errorResponseSchema } from '@telemedicina/shared/api';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consents, userRoles, roles, users } from '../../db/schema.js';
import { auditEventsOf, createUser, deliveredToken, latestEmail, send } from '../../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';
import { errorCode, findUser, registration, uniqueEmail } from './identity-test-support.js';

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

describe('POST /auth/register', () => {
  it('creates a pending patient with both consents and emails a verification link in their language', async () => {
    const body = registration({ language: 'en', email: uniqueEmail('New.Patient') });
    const response = await send(context.app, 'POST', '/api/v1/auth/register', { body });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ status: 'verification_sent' });

    const user = await findUser(context, body.email.toLowerCase());
    expect(user).toMatchObject({
      status: 'pending',
      emailVerifiedAt: null,
      language: 'en',
      phone: body.phone,
    });
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const roleKeys = await context.db
      .select({ key: roles.key })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, user!.id));
    expect(roleKeys).toEqual([{ key: 'patient' }]);
    const accepted = await context.db.select().from(consents).where(eq(consents.userId, user!.id));
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
    expect(await findUser(context, body.email)).toBeNull();
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
    const stillOne = await context.db.select().from(users).where(eq(users.email, owner.email));
    expect(stillOne).toHaveLength(1);
    expect(stillOne[0]?.name).toBe(owner.name);
  });

  it('sends a fresh verification link when the email registered before but never verified', async () => {
    const body = registration();
    await send(context.app, 'POST', '/api/v1/auth/register', { body });
    offsetMs = 1_000;
    const again = await send(context.app, 'POST', '/api/v1/auth/register', { body });
    expect(again.statusCode).toBe(202);
    const links = await context.db.select().from(users).where(eq(users.email, body.email));
    expect(links).toHaveLength(1);
    const rows = (
      await context.app.services.db.query.emailOutbox.findMany({
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
    expect(await findUser(context, body.email)).toMatchObject({
      status: 'active',
      emailVerifiedAt: expect.any(Date),
    });
    expect((await auditEventsOf(context.app, 'auth.email_verified')).at(-1)?.targetId).toBe(
      (await findUser(context, body.email))?.id,
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
    const pendingMails = await context.app.services.db.query.emailOutbox.findMany({
      where: (outbox, { eq: equals }) => equals(outbox.toAddress, body.email),
    });
    expect(pendingMails).toHaveLength(2);
    expect(await latestEmail(context.app, verifiedUser.email)).toBeNull();
    expect(await latestEmail(context.app, unknownEmail)).toBeNull();
  });
});
