import { errorResponseSchema } from '@telemedicina/shared/api';
import {
  invitationCreatedResponseSchema,
  invitationInfoSchema,
  meResponseSchema,
} from '@telemedicina/shared/auth';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consents, users } from '../../db/schema.js';
import {
  auditEventsOf,
  createUser,
  deliveredToken,
  latestEmail,
  send,
  sessionTokenFrom,
  signIn,
  testPassword,
  type SignedInClient,
} from '../../test/factories.js';
import {
  createTestContext,
  parseSetCookie,
  testAppOrigin,
  type TestContext,
} from '../../test/test-context.js';

let context: TestContext;
let offsetMs = 0;
let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({ now: () => new Date(Date.now() + offsetMs), smtp: true });
});

beforeEach(async () => {
  offsetMs = 0;
  admin = await signIn(
    context.app,
    await createUser(context.app, { roles: ['admin'], name: 'Ana Administradora' }),
  );
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

let sequence = 0;
function inviteeEmail(): string {
  sequence += 1;
  return `invitado${sequence}.${Date.now().toString(36)}@example.test`;
}

async function invite(body: { email: string; name?: string; roleKeys?: string[]; language?: 'es' | 'en' }) {
  return send(context.app, 'POST', '/api/v1/invitations', {
    session: admin.token,
    body: { name: 'Dr. Invitado Nuevo', roleKeys: ['doctor'], language: 'es', ...body },
  });
}

describe('invitations', () => {
  it('emails an invitation in the chosen language; the link shows who and which roles, and accepting signs in', async () => {
    const email = inviteeEmail();
    const created = await invite({ email, roleKeys: ['doctor', 'staff'], language: 'en' });
    expect(created.statusCode).toBe(201);
    const { id, expiresAt } = invitationCreatedResponseSchema.parse(created.json());
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(6 * 24 * 3_600_000);
    const message = await latestEmail(context.app, email, 'invitation');
    expect(message?.subject).toMatch(/^You are invited/);
    expect(message?.text).toContain('Ana Administradora');
    expect(message?.text).toContain(`${testAppOrigin}/accept-invitation?token=`);
    expect((await auditEventsOf(context.app, 'user.invited')).at(-1)).toMatchObject({
      targetType: 'invitation',
      targetId: id,
    });
    const token = await deliveredToken(context, email, '/accept-invitation');

    const info = await send(context.app, 'GET', `/api/v1/auth/invitations/${token}`);
    expect(info.statusCode).toBe(200);
    const invitation = invitationInfoSchema.parse(info.json());
    expect(invitation).toMatchObject({ email, name: 'Dr. Invitado Nuevo' });
    expect(invitation.roles.map((role) => role.key).sort()).toEqual(['doctor', 'staff']);

    const weak = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, password: 'invitado123', acceptTerms: true },
    });
    expect(weak.statusCode).toBe(422);

    const accepted = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: {
        token,
        password: testPassword,
        name: 'Dra. Invitada Final',
        timeZone: 'Europe/Madrid',
        acceptTerms: true,
      },
    });
    expect(accepted.statusCode).toBe(200);
    const me = meResponseSchema.parse(accepted.json());
    expect(me.user).toMatchObject({
      email,
      name: 'Dra. Invitada Final',
      language: 'en',
      timeZone: 'Europe/Madrid',
      emailVerified: true,
      status: 'active',
    });
    expect(me.roles.map((role) => role.key).sort()).toEqual(['doctor', 'staff']);
    const session = sessionTokenFrom(accepted);
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(parseSetCookie(accepted.headers['set-cookie']).get('XSRF-TOKEN')).toBeDefined();
    expect((await send(context.app, 'GET', '/api/v1/me', { session })).statusCode).toBe(200);
    const [row] = await context.db.select().from(users).where(eq(users.email, email));
    expect(await context.db.select().from(consents).where(eq(consents.userId, row!.id))).toHaveLength(1);
    expect((await auditEventsOf(context.app, 'user.invitation_accepted')).at(-1)).toMatchObject({
      targetId: row!.id,
    });

    const reused = await send(context.app, 'GET', `/api/v1/auth/invitations/${token}`);
    expect(reused.statusCode).toBe(400);
    expect(codeOf(reused)).toBe('TOKEN_INVALID');
    const acceptAgain = await send(context.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, password: testPassword, acceptTerms: true },
    });
    expect(codeOf(acceptAgain)).toBe('TOKEN_INVALID');
  });

  it('expires after 7 days', async () => {
    const email = inviteeEmail();
    await invite({ email });
    const token = await deliveredToken(context, email, '/accept-invitation');
    offsetMs = 7 * 24 * 3_600_000 + 1_000;
    expect(codeOf(await send(context.app, 'GET', `/api/v1/auth/invitations/${token}`))).toBe('TOKEN_INVALID');
  });

  it('replaces an earlier invitation to the same email', async () => {
    const email = inviteeEmail();
    await invite({ email });
    const first = await deliveredToken(context, email, '/accept-invitation');
    offsetMs = 1_000;
    await invite({ email, roleKeys: ['staff'] });
    const second = await deliveredToken(context, email, '/accept-invitation');
    expect(codeOf(await send(context.app, 'GET', `/api/v1/auth/invitations/${first}`))).toBe('TOKEN_INVALID');
    expect((await send(context.app, 'GET', `/api/v1/auth/invitations/${second}`)).statusCode).toBe(200);
  });

  it('refuses an email that already has an account (409) and unknown roles (400)', async () => {
    const existing = await createUser(context.app);
    const taken = await invite({ email: existing.email });
    expect(taken.statusCode).toBe(409);
    expect(codeOf(taken)).toBe('CONFLICT');
    const unknownRole = await invite({ email: inviteeEmail(), roleKeys: ['wizard'] });
    expect(unknownRole.statusCode).toBe(400);
    expect(unknownRole.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { issues: [{ path: 'roleKeys' }] } },
    });
  });

  it('answers 400 TOKEN_INVALID for a made-up invitation token', async () => {
    expect(codeOf(await send(context.app, 'GET', `/api/v1/auth/invitations/${'z'.repeat(43)}`))).toBe(
      'TOKEN_INVALID',
    );
  });
});

describe('POST /users/:id/unlock', () => {
  it('lifts a lockout before it runs out', async () => {
    const user = await createUser(context.app);
    for (let round = 0; round < 5; round += 1) {
      await send(context.app, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'Wrong-Password-1' },
      });
    }
    const locked = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(codeOf(locked)).toBe('ACCOUNT_LOCKED');
    const unlock = await send(context.app, 'POST', `/api/v1/users/${user.id}/unlock`, {
      session: admin.token,
    });
    expect(unlock.statusCode).toBe(204);
    const after = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(after.statusCode).toBe(200);
    expect((await auditEventsOf(context.app, 'user.unlocked')).at(-1)).toMatchObject({
      targetId: user.id,
      actorUserId: admin.me.user.id,
    });
  });

  it('answers 404 for an unknown user', async () => {
    const response = await send(
      context.app,
      'POST',
      '/api/v1/users/00000000-0000-4000-8000-000000000000/unlock',
      {
        session: admin.token,
      },
    );
    expect(response.statusCode).toBe(404);
    expect(
      (await send(context.app, 'POST', '/api/v1/users/nonsense/unlock', { session: admin.token })).statusCode,
    ).toBe(404);
  });
});

describe('PUT /users/:id/roles', () => {
  it("replaces a user's roles and ends their sessions (privilege change), recording before and after", async () => {
    const user = await createUser(context.app, { roles: ['patient'] });
    const client = await signIn(context.app, user);
    const response = await send(context.app, 'PUT', `/api/v1/users/${user.id}/roles`, {
      session: admin.token,
      body: { roleKeys: ['staff', 'doctor'] },
    });
    expect(response.statusCode).toBe(204);
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: client.token }))).toBe(
      'SESSION_EXPIRED',
    );
    const again = await signIn(context.app, user);
    expect(again.me.roles.map((role) => role.key)).toEqual(['doctor', 'staff']);
    expect((await auditEventsOf(context.app, 'user.roles_changed')).at(-1)).toMatchObject({
      targetId: user.id,
      details: { before: ['patient'], after: ['doctor', 'staff'] },
    });
  });

  it('gives admins who change their own roles a new session; the old token dies', async () => {
    const self = await createUser(context.app, { roles: ['admin'] });
    const client = await signIn(context.app, self);
    const response = await send(context.app, 'PUT', `/api/v1/users/${self.id}/roles`, {
      session: client.token,
      body: { roleKeys: ['admin', 'doctor'] },
    });
    expect(response.statusCode).toBe(204);
    const replacement = sessionTokenFrom(response);
    expect(replacement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codeOf(await send(context.app, 'GET', '/api/v1/me', { session: client.token }))).toBe(
      'SESSION_EXPIRED',
    );
    const me = meResponseSchema.parse(
      (await send(context.app, 'GET', '/api/v1/me', { session: replacement })).json(),
    );
    expect(me.roles.map((role) => role.key)).toEqual(['admin', 'doctor']);
  });

  it('refuses to remove the last active administrator (409 LAST_ADMIN)', async () => {
    // A user manager who is not an administrator (so may only give roles within their own
    // permissions), and exactly one active admin.
    const created = await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: {
        key: 'gestor-usuarios',
        name: { es: 'Gestor de usuarios', en: 'User manager' },
        permissions: ['users.manage'],
      },
    });
    expect(created.statusCode).toBe(201);
    const manager = await createUser(context.app, { roles: ['gestor-usuarios'] });
    const only = await createUser(context.app, { roles: ['admin'] });
    await context.db.update(users).set({ status: 'disabled' });
    await context.db
      .update(users)
      .set({ status: 'active' })
      .where(inArray(users.id, [only.id, manager.id]));
    const client = await signIn(context.app, manager);
    const response = await send(context.app, 'PUT', `/api/v1/users/${only.id}/roles`, {
      session: client.token,
      body: { roleKeys: ['gestor-usuarios'] },
    });
    expect(response.statusCode).toBe(409);
    expect(codeOf(response)).toBe('LAST_ADMIN');
    const onlyClient = await signIn(context.app, only);
    expect((await send(context.app, 'GET', '/api/v1/me', { session: onlyClient.token })).statusCode).toBe(
      200,
    );

    const second = await createUser(context.app, { roles: ['admin'] });
    const demoted = await send(context.app, 'PUT', `/api/v1/users/${only.id}/roles`, {
      session: client.token,
      body: { roleKeys: ['gestor-usuarios'] },
    });
    expect(demoted.statusCode).toBe(204);
    await context.db.update(users).set({ status: 'active' });
    expect(second.roleKeys).toEqual(['admin']);
  });

  it('refuses admins removing their own admin role (409 CANNOT_CHANGE_SELF), even with other admins', async () => {
    const self = await createUser(context.app, { roles: ['admin'] });
    const client = await signIn(context.app, self);
    const response = await send(context.app, 'PUT', `/api/v1/users/${self.id}/roles`, {
      session: client.token,
      body: { roleKeys: ['doctor'] },
    });
    expect(response.statusCode).toBe(409);
    expect(codeOf(response)).toBe('CANNOT_CHANGE_SELF');
    expect((await send(context.app, 'GET', '/api/v1/me', { session: client.token })).statusCode).toBe(200);
    // Another administrator may do it.
    expect(
      (
        await send(context.app, 'PUT', `/api/v1/users/${self.id}/roles`, {
          session: admin.token,
          body: { roleKeys: ['doctor'] },
        })
      ).statusCode,
    ).toBe(204);
  });

  it('answers 404 for an unknown user and 400 for an unknown role', async () => {
    const missing = await send(
      context.app,
      'PUT',
      '/api/v1/users/00000000-0000-4000-8000-000000000000/roles',
      {
        session: admin.token,
        body: { roleKeys: ['staff'] },
      },
    );
    expect(missing.statusCode).toBe(404);
    const user = await createUser(context.app);
    const unknown = await send(context.app, 'PUT', `/api/v1/users/${user.id}/roles`, {
      session: admin.token,
      body: { roleKeys: ['superuser'] },
    });
    expect(unknown.statusCode).toBe(400);
  });
});
