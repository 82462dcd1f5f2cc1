import { errorResponseSchema } from '@telemedicina/shared/api';
import { outboxItemSchema, outboxMessageSchema } from '@telemedicina/shared/auth';
import { pageOf } from '@telemedicina/shared/common';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, emailOutbox, users } from '../../db/schema.js';
import { createUser, send, signIn, testPassword, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

/**
 * Issue 21, finding 1: an administrator (outbox.read) asked a password reset
 * for someone else, read the link with its token in the outbox and signed in
 * as that person. The same held for verification and invitation links.
 */

const takeoverPassword = 'Admin-Eligio-Esta-Clave-2026';
let sequence = 0;
function uniqueEmail(prefix: string): string {
  sequence += 1;
  return `${prefix}${sequence}.${Date.now().toString(36)}@example.test`;
}

/** Every `token=` value anywhere in a response body (text, HTML, subject, list fields). */
function tokensIn(body: string): string[] {
  return [...body.matchAll(/token=([A-Za-z0-9_-]{8,})/g)].map((match) => match[1]!);
}

/** What an administrator can read about the newest email to `to`: the list row and the message. */
async function readOutbox(context: TestContext, admin: SignedInClient, to: string, template: string) {
  await context.app.services.background.idle();
  await context.app.services.mailer.idle();
  const list = await send(context.app, 'GET', `/api/v1/outbox?q=${encodeURIComponent(to)}`, {
    session: admin.token,
  });
  expect(list.statusCode).toBe(200);
  const item = pageOf(outboxItemSchema)
    .parse(list.json())
    .data.find((row) => row.to === to && row.template === template);
  expect(item, `${template} to ${to} in the outbox`).toBeDefined();
  const detail = await send(context.app, 'GET', `/api/v1/outbox/${item!.id}`, { session: admin.token });
  expect(detail.statusCode).toBe(200);
  return { body: `${list.body}\n${detail.body}`, message: outboxMessageSchema.parse(detail.json()) };
}

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

describe('without SMTP (the default), the outbox lets no administrator in as someone else', () => {
  let context: TestContext;
  let admin: SignedInClient;

  beforeAll(async () => {
    context = await createTestContext();
    admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  });

  afterAll(async () => {
    await context?.close();
  });

  it('a reset asked for a patient: the outbox shows what was sent without a usable link; the patient stays theirs', async () => {
    const patient = await createUser(context.app, { roles: ['patient'], language: 'en' });
    const asked = await send(context.app, 'POST', '/api/v1/auth/password/forgot', {
      body: { email: patient.email },
    });
    expect(asked.statusCode).toBe(202);

    const { body, message } = await readOutbox(context, admin, patient.email, 'reset-password');
    // Whatever looks like a token is tried, as the attacker would.
    for (const token of tokensIn(body)) {
      await send(context.app, 'POST', '/api/v1/auth/password/reset', {
        body: { token, password: takeoverPassword },
      });
    }
    const takeover = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: patient.email, password: takeoverPassword },
    });
    expect(takeover.statusCode).toBe(401);

    // The viewer still says what was sent to whom, and that the link is hidden.
    expect(message).toMatchObject({ to: patient.email, template: 'reset-password', status: 'stored' });
    expect(message.subject).toMatch(/password/i);
    expect(message.hiddenLinks).toBe(1);
    expect(message.text).toContain('/reset-password?token=[hidden]');
    expect(message.html).toContain('/reset-password?token=[hidden]');
    const hidden = await send(context.app, 'POST', '/api/v1/auth/password/reset', {
      body: { token: '[hidden]', password: takeoverPassword },
    });
    expect(hidden.statusCode).toBe(400);
    const owner = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: patient.email, password: patient.password },
    });
    expect(owner.statusCode).toBe(200);
  });

  it('a verification link: the administrator cannot confirm someone else’s address', async () => {
    const email = uniqueEmail('registro');
    const registered = await send(context.app, 'POST', '/api/v1/auth/register', {
      body: {
        name: 'Lucía Fernández',
        email,
        password: testPassword,
        phone: '+52 55 1234 5678',
        dateOfBirth: '1990-04-12',
        language: 'es',
        timeZone: 'America/Mexico_City',
        acceptTerms: true,
        acceptTelemedicineConsent: true,
      },
    });
    expect(registered.statusCode).toBe(202);
    const { body, message } = await readOutbox(context, admin, email, 'verify-email');
    for (const token of tokensIn(body)) {
      await send(context.app, 'POST', '/api/v1/auth/verify-email', { body: { token } });
    }
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ status: 'pending', emailVerifiedAt: null });
    expect(message.hiddenLinks).toBe(1);
    expect(message.text).toContain('/verify-email?token=[hidden]');
  });

  it('an invitation: the administrator cannot accept it in the invitee’s name', async () => {
    const email = uniqueEmail('invitado');
    const invited = await send(context.app, 'POST', '/api/v1/invitations', {
      session: admin.token,
      body: { email, name: 'Dra. Invitada', roleKeys: ['doctor'], language: 'es' },
    });
    expect(invited.statusCode).toBe(201);
    const { body, message } = await readOutbox(context, admin, email, 'invitation');
    for (const token of tokensIn(body)) {
      await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
        body: { token, password: takeoverPassword, acceptTerms: true },
      });
    }
    const [user] = await context.db.select().from(users).where(eq(users.email, email));
    expect(user).toBeUndefined();
    const takeover = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email, password: takeoverPassword },
    });
    expect(takeover.statusCode).toBe(401);
    expect(codeOf(takeover)).toBe('INVALID_CREDENTIALS');
    expect(message.hiddenLinks).toBe(1);
    expect(message.text).toContain('/accept-invitation?token=[hidden]');
  });
});

describe('with SMTP, only the delivered email carries the secret', () => {
  let context: TestContext;
  let admin: SignedInClient;

  beforeAll(async () => {
    context = await createTestContext({ smtp: true });
    admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
  });

  afterAll(async () => {
    await context?.close();
  });

  /** The token is nowhere in the stored emails or the audit trail (anything an API could read). */
  async function expectStoredNowhere(token: string): Promise<void> {
    const outbox = await context.db.select().from(emailOutbox);
    expect(JSON.stringify(outbox)).not.toContain(token);
    const audit = await context.db.select().from(auditEvents);
    expect(JSON.stringify(audit)).not.toContain(token);
  }

  it('reset: the recipient’s link works; the outbox row (sent) does not hold it', async () => {
    const patient = await createUser(context.app, { roles: ['patient'], language: 'es' });
    await send(context.app, 'POST', '/api/v1/auth/password/forgot', { body: { email: patient.email } });
    const { body, message } = await readOutbox(context, admin, patient.email, 'reset-password');
    expect(message.status).toBe('sent');
    const token = context.mail!.tokenFor(patient.email, '/reset-password');
    expect(body).not.toContain(token);
    expect(tokensIn(body)).toEqual([]);
    await expectStoredNowhere(token);
    const reset = await send(context.app, 'POST', '/api/v1/auth/password/reset', {
      body: { token, password: 'La-Clave-Del-Paciente-9' },
    });
    expect(reset.statusCode).toBe(204);
    await signIn(context.app, { ...patient, password: 'La-Clave-Del-Paciente-9' });
  });

  it('verification and invitation: delivered links work, stored copies are redacted', async () => {
    const email = uniqueEmail('registro');
    await send(context.app, 'POST', '/api/v1/auth/register', {
      body: {
        name: 'Lucía Fernández',
        email,
        password: testPassword,
        phone: '+52 55 1234 5678',
        dateOfBirth: '1990-04-12',
        language: 'en',
        timeZone: 'America/Mexico_City',
        acceptTerms: true,
        acceptTelemedicineConsent: true,
      },
    });
    const verification = await readOutbox(context, admin, email, 'verify-email');
    const verifyToken = context.mail!.tokenFor(email, '/verify-email');
    expect(verification.body).not.toContain(verifyToken);
    await expectStoredNowhere(verifyToken);
    expect(
      (await send(context.app, 'POST', '/api/v1/auth/verify-email', { body: { token: verifyToken } }))
        .statusCode,
    ).toBe(200);

    const invitee = uniqueEmail('invitado');
    await send(context.app, 'POST', '/api/v1/invitations', {
      session: admin.token,
      body: { email: invitee, name: 'Dra. Invitada', roleKeys: ['doctor'], language: 'en' },
    });
    const invitation = await readOutbox(context, admin, invitee, 'invitation');
    expect(invitation.message.hiddenLinks).toBe(1);
    const inviteToken = context.mail!.tokenFor(invitee, '/accept-invitation');
    expect(invitation.body).not.toContain(inviteToken);
    await expectStoredNowhere(inviteToken);
    const accepted = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token: inviteToken, password: 'Cielo-Azul-Sobre-Lima-4', acceptTerms: true },
    });
    expect(accepted.statusCode).toBe(200);
  });
});
