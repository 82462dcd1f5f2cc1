import { rolePageSchema, roleSchema, type Role } from '@telemedicina/shared/admin';
import { errorResponseSchema, validationErrorDetailsSchema } from '@telemedicina/shared/api';
import { systemRoles } from '@telemedicina/shared/permission-catalogue';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditEventsOf, createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

let context: TestContext;
let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext();
});

beforeEach(async () => {
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'], language: 'es' }));
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

let sequence = 0;
function nextKey(): string {
  sequence += 1;
  return `rol-${sequence}-${Math.random().toString(36).slice(2, 7)}`;
}

async function createRole(
  body: { key?: string; name?: { es: string; en: string }; permissions?: string[] } = {},
): Promise<Role> {
  const response = await send(context.app, 'POST', '/api/v1/roles', {
    session: admin.token,
    body: {
      key: nextKey(),
      name: { es: 'Coordinación', en: 'Coordination' },
      permissions: ['users.read', 'audit.read'],
      ...body,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return roleSchema.parse(response.json());
}

async function listRoles(query: string, session = admin.token): Promise<Role[]> {
  const response = await send(context.app, 'GET', `/api/v1/roles?${query}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return rolePageSchema.parse(response.json()).data;
}

async function systemRole(key: string): Promise<Role> {
  const [role] = (await listRoles(`q=${key}&pageSize=100`)).filter((entry) => entry.key === key);
  if (role === undefined) {
    throw new Error(`no role ${key}`);
  }
  return role;
}

describe('GET /roles', () => {
  it('lists the system roles with their permissions and how many users hold each', async () => {
    const response = await send(context.app, 'GET', '/api/v1/roles?sort=key&pageSize=100', {
      session: admin.token,
    });
    expect(response.statusCode).toBe(200);
    const page = rolePageSchema.parse(response.json());
    const admins = page.data.find((role) => role.key === 'admin');
    expect(admins).toMatchObject({ system: true, name: { es: 'Administrador', en: 'Administrator' } });
    expect(admins?.permissions).toEqual([...systemRoles.admin.permissions].sort());
    expect(admins?.userCount).toBeGreaterThanOrEqual(1);
    const keys = page.data.map((role) => role.key);
    expect(keys).toEqual([...keys].sort());
    expect(page.total).toBe(page.data.length);

    const before = (await systemRole('doctor')).userCount;
    await createUser(context.app, { roles: ['doctor'] });
    expect((await systemRole('doctor')).userCount).toBe(before + 1);
  });

  it('searches the key and both names, case-insensitive, and pages', async () => {
    const role = await createRole({ name: { es: 'Facturación Única', en: 'Unique Billing' } });
    expect((await listRoles('q=facturación única')).map((entry) => entry.id)).toEqual([role.id]);
    expect((await listRoles('q=UNIQUE BILL')).map((entry) => entry.id)).toEqual([role.id]);
    expect((await listRoles(`q=${role.key}`)).map((entry) => entry.id)).toEqual([role.id]);
    expect(await listRoles('q=%25%25%25')).toEqual([]);
    const response = await send(
      context.app,
      'GET',
      '/api/v1/roles?sort=createdAt&order=desc&page=1&pageSize=1',
      {
        session: admin.token,
      },
    );
    const page = rolePageSchema.parse(response.json());
    expect(page.data.map((entry) => entry.id)).toEqual([role.id]);
    expect(page.total).toBeGreaterThan(4);
  });

  it.each(['sort=permissions', 'order=sideways', 'page=0', 'pageSize=500'])(
    'answers 400 for %s',
    async (query) => {
      const response = await send(context.app, 'GET', `/api/v1/roles?${query}`, { session: admin.token });
      expect(response.statusCode).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_FAILED');
    },
  );

  it('is readable by whoever manages or reads users (staff), not by doctors, patients or anonymous callers', async () => {
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect((await listRoles('', staff.token)).length).toBeGreaterThanOrEqual(4);
    const doctorRole = await systemRole('doctor');
    expect(
      (await send(context.app, 'GET', `/api/v1/roles/${doctorRole.id}`, { session: staff.token })).statusCode,
    ).toBe(200);
    for (const role of ['doctor', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      expect((await send(context.app, 'GET', '/api/v1/roles', { session: client.token })).statusCode).toBe(
        403,
      );
    }
    expect((await send(context.app, 'GET', '/api/v1/roles')).statusCode).toBe(401);
  });
});

describe('GET /roles/:id', () => {
  it('answers one role, 404 for an unknown or malformed id', async () => {
    const role = await createRole();
    const response = await send(context.app, 'GET', `/api/v1/roles/${role.id}`, { session: admin.token });
    expect(roleSchema.parse(response.json())).toEqual(role);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const missing = await send(context.app, 'GET', `/api/v1/roles/${id}`, { session: admin.token });
      expect(missing.statusCode).toBe(404);
      expect(codeOf(missing)).toBe('NOT_FOUND');
    }
  });
});

describe('POST /roles', () => {
  it('creates a custom role with its permissions (sorted, without duplicates) and audits it', async () => {
    const key = nextKey();
    const role = await createRole({ key, permissions: ['outbox.read', 'audit.read', 'outbox.read'] });
    expect(role).toMatchObject({
      key,
      name: { es: 'Coordinación', en: 'Coordination' },
      system: false,
      permissions: ['audit.read', 'outbox.read'],
      userCount: 0,
    });
    expect((await auditEventsOf(context.app, 'role.created')).at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      targetType: 'role',
      targetId: role.id,
      details: { key, permissions: ['audit.read', 'outbox.read'] },
    });
  });

  it('answers 409 ALREADY_EXISTS for a key in use, system keys included', async () => {
    const role = await createRole();
    for (const key of [role.key, 'admin']) {
      const response = await send(context.app, 'POST', '/api/v1/roles', {
        session: admin.token,
        body: { key, name: { es: 'Otro', en: 'Other' }, permissions: [] },
      });
      expect(response.statusCode).toBe(409);
      expect(codeOf(response)).toBe('ALREADY_EXISTS');
    }
  });

  it('answers 400 for a permission outside the catalogue, naming it, and for a malformed key or name', async () => {
    const response = await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: {
        key: nextKey(),
        name: { es: 'Raro', en: 'Odd' },
        permissions: ['users.read', 'users.delete-all'],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_FAILED');
    const { issues } = validationErrorDetailsSchema.parse(
      errorResponseSchema.parse(response.json()).error.details,
    );
    expect(issues).toEqual([
      {
        location: 'body',
        path: 'permissions.1',
        code: 'unknown_permission',
        message: 'validation.unknownPermission',
      },
    ]);
    for (const body of [
      { key: 'Con Espacios', name: { es: 'Rol', en: 'Role' }, permissions: [] },
      { key: nextKey(), name: { es: 'R', en: 'Role' }, permissions: [] },
      { key: nextKey(), name: { es: 'Rol', en: 'Role' }, permissions: [], system: true },
      { key: nextKey(), name: { es: 'Rol' }, permissions: [] },
    ]) {
      const invalid = await send(context.app, 'POST', '/api/v1/roles', { session: admin.token, body });
      expect(invalid.statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('is refused to staff, doctors and patients (403)', async () => {
    for (const role of ['staff', 'doctor', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      const response = await send(context.app, 'POST', '/api/v1/roles', {
        session: client.token,
        body: { key: nextKey(), name: { es: 'Rol', en: 'Role' }, permissions: [] },
      });
      expect(response.statusCode, role).toBe(403);
    }
  });
});

describe('PATCH /roles/:id', () => {
  it('renames a custom role and replaces its grants, auditing what was added and removed', async () => {
    const role = await createRole({ permissions: ['users.read', 'audit.read'] });
    const response = await send(context.app, 'PATCH', `/api/v1/roles/${role.id}`, {
      session: admin.token,
      body: { name: { es: 'Auditoría', en: 'Audit' }, permissions: ['audit.read', 'outbox.read'] },
    });
    expect(response.statusCode).toBe(200);
    expect(roleSchema.parse(response.json())).toMatchObject({
      name: { es: 'Auditoría', en: 'Audit' },
      permissions: ['audit.read', 'outbox.read'],
    });
    expect((await auditEventsOf(context.app, 'role.updated')).at(-1)).toMatchObject({
      targetId: role.id,
      details: {
        key: role.key,
        added: ['outbox.read'],
        removed: ['users.read'],
        name: { before: { es: 'Coordinación', en: 'Coordination' }, after: { es: 'Auditoría', en: 'Audit' } },
      },
    });
  });

  it('keeps system role names and the admin grants (409 SYSTEM_ROLE_LOCKED) but edits the other system grants', async () => {
    const adminRole = await systemRole('admin');
    const doctorRole = await systemRole('doctor');
    const renamed = await send(context.app, 'PATCH', `/api/v1/roles/${doctorRole.id}`, {
      session: admin.token,
      body: { name: { es: 'Doctor', en: 'Physician' } },
    });
    expect(renamed.statusCode).toBe(409);
    expect(codeOf(renamed)).toBe('SYSTEM_ROLE_LOCKED');
    const adminGrants = await send(context.app, 'PATCH', `/api/v1/roles/${adminRole.id}`, {
      session: admin.token,
      body: { permissions: adminRole.permissions.filter((name) => name !== 'users.manage') },
    });
    expect(adminGrants.statusCode).toBe(409);
    expect(codeOf(adminGrants)).toBe('SYSTEM_ROLE_LOCKED');
    // The same names and grants sent back unchanged are accepted (a form sends every field).
    const unchanged = await send(context.app, 'PATCH', `/api/v1/roles/${adminRole.id}`, {
      session: admin.token,
      body: { name: adminRole.name, permissions: adminRole.permissions },
    });
    expect(unchanged.statusCode).toBe(200);
    expect((await systemRole('admin')).permissions).toEqual(adminRole.permissions);

    const staffRole = await systemRole('staff');
    const edited = await send(context.app, 'PATCH', `/api/v1/roles/${staffRole.id}`, {
      session: admin.token,
      body: {
        name: staffRole.name,
        permissions: staffRole.permissions.filter((name) => name !== 'visits.invite'),
      },
    });
    expect(edited.statusCode).toBe(200);
    expect(roleSchema.parse(edited.json()).permissions).not.toContain('visits.invite');
    await send(context.app, 'PATCH', `/api/v1/roles/${staffRole.id}`, {
      session: admin.token,
      body: { permissions: staffRole.permissions },
    });
  });

  it('applies a grant change to signed-in holders at their next request', async () => {
    const role = await createRole({ permissions: ['doctors.read'] });
    const holder = await signIn(context.app, await createUser(context.app, { roles: [role.key] }));
    expect((await send(context.app, 'GET', '/api/v1/outbox', { session: holder.token })).statusCode).toBe(
      403,
    );
    await send(context.app, 'PATCH', `/api/v1/roles/${role.id}`, {
      session: admin.token,
      body: { permissions: ['doctors.read', 'outbox.read'] },
    });
    expect((await send(context.app, 'GET', '/api/v1/outbox', { session: holder.token })).statusCode).toBe(
      200,
    );
    const me = await send(context.app, 'GET', '/api/v1/me', { session: holder.token });
    expect(me.json<{ permissions: string[] }>().permissions).toContain('outbox.read');
    await send(context.app, 'PATCH', `/api/v1/roles/${role.id}`, {
      session: admin.token,
      body: { permissions: ['doctors.read'] },
    });
    expect((await send(context.app, 'GET', '/api/v1/outbox', { session: holder.token })).statusCode).toBe(
      403,
    );
  });

  it('answers 400 for an unknown permission, 404 for an unknown role, 403 for staff', async () => {
    const role = await createRole();
    const unknown = await send(context.app, 'PATCH', `/api/v1/roles/${role.id}`, {
      session: admin.token,
      body: { permissions: ['root'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(JSON.stringify(unknown.json())).toContain('validation.unknownPermission');
    const missing = await send(context.app, 'PATCH', '/api/v1/roles/00000000-0000-4000-8000-000000000000', {
      session: admin.token,
      body: { permissions: [] },
    });
    expect(missing.statusCode).toBe(404);
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    const refused = await send(context.app, 'PATCH', `/api/v1/roles/${role.id}`, {
      session: staff.token,
      body: { permissions: [] },
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await send(context.app, 'GET', `/api/v1/roles/${role.id}`, { session: admin.token })).json(),
    ).toMatchObject({
      permissions: role.permissions,
    });
  });
});

describe('DELETE /roles/:id', () => {
  it('deletes a role nobody holds and audits it', async () => {
    const role = await createRole();
    const response = await send(context.app, 'DELETE', `/api/v1/roles/${role.id}`, { session: admin.token });
    expect(response.statusCode).toBe(204);
    expect(
      (await send(context.app, 'GET', `/api/v1/roles/${role.id}`, { session: admin.token })).statusCode,
    ).toBe(404);
    expect((await auditEventsOf(context.app, 'role.deleted')).at(-1)).toMatchObject({
      targetId: role.id,
      details: { key: role.key },
    });
  });

  it('refuses system roles (409 SYSTEM_ROLE_LOCKED) and roles in use (409 ROLE_IN_USE)', async () => {
    for (const key of Object.keys(systemRoles)) {
      const response = await send(context.app, 'DELETE', `/api/v1/roles/${(await systemRole(key)).id}`, {
        session: admin.token,
      });
      expect(response.statusCode, key).toBe(409);
      expect(codeOf(response)).toBe('SYSTEM_ROLE_LOCKED');
    }
    const role = await createRole();
    const holder = await createUser(context.app, { roles: [role.key] });
    const inUse = await send(context.app, 'DELETE', `/api/v1/roles/${role.id}`, { session: admin.token });
    expect(inUse.statusCode).toBe(409);
    expect(codeOf(inUse)).toBe('ROLE_IN_USE');
    await send(context.app, 'PUT', `/api/v1/users/${holder.id}/roles`, {
      session: admin.token,
      body: { roleKeys: ['patient'] },
    });
    expect(
      (await send(context.app, 'DELETE', `/api/v1/roles/${role.id}`, { session: admin.token })).statusCode,
    ).toBe(204);
  });

  it('answers 404 for an unknown role and 403 for staff', async () => {
    expect(
      (await send(context.app, 'DELETE', '/api/v1/roles/nope', { session: admin.token })).statusCode,
    ).toBe(404);
    const role = await createRole();
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect(
      (await send(context.app, 'DELETE', `/api/v1/roles/${role.id}`, { session: staff.token })).statusCode,
    ).toBe(403);
  });
});
