import { errorResponseSchema } from '@telemedicina/shared/api';
import { and } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  auditEventsOf,
  createUser,
  deliveredToken,
  latestEmail,
  send,
  signIn,
} from '../../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';
import { errorCode, uniqueEmail } from './identity-test-support.js';

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
    const sent = await context.app.services.db.query.emailOutbox.findMany({
      where: (outbox, { eq: equals }) =>
        and(equals(outbox.toAddress, user.email), equals(outbox.template, 'reset-password')),
    });
    expect(sent).toHaveLength(3);
  });
});
