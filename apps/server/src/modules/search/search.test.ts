import { errorResponseSchema } from '@telemedicina/shared/api';
import { globalSearchResponseSchema, type GlobalSearchResponse } from '@telemedicina/shared/search';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rolePermissions, roles } from '../../db/schema.js';
import {
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

/**
 * Everyone's name holds "Zafiro", so one query could match every record; what
 * each caller gets back is then decided by their permissions alone.
 */
let context: TestContext;
let doctorA: TestUser;
let doctorB: TestUser;
let patientX: TestUser;
let patientY: TestUser;
let patientZ: TestUser;
let staff: TestUser;
const clients = new Map<string, SignedInClient>();

beforeAll(async () => {
  context = await createTestContext();
  const app = context.app;
  const admin = await createUser(app, { roles: ['admin'], name: 'Admin Zafiro' });
  staff = await createUser(app, { roles: ['staff'], name: 'Recepción Zafiro' });
  doctorA = await createUser(app, { roles: ['doctor'], name: 'Dra. Ana Zafiro' });
  doctorB = await createUser(app, { roles: ['doctor'], name: 'Dr. Beto Zafiro' });
  patientX = await createUser(app, {
    roles: ['patient'],
    name: 'Xavier Zafiro',
    email: 'xavier@example.test',
  });
  patientY = await createUser(app, { roles: ['patient'], name: 'Yolanda Zafiro' });
  patientZ = await createUser(app, { roles: ['patient'], name: 'Zoe Zafiro' });
  // A custom role with one permission, and one with none.
  const [auditor] = await context.db
    .insert(roles)
    .values({ key: 'lector', nameEs: 'Lector', nameEn: 'Reader' })
    .returning();
  await context.db.insert(rolePermissions).values({ roleId: auditor!.id, permission: 'users.read' });
  await context.db.insert(roles).values({ key: 'vacio', nameEs: 'Vacío', nameEn: 'Empty' });
  const reader = await createUser(app, { roles: ['lector'], name: 'Lector Zafiro' });
  const nobody = await createUser(app, { roles: ['vacio'], name: 'Nadie Zafiro' });

  await createAppointment(app, {
    doctorId: doctorA.id,
    patientId: patientX.id,
    startsAt: '2026-05-04T09:00:00Z',
  });
  await createAppointment(app, {
    doctorId: doctorA.id,
    patientId: patientX.id,
    startsAt: '2026-05-05T09:00:00Z',
    status: 'completed',
  });
  await createAppointment(app, {
    doctorId: doctorB.id,
    patientId: patientY.id,
    startsAt: '2026-05-04T09:00:00Z',
  });

  for (const [key, user] of Object.entries({
    admin,
    staff,
    doctorA,
    doctorB,
    patientX,
    patientY,
    patientZ,
    reader,
    nobody,
  })) {
    clients.set(key, await signIn(app, user));
  }
});

afterAll(async () => {
  await context?.close();
});

async function search(caller: string, q = 'zafiro'): Promise<GlobalSearchResponse> {
  const response = await send(context.app, 'GET', `/api/v1/search?q=${encodeURIComponent(q)}`, {
    session: clients.get(caller)!.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return globalSearchResponseSchema.parse(response.json());
}

const names = (hits: { name: string }[] | undefined) => hits?.map((hit) => hit.name);
const pairs = (hits: GlobalSearchResponse['appointments']) =>
  hits?.map((hit) => `${hit.doctorName} / ${hit.patientName}`).sort();

describe('GET /search', () => {
  it('gives an admin every group, at most 5 hits each, users with their roles', async () => {
    const result = await search('admin');
    expect(Object.keys(result).sort()).toEqual(['appointments', 'patients', 'users']);
    expect(result.users).toHaveLength(5);
    expect(names(result.users)).toEqual([...names(result.users)!].sort());
    expect(names(result.patients)).toEqual(['Xavier Zafiro', 'Yolanda Zafiro', 'Zoe Zafiro']);
    expect(pairs(result.appointments)).toEqual([
      'Dr. Beto Zafiro / Yolanda Zafiro',
      'Dra. Ana Zafiro / Xavier Zafiro',
      'Dra. Ana Zafiro / Xavier Zafiro',
    ]);
    const admin = await search('admin', 'Admin Zaf');
    expect(admin.users).toEqual([
      {
        id: clients.get('admin')!.me.user.id,
        name: 'Admin Zafiro',
        email: clients.get('admin')!.me.user.email,
        roles: [
          expect.objectContaining({ key: 'admin', name: { es: 'Administrador', en: 'Administrator' } }),
        ],
      },
    ]);
  });

  it('finds by email, case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(names((await search('admin', 'XAVIER@EXAMPLE')).patients)).toEqual(['Xavier Zafiro']);
    expect(await search('admin', '%%')).toEqual({ users: [], patients: [], appointments: [] });
    expect(await search('admin', '__')).toEqual({ users: [], patients: [], appointments: [] });
  });

  it('gives reception users, any patient and any appointment', async () => {
    const result = await search('staff');
    expect(Object.keys(result).sort()).toEqual(['appointments', 'patients', 'users']);
    expect(names(result.patients)).toEqual(['Xavier Zafiro', 'Yolanda Zafiro', 'Zoe Zafiro']);
    expect(result.appointments).toHaveLength(3);
  });

  it('gives a doctor only their own patients and appointments, and no users group', async () => {
    const a = await search('doctorA');
    expect(Object.keys(a).sort()).toEqual(['appointments', 'patients']);
    expect(names(a.patients)).toEqual(['Xavier Zafiro']);
    expect(pairs(a.appointments)).toEqual([
      'Dra. Ana Zafiro / Xavier Zafiro',
      'Dra. Ana Zafiro / Xavier Zafiro',
    ]);
    const b = await search('doctorB', 'Yolanda');
    expect(names(b.patients)).toEqual(['Yolanda Zafiro']);
    expect(await search('doctorB', 'Xavier')).toEqual({ patients: [], appointments: [] });
  });

  it('gives a patient only their own appointments: no users, no patients', async () => {
    const x = await search('patientX');
    expect(Object.keys(x)).toEqual(['appointments']);
    expect(pairs(x.appointments)).toEqual([
      'Dra. Ana Zafiro / Xavier Zafiro',
      'Dra. Ana Zafiro / Xavier Zafiro',
    ]);
    expect(x.appointments?.map((hit) => hit.status).sort()).toEqual(['completed', 'confirmed']);
    expect(await search('patientY', 'Xavier')).toEqual({ appointments: [] });
    expect(await search('patientZ')).toEqual({ appointments: [] });
  });

  it('follows custom roles: users.read alone gives users only; no permission gives nothing', async () => {
    const reader = await search('reader');
    expect(Object.keys(reader)).toEqual(['users']);
    expect(await search('nobody')).toEqual({});
  });

  it('refuses fewer than 2 characters with 400 and anonymous callers with 401', async () => {
    const short = await send(context.app, 'GET', '/api/v1/search?q=%20a%20', {
      session: clients.get('admin')!.token,
    });
    expect(short.statusCode).toBe(400);
    expect(errorResponseSchema.parse(short.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ location: 'querystring', path: 'q', message: 'validation.searchTooShort' }] },
    });
    expect(
      (await send(context.app, 'GET', '/api/v1/search', { session: clients.get('admin')!.token })).statusCode,
    ).toBe(400);
    expect((await send(context.app, 'GET', '/api/v1/search?q=zafiro')).statusCode).toBe(401);
  });
});
