import { adminUserPageSchema, adminUserSchema, type AdminUser } from '@telemedicina/shared/admin';
import { errorResponseSchema } from '@telemedicina/shared/api';
import { eq, inArray, sql } from 'drizzle-orm';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mfaRecoveryCodes, sessions, users } from '../../db/schema.js';
import { auditEventsOf, createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../../test/test-context.js';
import { errorCode, uniqueToken } from './identity-test-support.js';

let context: TestContext;
let offsetMs = 0;
let admin: SignedInClient;
let mainPort: number;

beforeAll(async () => {
  context = await createTestContext({ now: () => new Date(Date.now() + offsetMs) });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  mainPort = typeof address === 'object' && address !== null ? address.port : 0;
});

beforeEach(async () => {
  offsetMs = 0;
  admin = await signIn(
    context.app,
    await createUser(context.app, { roles: ['admin'], name: 'Ana Administradora', language: 'es' }),
  );
});

afterAll(async () => {
  await context?.close();
});

async function listUsers(query: string, session: string = admin.token): Promise<AdminUser[]> {
  const response = await send(context.app, 'GET', `/api/v1/users?${query}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return adminUserPageSchema.parse(response.json()).data;
}

describe('GET /users/:id', () => {
  it('answers one user, and 404 for an unknown or malformed id', async () => {
    const user = await createUser(context.app, { roles: ['patient'] });
    const response = await send(context.app, 'GET', `/api/v1/users/${user.id}`, { session: admin.token });
    expect(response.statusCode).toBe(200);
    expect(adminUserSchema.parse(response.json())).toMatchObject({
      id: user.id,
      lockedUntil: null,
      lastSignInAt: null,
    });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nonsense', "1' or '1'='1"]) {
      const missing = await send(context.app, 'GET', `/api/v1/users/${encodeURIComponent(id)}`, {
        session: admin.token,
      });
      expect(missing.statusCode, id).toBe(404);
      expect(errorCode(missing)).toBe('NOT_FOUND');
    }
  });
});

describe('PATCH /users/:id', () => {
  it('changes the profile and audits the field names only', async () => {
    const user = await createUser(context.app, { roles: ['doctor'], name: 'Nombre Viejo' });
    const response = await send(context.app, 'PATCH', `/api/v1/users/${user.id}`, {
      session: admin.token,
      body: { name: 'Nombre Nuevo', phone: '+52 55 1234 5678', language: 'en', timeZone: 'Europe/Madrid' },
    });
    expect(response.statusCode).toBe(200);
    expect(adminUserSchema.parse(response.json())).toMatchObject({
      id: user.id,
      name: 'Nombre Nuevo',
      phone: '+52 55 1234 5678',
      language: 'en',
      timeZone: 'Europe/Madrid',
    });
    const event = (await auditEventsOf(context.app, 'user.updated')).at(-1);
    expect(event).toMatchObject({ actorUserId: admin.me.user.id, targetType: 'user', targetId: user.id });
    expect((event?.details as { fields: string[] }).fields.sort()).toEqual([
      'language',
      'name',
      'phone',
      'timeZone',
    ]);
    expect(JSON.stringify(event?.details)).not.toContain('1234');

    const before = (await auditEventsOf(context.app, 'user.updated')).length;
    const unchanged = await send(context.app, 'PATCH', `/api/v1/users/${user.id}`, {
      session: admin.token,
      body: { name: 'Nombre Nuevo' },
    });
    expect(unchanged.statusCode).toBe(200);
    expect(await auditEventsOf(context.app, 'user.updated')).toHaveLength(before);
  });

  it('answers 400 for invalid values or fields it does not change here, 404 for an unknown user, 403 for staff', async () => {
    const user = await createUser(context.app);
    for (const body of [
      { name: 'A' },
      { timeZone: 'Mars/Base' },
      { phone: 'abc' },
      { email: 'x@example.test' },
    ]) {
      const response = await send(context.app, 'PATCH', `/api/v1/users/${user.id}`, {
        session: admin.token,
        body,
      });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorCode(response)).toBe('VALIDATION_FAILED');
    }
    const missing = await send(context.app, 'PATCH', '/api/v1/users/00000000-0000-4000-8000-000000000000', {
      session: admin.token,
      body: { name: 'Alguien Más' },
    });
    expect(missing.statusCode).toBe(404);
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    const refused = await send(context.app, 'PATCH', `/api/v1/users/${user.id}`, {
      session: staff.token,
      body: { name: 'Alguien Más' },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('disable and enable', () => {
  it("ends the user's sessions and sockets at once; sign-in answers ACCOUNT_DISABLED; enabling lets them back", async () => {
    const user = await createUser(context.app, { roles: ['doctor'] });
    const first = await signIn(context.app, user);
    const second = await signIn(context.app, user);
    const socket = connect(`http://127.0.0.1:${mainPort}`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { origin: testAppOrigin, cookie: `tm_session=${first.token}` },
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      const disconnected = new Promise<string>((resolve) =>
        socket.once('disconnect', (reason) => resolve(reason)),
      );

      const response = await send(context.app, 'POST', `/api/v1/users/${user.id}/disable`, {
        session: admin.token,
      });
      expect(response.statusCode).toBe(204);
      expect(await disconnected).toBe('io server disconnect');
    } finally {
      socket.disconnect();
    }
    for (const client of [first, second]) {
      const me = await send(context.app, 'GET', '/api/v1/me', { session: client.token });
      expect(me.statusCode).toBe(401);
      expect(errorCode(me)).toBe('SESSION_EXPIRED');
    }
    const open = await context.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(open.map((session) => session.revokedReason)).toEqual(['user_disabled', 'user_disabled']);
    const [shown] = await listUsers(`q=${encodeURIComponent(user.email)}`);
    expect(shown).toMatchObject({ status: 'disabled' });
    expect(shown?.disabledAt).not.toBeNull();
    expect((await auditEventsOf(context.app, 'user.disabled')).at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      targetId: user.id,
      details: { sessionsEnded: 2 },
    });

    const refused = await send(context.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(refused.statusCode).toBe(403);
    expect(errorCode(refused)).toBe('ACCOUNT_DISABLED');

    // Disabling again changes nothing and records nothing.
    const events = (await auditEventsOf(context.app, 'user.disabled')).length;
    expect(
      (await send(context.app, 'POST', `/api/v1/users/${user.id}/disable`, { session: admin.token }))
        .statusCode,
    ).toBe(204);
    expect(await auditEventsOf(context.app, 'user.disabled')).toHaveLength(events);

    expect(
      (await send(context.app, 'POST', `/api/v1/users/${user.id}/enable`, { session: admin.token }))
        .statusCode,
    ).toBe(204);
    const [enabled] = await listUsers(`q=${encodeURIComponent(user.email)}`);
    expect(enabled).toMatchObject({ status: 'active', disabledAt: null });
    expect((await auditEventsOf(context.app, 'user.enabled')).at(-1)).toMatchObject({
      targetId: user.id,
      details: { status: 'active' },
    });
    expect((await signIn(context.app, user)).me.user.status).toBe('active');
  });

  it('enables an account whose email was never verified back to pending', async () => {
    const user = await createUser(context.app, { status: 'pending', isVerified: false });
    await send(context.app, 'POST', `/api/v1/users/${user.id}/disable`, { session: admin.token });
    expect((await listUsers(`q=${encodeURIComponent(user.email)}`))[0]?.status).toBe('disabled');
    await send(context.app, 'POST', `/api/v1/users/${user.id}/enable`, { session: admin.token });
    expect((await listUsers(`q=${encodeURIComponent(user.email)}`))[0]?.status).toBe('pending');
  });

  it('refuses to disable oneself (409 CANNOT_CHANGE_SELF) and the last active administrator (409 LAST_ADMIN)', async () => {
    const self = await send(context.app, 'POST', `/api/v1/users/${admin.me.user.id}/disable`, {
      session: admin.token,
    });
    expect(self.statusCode).toBe(409);
    expect(errorCode(self)).toBe('CANNOT_CHANGE_SELF');

    const created = await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: {
        key: 'gestion-cuentas',
        name: { es: 'Gestión de cuentas', en: 'Accounts' },
        permissions: ['users.manage'],
      },
    });
    expect(created.statusCode).toBe(201);
    const manager = await createUser(context.app, { roles: ['gestion-cuentas'] });
    const only = await createUser(context.app, { roles: ['admin'] });
    const others = (
      await context.db
        .select({ id: users.id, status: users.status })
        .from(users)
        .where(sql`${users.id} not in (${only.id}, ${manager.id})`)
    ).filter((row) => row.status === 'active');
    await context.db
      .update(users)
      .set({ status: 'disabled' })
      .where(
        inArray(
          users.id,
          others.map((row) => row.id),
        ),
      );
    try {
      const client = await signIn(context.app, manager);
      const response = await send(context.app, 'POST', `/api/v1/users/${only.id}/disable`, {
        session: client.token,
      });
      expect(response.statusCode).toBe(409);
      expect(errorCode(response)).toBe('LAST_ADMIN');
      expect((await context.db.select().from(users).where(eq(users.id, only.id)))[0]?.status).toBe('active');
    } finally {
      await context.db
        .update(users)
        .set({ status: 'active' })
        .where(
          inArray(
            users.id,
            others.map((row) => row.id),
          ),
        );
    }
  });

  it('answers 404 for unknown users and 403 for staff and doctors', async () => {
    for (const action of ['disable', 'enable', 'mfa/reset']) {
      const response = await send(context.app, 'POST', `/api/v1/users/nonsense/${action}`, {
        session: admin.token,
      });
      expect(response.statusCode, action).toBe(404);
    }
    const target = await createUser(context.app);
    for (const role of ['staff', 'doctor']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      for (const action of ['disable', 'enable', 'mfa/reset']) {
        const response = await send(context.app, 'POST', `/api/v1/users/${target.id}/${action}`, {
          session: client.token,
        });
        expect(response.statusCode, `${role} ${action}`).toBe(403);
      }
    }
    expect((await context.db.select().from(users).where(eq(users.id, target.id)))[0]?.status).toBe('active');
  });
});

describe('POST /users/:id/mfa/reset', () => {
  it('removes the second factor and recovery codes, ends the sessions, and the user signs in with a password', async () => {
    const user = await createUser(context.app, { roles: ['staff'], hasMfa: true });
    const client = await signIn(context.app, user);
    await context.db
      .insert(mfaRecoveryCodes)
      .values({ userId: user.id, codeHash: 'x'.repeat(64), createdAt: new Date() });
    await context.db.update(users).set({ mfaPendingSecretEncrypted: 'pending' }).where(eq(users.id, user.id));

    const response = await send(context.app, 'POST', `/api/v1/users/${user.id}/mfa/reset`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(204);
    const [row] = await context.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      mfaSecretEncrypted: null,
      mfaPendingSecretEncrypted: null,
      mfaEnabledAt: null,
      mfaLastTimeStep: null,
    });
    expect(
      await context.db.select().from(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, user.id)),
    ).toEqual([]);
    expect(errorCode(await send(context.app, 'GET', '/api/v1/me', { session: client.token }))).toBe(
      'SESSION_EXPIRED',
    );
    expect((await auditEventsOf(context.app, 'user.mfa_reset')).at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      targetId: user.id,
      details: { wasEnabled: true, sessionsEnded: 1 },
    });
    const again = await signIn(context.app, { ...user, totpSecret: null });
    expect(again.me.user.mfaEnabled).toBe(false);
  });

  it('refuses one’s own second factor (409 CANNOT_CHANGE_SELF)', async () => {
    const response = await send(context.app, 'POST', `/api/v1/users/${admin.me.user.id}/mfa/reset`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(409);
    expect(errorCode(response)).toBe('CANNOT_CHANGE_SELF');
  });
});

describe('no privilege escalation', () => {
  /** A user manager who is not an administrator: a custom role with users.read + users.manage. */
  async function signInAsUserManager(): Promise<SignedInClient> {
    const created = await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: {
        key: `manager${uniqueToken()}`,
        name: { es: 'Gestión de usuarios', en: 'User management' },
        permissions: ['users.read', 'users.manage'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ key: string }>().key;
    return signIn(context.app, await createUser(context.app, { roles: [key] }));
  }

  it('refuses to give a role whose permissions the actor lacks (403), to others and to oneself', async () => {
    const manager = await signInAsUserManager();
    const patient = await createUser(context.app, { roles: ['patient'] });
    for (const [target, roleKeys] of [
      [patient.id, ['admin']],
      [manager.me.user.id, ['admin']],
      [patient.id, ['patient', 'doctor']],
    ] as const) {
      const response = await send(context.app, 'PUT', `/api/v1/users/${target}/roles`, {
        session: manager.token,
        body: { roleKeys },
      });
      expect(response.statusCode, response.body).toBe(403);
      expect(errorCode(response)).toBe('FORBIDDEN');
    }
    const [row] = await context.db
      .select({ roleKeys: users.roleKeys })
      .from(users)
      .where(eq(users.id, patient.id));
    expect(row?.roleKeys).toEqual(['patient']);
    // A role whose permissions the manager holds can be given; keeping a role the user has is fine.
    const allowed = await send(context.app, 'PUT', `/api/v1/users/${patient.id}/roles`, {
      session: manager.token,
      body: { roleKeys: ['patient', ...manager.me.roles.map((role) => role.key)] },
    });
    expect(allowed.statusCode, allowed.body).toBe(204);
  });

  it('refuses to invite with such a role; administrators can invite with any role', async () => {
    const manager = await signInAsUserManager();
    const invitation = await send(context.app, 'POST', '/api/v1/invitations', {
      session: manager.token,
      body: {
        email: `${uniqueToken()}@example.com`,
        name: 'Nuevo Médico',
        roleKeys: ['doctor'],
        language: 'es',
      },
    });
    expect(invitation.statusCode, invitation.body).toBe(403);
    expect(errorResponseSchema.parse(invitation.json()).error.details).toMatchObject({
      missing: expect.arrayContaining(['records.write', 'visits.host']) as unknown,
    });
    const byAdmin = await send(context.app, 'POST', '/api/v1/invitations', {
      session: admin.token,
      body: {
        email: `${uniqueToken()}@example.com`,
        name: 'Nuevo Médico',
        roleKeys: ['doctor'],
        language: 'es',
      },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
  });
});
