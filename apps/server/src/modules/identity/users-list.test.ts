import { adminUserPageSchema, type AdminUser } from '@telemedicina/shared/admin';
import { errorResponseSchema, validationErrorDetailsSchema } from '@telemedicina/shared/api';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loginFailures, roles, userRoles, users } from '../../db/schema.js';
import {
  auditEventsOf,
  createUser,
  send,
  signIn,
  type SignedInClient,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { csvCell as toCsvCell } from '../../lib/csv.js';
import { exportBatchSize } from './users-list.service.js';
import { errorCode, uniqueToken } from './identity-test-support.js';

let context: TestContext;
let offsetMs = 0;
let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({ now: () => new Date(Date.now() + offsetMs) });
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

async function lock(email: string, minutes = 15): Promise<void> {
  const now = new Date();
  await context.db
    .insert(loginFailures)
    .values({
      email,
      failureCount: 5,
      firstFailureAt: now,
      lastFailureAt: now,
      lockedUntil: new Date(now.getTime() + minutes * 60_000),
    })
    .onConflictDoUpdate({
      target: loginFailures.email,
      set: { lockedUntil: new Date(now.getTime() + minutes * 60_000) },
    });
}

describe('GET /users', () => {
  it('answers a page of users with roles, lockout, last sign-in and disabling', async () => {
    const token = uniqueToken();
    const doctor = await createUser(context.app, {
      roles: ['doctor', 'staff'],
      name: `Dra. Carmen ${token}`,
    });
    await signIn(context.app, doctor);
    await lock(doctor.email);
    const response = await send(context.app, 'GET', `/api/v1/users?q=${token}`, { session: admin.token });
    expect(response.statusCode).toBe(200);
    const page = adminUserPageSchema.parse(response.json());
    expect(page).toMatchObject({ page: 1, pageSize: 20, total: 1 });
    const [listed] = page.data;
    expect(listed).toMatchObject({
      id: doctor.id,
      email: doctor.email,
      name: `Dra. Carmen ${token}`,
      status: 'active',
      emailVerified: true,
      mfaEnabled: false,
      disabledAt: null,
    });
    expect(listed?.roles.map((role) => role.key)).toEqual(['doctor', 'staff']);
    expect(listed?.roles[0]?.name).toEqual({ es: 'Médico', en: 'Doctor' });
    expect(Date.parse(listed?.lockedUntil ?? '')).toBeGreaterThan(Date.now());
    expect(Math.abs(Date.parse(listed?.lastSignInAt ?? '') - Date.now())).toBeLessThan(60_000);
    // Nothing secret leaves the server.
    expect(response.body).not.toMatch(/passwordHash|mfaSecret|password_hash/);
  });

  it('searches name or email, case-insensitive, with % and _ taken literally', async () => {
    const token = uniqueToken();
    const byName = await createUser(context.app, { name: `Lucía ${token.toUpperCase()}_Ruiz` });
    const byEmail = await createUser(context.app, {
      email: `${token}.correo@example.test`,
      name: 'Sin Coincidencia',
    });
    const decoy = await createUser(context.app, { name: `Lucía ${token}xRuiz` });
    const ids = (list: AdminUser[]) => list.map((user) => user.id).sort();
    expect(ids(await listUsers(`q=${token}`))).toEqual([byName.id, byEmail.id, decoy.id].sort());
    expect(ids(await listUsers(`q=${encodeURIComponent(`${token}_ruiz`)}`))).toEqual([byName.id]);
    expect(await listUsers(`q=${encodeURIComponent(`${token}%ruiz`)}`)).toEqual([]);
    expect(ids(await listUsers(`q=${token}.CORREO`))).toEqual([byEmail.id]);
  });

  it('filters by role key and by status; locked and active split the active accounts', async () => {
    const token = uniqueToken();
    const activeDoctor = await createUser(context.app, { roles: ['doctor'], name: `Activo ${token}` });
    const lockedDoctor = await createUser(context.app, { roles: ['doctor'], name: `Bloqueado ${token}` });
    const pending = await createUser(context.app, {
      name: `Pendiente ${token}`,
      status: 'pending',
      isVerified: false,
    });
    const disabled = await createUser(context.app, {
      roles: ['staff'],
      name: `Desactivado ${token}`,
      status: 'disabled',
    });
    await lock(lockedDoctor.email);
    // An expired lockout is no lockout.
    await lock(activeDoctor.email, -1);
    const idsOf = async (query: string) => (await listUsers(`q=${token}&${query}`)).map((user) => user.id);
    expect(await idsOf('role=doctor')).toEqual([activeDoctor.id, lockedDoctor.id]);
    expect(await idsOf('role=staff')).toEqual([disabled.id]);
    expect(await idsOf('role=no-such-role')).toEqual([]);
    expect(await idsOf('status=active')).toEqual([activeDoctor.id]);
    expect(await idsOf('status=locked')).toEqual([lockedDoctor.id]);
    expect(await idsOf('status=pending')).toEqual([pending.id]);
    expect(await idsOf('status=disabled')).toEqual([disabled.id]);
    expect(await idsOf('role=doctor&status=locked')).toEqual([lockedDoctor.id]);

    // A role alone is counted from the role's holders, whatever their status.
    const key = `r${token}`.slice(0, 40);
    await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: { key, name: { es: 'Rol de conteo', en: 'Counting role' }, permissions: [] },
    });
    for (const status of ['active', 'pending', 'disabled'] as const) {
      await createUser(context.app, { roles: [key, 'patient'], status });
    }
    const counted = adminUserPageSchema.parse(
      (await send(context.app, 'GET', `/api/v1/users?role=${key}`, { session: admin.token })).json(),
    );
    expect(counted.total).toBe(3);
    expect(counted.data).toHaveLength(3);
  });

  it('sorts by each key in both orders, ties broken by id, and pages through the result', async () => {
    const token = uniqueToken();
    const created: TestUser[] = [];
    for (const [index, name] of ['Beatriz', 'Álvaro', 'Carlos', 'Carlos', 'Daniela'].entries()) {
      offsetMs = index * 60_000;
      created.push(
        await createUser(context.app, {
          name: `${name} ${token}`,
          email: `${String.fromCharCode(122 - index)}.${token}@example.test`,
          status: index === 4 ? 'disabled' : 'active',
        }),
      );
    }
    offsetMs = 0;
    // Two sign-ins at different times; the others never signed in.
    await context.db
      .update(users)
      .set({ lastSignInAt: new Date('2026-01-02T00:00:00Z') })
      .where(eq(users.id, created[2]!.id));
    await context.db
      .update(users)
      .set({ lastSignInAt: new Date('2026-01-01T00:00:00Z') })
      .where(eq(users.id, created[0]!.id));
    const [b, a, c1, c2, d] = created.map((user) => user.id) as [string, string, string, string, string];
    const [cFirst, cSecond] = [c1, c2].sort();
    const order = async (query: string) => (await listUsers(`q=${token}&${query}`)).map((user) => user.id);

    // Byte order of the database's collation puts "Á" after the ASCII letters; ties by id.
    const byName = await order('sort=name');
    expect(byName.indexOf(b)).toBeLessThan(byName.indexOf(cFirst!));
    expect(byName.indexOf(cFirst!)).toBe(byName.indexOf(cSecond!) - 1);
    expect(await order('sort=name&order=desc')).toEqual([...byName].reverse());
    expect(await order('sort=email')).toEqual([d, c2, c1, a, b]);
    expect(await order('sort=email&order=desc')).toEqual([b, a, c1, c2, d]);
    expect(await order('sort=createdAt')).toEqual([b, a, c1, c2, d]);
    expect(await order('sort=createdAt&order=desc')).toEqual([d, c2, c1, a, b]);
    // Never signed in counts as the oldest: first ascending, last descending.
    const [nullFirst, nullSecond, nullThird] = [a, c2, d].sort();
    expect(await order('sort=lastSignInAt')).toEqual([nullFirst, nullSecond, nullThird, b, c1]);
    expect(await order('sort=lastSignInAt&order=desc')).toEqual([c1, b, nullThird, nullSecond, nullFirst]);
    const byStatus = await order('sort=status');
    expect(byStatus).toEqual([...byName.filter((id) => id !== d), d]);

    const response = await send(
      context.app,
      'GET',
      `/api/v1/users?q=${token}&sort=createdAt&page=2&pageSize=2`,
      {
        session: admin.token,
      },
    );
    const page = adminUserPageSchema.parse(response.json());
    expect(page).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(page.data.map((user) => user.id)).toEqual([c1, c2]);
    const beyond = adminUserPageSchema.parse(
      (await send(context.app, 'GET', `/api/v1/users?q=${token}&page=9`, { session: admin.token })).json(),
    );
    expect(beyond).toMatchObject({ data: [], total: 5 });
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['pageSize=101', 'pageSize'],
    ['pageSize=0', 'pageSize'],
    ['sort=password', 'sort'],
    ['order=up', 'order'],
    ['status=x', 'status'],
  ])('answers 400 VALIDATION_FAILED for %s', async (query, field) => {
    for (const path of ['/api/v1/users', '/api/v1/users/export.csv']) {
      const response = await send(context.app, 'GET', `${path}?${query}`, { session: admin.token });
      expect(response.statusCode).toBe(400);
      expect(errorCode(response)).toBe('VALIDATION_FAILED');
      const { issues } = validationErrorDetailsSchema.parse(
        errorResponseSchema.parse(response.json()).error.details,
      );
      expect(issues).toContainEqual(expect.objectContaining({ location: 'querystring', path: field }));
    }
  });

  it('lets staff read users; refuses doctors and patients (403) and anonymous callers (401)', async () => {
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect((await send(context.app, 'GET', '/api/v1/users', { session: staff.token })).statusCode).toBe(200);
    expect(
      (await send(context.app, 'GET', `/api/v1/users/${admin.me.user.id}`, { session: staff.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await send(context.app, 'GET', '/api/v1/users/export.csv', { session: staff.token })).statusCode,
    ).toBe(200);
    for (const role of ['doctor', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      for (const path of ['/api/v1/users', '/api/v1/users/export.csv', `/api/v1/users/${admin.me.user.id}`]) {
        const response = await send(context.app, 'GET', path, { session: client.token });
        expect(response.statusCode, `${role} ${path}`).toBe(403);
        expect(errorCode(response)).toBe('FORBIDDEN');
      }
    }
    const anonymous = await send(context.app, 'GET', '/api/v1/users');
    expect(anonymous.statusCode).toBe(401);
    expect(errorCode(anonymous)).toBe('UNAUTHENTICATED');
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The rows of a CSV body without the BOM (cells split naively: tests use cells without commas). */
function csvLines(body: string): string[] {
  expect(body.charCodeAt(0)).toBe(0xfeff);
  return body
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '');
}

describe('users.role_keys', () => {
  it('follows user_roles through the database trigger, whatever writes them', async () => {
    const keysOf = async (id: string) =>
      (await context.db.select({ keys: users.roleKeys }).from(users).where(eq(users.id, id)))[0]?.keys;
    const first = await createUser(context.app, { roles: ['staff', 'doctor'] });
    const second = await createUser(context.app, { roles: [] });
    expect(await keysOf(first.id)).toEqual(['doctor', 'staff']);
    expect(await keysOf(second.id)).toEqual([]);

    await send(context.app, 'PUT', `/api/v1/users/${first.id}/roles`, {
      session: admin.token,
      body: { roleKeys: ['patient'] },
    });
    expect(await keysOf(first.id)).toEqual(['patient']);

    // Several users in one statement, then removals.
    const [staffRole] = await context.db.select().from(roles).where(eq(roles.key, 'staff'));
    await context.db.insert(userRoles).values([
      { userId: first.id, roleId: staffRole!.id },
      { userId: second.id, roleId: staffRole!.id },
    ]);
    expect(await keysOf(first.id)).toEqual(['patient', 'staff']);
    expect(await keysOf(second.id)).toEqual(['staff']);
    await context.db.delete(userRoles).where(eq(userRoles.roleId, staffRole!.id));
    expect(await keysOf(first.id)).toEqual(['patient']);
    expect(await keysOf(second.id)).toEqual([]);

    // A renamed key follows; deleting a user takes their rows with them without complaint.
    const custom = await send(context.app, 'POST', '/api/v1/roles', {
      session: admin.token,
      body: { key: `k${uniqueToken()}`, name: { es: 'Clave', en: 'Key' }, permissions: [] },
    });
    const customKey = custom.json<{ key: string }>().key;
    await send(context.app, 'PUT', `/api/v1/users/${second.id}/roles`, {
      session: admin.token,
      body: { roleKeys: [customKey] },
    });
    await context.db
      .update(roles)
      .set({ key: `${customKey}-b` })
      .where(eq(roles.key, customKey));
    expect(await keysOf(second.id)).toEqual([`${customKey}-b`]);
    await context.db.delete(users).where(eq(users.id, second.id));
    expect(await keysOf(second.id)).toBeUndefined();
  });
});

describe('GET /users/export.csv', () => {
  it("streams the filtered users as CSV in the requester's language, defusing formulas, and audits the export", async () => {
    const token = uniqueToken();
    const doctor = await createUser(context.app, {
      roles: ['doctor'],
      name: `=HYPERLINK("x") ${token}`,
      hasMfa: true,
    });
    const staff = await createUser(context.app, { roles: ['staff'], name: `Rosa ${token}` });
    await signIn(context.app, doctor);
    await lock(staff.email);
    const response = await send(
      context.app,
      'GET',
      `/api/v1/users/export.csv?q=${token}&sort=name&page=3&pageSize=1`,
      {
        session: admin.token,
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
    expect(response.headers['content-disposition']).toBe(`attachment; filename="users-${today}.csv"`);
    const lines = csvLines(response.body);
    expect(lines[0]).toBe('Nombre,Correo electrónico,Roles,Estado,Creado,Último acceso,MFA');
    // Paging is ignored: both users, in name order ("=" sorts before "R").
    expect(lines).toHaveLength(3);
    expect(lines[1]).toBe(
      `"'=HYPERLINK(""x"") ${token}",${doctor.email},Médico,Activo,${lines[1]!.split(',')[4]},${lines[1]!.split(',')[5]},Sí`,
    );
    expect(lines[1]!.split(',')[4]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(lines[1]!.split(',')[5]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(lines[2]).toMatch(
      new RegExp(`^Rosa ${token},${escapeRegExp(staff.email)},Recepción,Bloqueado,[^,]+,,No$`),
    );

    const events = await auditEventsOf(context.app, 'user.exported');
    expect(events.at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      details: { q: token, sort: 'name', order: 'asc' },
    });

    const english = await signIn(
      context.app,
      await createUser(context.app, { roles: ['admin'], language: 'en' }),
    );
    const inEnglish = await send(context.app, 'GET', `/api/v1/users/export.csv?q=${token}&status=locked`, {
      session: english.token,
    });
    const englishLines = csvLines(inEnglish.body);
    expect(englishLines[0]).toBe('Name,Email,Roles,Status,Created,Last sign-in,MFA');
    expect(englishLines.slice(1)).toEqual([
      expect.stringMatching(new RegExp(`^Rosa ${token},.*,Reception,Locked,.*,No$`)),
    ]);
  });

  it('defuses every formula trigger and quotes what CSV needs', () => {
    expect(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'].map(toCsvCell)).toEqual([
      "'=1+1",
      "'+1",
      "'-1",
      "'@SUM(A1)",
      "'\tx",
      '"\'\rx"',
    ]);
    expect(toCsvCell('Pérez, Ana')).toBe('"Pérez, Ana"');
    expect(toCsvCell('Dice "hola"')).toBe('"Dice ""hola"""');
    expect(toCsvCell('a=b')).toBe('a=b');
  });

  it.each([
    ['name', 'asc'],
    ['createdAt', 'desc'],
    ['lastSignInAt', 'asc'],
    ['lastSignInAt', 'desc'],
    ['status', 'desc'],
  ])('reads every matching user exactly once in keyset batches (sort=%s, order=%s)', async (sort, order) => {
    const token = uniqueToken();
    const total = exportBatchSize * 2 + 37;
    // Set-based: repeated names and sign-in times (ties across batch edges), microsecond creation times, NULLs.
    await context.db.execute(sql`
      insert into users (email, name, language, time_zone, status, email_verified_at, created_at, updated_at, last_sign_in_at)
      select ${token} || '.' || i || '@example.test', 'Lote ' || ${token} || ' ' || (i % 7), 'es', 'UTC',
        case when i % 5 = 0 then 'disabled' else 'active' end, now(),
        now() - make_interval(secs => i * 0.000001), now(),
        case when i % 3 = 0 then null else timestamptz '2026-01-01' + make_interval(mins => i % 11) end
      from generate_series(1, ${total}) as i`);
    const response = await send(
      context.app,
      'GET',
      `/api/v1/users/export.csv?q=${token}&sort=${sort}&order=${order}`,
      {
        session: admin.token,
      },
    );
    expect(response.statusCode).toBe(200);
    const emails = csvLines(response.body)
      .slice(1)
      .map((line) => line.split(',')[1]);
    expect(emails).toHaveLength(total);
    expect(new Set(emails).size).toBe(total);
    // Same order as the list pages.
    const firstPage = await listUsers(
      `q=${token}&sort=${sort}&order=${order}&pageSize=100&page=${exportBatchSize / 100 + 1}`,
    );
    expect(emails.slice(exportBatchSize, exportBatchSize + 100)).toEqual(firstPage.map((user) => user.email));
  });
});
