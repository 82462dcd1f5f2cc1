import { specialtyPageSchema, specialtySchema, type Specialty } from '@telemedicina/shared/admin';
import { errorResponseSchema } from '@telemedicina/shared/api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { doctorProfiles, doctorSpecialties } from '../../db/schema.js';
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
/** Names unique to one test, so each test's rows stand apart in the shared database. */
function names(es: string, en: string): { es: string; en: string } {
  sequence += 1;
  const suffix = `${sequence}${Math.random().toString(36).slice(2, 6)}`;
  return { es: `${es} ${suffix}`, en: `${en} ${suffix}` };
}

async function createSpecialty(name: { es: string; en: string }, active = true): Promise<Specialty> {
  const response = await send(context.app, 'POST', '/api/v1/specialties', {
    session: admin.token,
    body: { name, active },
  });
  expect(response.statusCode, response.body).toBe(201);
  return specialtySchema.parse(response.json());
}

async function listSpecialties(query: string, session = admin.token): Promise<Specialty[]> {
  const response = await send(context.app, 'GET', `/api/v1/specialties?${query}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return specialtyPageSchema.parse(response.json()).data;
}

/** Gives a doctor the specialty, as doctor profiles will. */
async function assignToDoctor(specialtyId: string): Promise<void> {
  const doctor = await createUser(context.app, { roles: ['doctor'] });
  await context.db
    .insert(doctorProfiles)
    .values({ userId: doctor.id, licenseNumber: `LIC-${doctor.id.slice(0, 6)}` });
  await context.db.insert(doctorSpecialties).values({ doctorUserId: doctor.id, specialtyId });
}

describe('GET /specialties', () => {
  it('searches either name ignoring case and accents, and counts the doctors of each', async () => {
    const name = names('Cardiología Pediátrica', 'Pediatric Cardiology');
    const suffix = name.es.split(' ').at(-1)!;
    const specialty = await createSpecialty(name);
    await assignToDoctor(specialty.id);
    await assignToDoctor(specialty.id);
    for (const q of ['cardiologia pediatrica', 'CARDIOLOGÍA', 'pediatric cardio', 'PEDIÁTRICA']) {
      const found = await listSpecialties(`q=${encodeURIComponent(`${q}`)}&pageSize=100`);
      expect(
        found.map((entry) => entry.id),
        q,
      ).toContain(specialty.id);
    }
    const [listed] = await listSpecialties(`q=${suffix}`);
    expect(listed).toMatchObject({ id: specialty.id, name, active: true, doctorCount: 2 });
    expect(await listSpecialties(`q=${suffix}_`)).toEqual([]);
  });

  it('shows inactive specialties only to those who manage them, whatever the filter asks', async () => {
    const suffixed = names('Alergología', 'Allergology');
    const suffix = suffixed.es.split(' ').at(-1)!;
    const active = await createSpecialty(suffixed);
    const inactive = await createSpecialty(
      { es: `Inmunología ${suffix}`, en: `Immunology ${suffix}` },
      false,
    );
    const ids = (list: Specialty[]) => list.map((entry) => entry.id).sort();
    expect(ids(await listSpecialties(`q=${suffix}`))).toEqual([active.id, inactive.id].sort());
    expect(ids(await listSpecialties(`q=${suffix}&active=false`))).toEqual([inactive.id]);
    expect(ids(await listSpecialties(`q=${suffix}&active=true`))).toEqual([active.id]);
    for (const role of ['patient', 'doctor', 'staff']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      expect(ids(await listSpecialties(`q=${suffix}`, client.token)), role).toEqual([active.id]);
      expect(ids(await listSpecialties(`q=${suffix}&active=false`, client.token)), role).toEqual([active.id]);
    }
    expect((await send(context.app, 'GET', '/api/v1/specialties')).statusCode).toBe(401);
  });

  it('sorts by the name in the chosen language, by doctor count and by creation, and pages', async () => {
    const suffix = `orden${Math.random().toString(36).slice(2, 6)}`;
    const first = await createSpecialty({ es: `Zoología ${suffix}`, en: `Animal medicine ${suffix}` });
    const second = await createSpecialty({ es: `Anatomía ${suffix}`, en: `Zoo anatomy ${suffix}` });
    await assignToDoctor(first.id);
    const order = async (query: string) =>
      (await listSpecialties(`q=${suffix}&${query}`)).map((entry) => entry.id);
    expect(await order('sort=name&language=es')).toEqual([second.id, first.id]);
    expect(await order('sort=name&language=en')).toEqual([first.id, second.id]);
    // Without a language, the requester's (Spanish here).
    expect(await order('sort=name')).toEqual([second.id, first.id]);
    expect(await order('sort=doctorCount&order=desc')).toEqual([first.id, second.id]);
    expect(await order('sort=createdAt&order=desc')).toEqual([second.id, first.id]);
    const page = specialtyPageSchema.parse(
      (
        await send(context.app, 'GET', `/api/v1/specialties?q=${suffix}&sort=name&page=2&pageSize=1`, {
          session: admin.token,
        })
      ).json(),
    );
    expect(page).toMatchObject({ page: 2, pageSize: 1, total: 2 });
    expect(page.data.map((entry) => entry.id)).toEqual([first.id]);
  });

  it.each(['sort=name,id', 'active=yes', 'language=fr', 'page=-1', 'pageSize=1000'])(
    'answers 400 for %s',
    async (query) => {
      const response = await send(context.app, 'GET', `/api/v1/specialties?${query}`, {
        session: admin.token,
      });
      expect(response.statusCode).toBe(400);
      expect(codeOf(response)).toBe('VALIDATION_FAILED');
    },
  );
});

describe('POST /specialties', () => {
  it('adds a specialty and audits it', async () => {
    const name = names('Neumología', 'Pulmonology');
    const specialty = await createSpecialty(name, false);
    expect(specialty).toMatchObject({ name, active: false, doctorCount: 0 });
    expect((await auditEventsOf(context.app, 'specialty.created')).at(-1)).toMatchObject({
      actorUserId: admin.me.user.id,
      targetType: 'specialty',
      targetId: specialty.id,
      details: { name, active: false },
    });
  });

  it('answers 409 ALREADY_EXISTS when either name is taken, whatever the case', async () => {
    const name = names('Reumatología', 'Rheumatology');
    await createSpecialty(name);
    for (const [candidate, field] of [
      [{ es: name.es.toUpperCase(), en: 'Algo distinto' }, 'name.es'],
      [{ es: 'Otra cosa', en: name.en.toLowerCase() }, 'name.en'],
    ] as const) {
      const response = await send(context.app, 'POST', '/api/v1/specialties', {
        session: admin.token,
        body: { name: candidate },
      });
      expect(response.statusCode).toBe(409);
      expect(errorResponseSchema.parse(response.json()).error).toMatchObject({
        code: 'ALREADY_EXISTS',
        details: { fields: [field] },
      });
    }
  });

  it('answers 400 for invalid names and 403 to everyone without specialties.manage', async () => {
    for (const body of [
      { name: { es: 'X', en: 'Valid name' } },
      { name: { es: 'Válido' } },
      { name: names('A b', 'C d'), extra: 1 },
    ]) {
      const response = await send(context.app, 'POST', '/api/v1/specialties', { session: admin.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    for (const role of ['staff', 'doctor', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      const response = await send(context.app, 'POST', '/api/v1/specialties', {
        session: client.token,
        body: { name: names('Prohibida', 'Forbidden') },
      });
      expect(response.statusCode, role).toBe(403);
    }
  });
});

describe('PATCH /specialties/:id', () => {
  it('renames and deactivates, auditing the changed fields; refuses a name in use; 404 for unknown ids', async () => {
    const specialty = await createSpecialty(names('Oftalmología', 'Ophthalmology'));
    const other = await createSpecialty(names('Otorrino', 'ENT'));
    const renamed = names('Oftalmología infantil', 'Pediatric ophthalmology');
    const response = await send(context.app, 'PATCH', `/api/v1/specialties/${specialty.id}`, {
      session: admin.token,
      body: { name: renamed, active: false },
    });
    expect(response.statusCode).toBe(200);
    expect(specialtySchema.parse(response.json())).toMatchObject({
      id: specialty.id,
      name: renamed,
      active: false,
    });
    const event = (await auditEventsOf(context.app, 'specialty.updated')).at(-1);
    expect(event).toMatchObject({ targetId: specialty.id, details: { name: { after: renamed } } });
    expect((event?.details as { fields: string[] }).fields.sort()).toEqual(['active', 'nameEn', 'nameEs']);

    // Only the case changes: still its own name.
    const recased = await send(context.app, 'PATCH', `/api/v1/specialties/${specialty.id}`, {
      session: admin.token,
      body: { name: { es: renamed.es.toUpperCase(), en: renamed.en } },
    });
    expect(recased.statusCode).toBe(200);

    const taken = await send(context.app, 'PATCH', `/api/v1/specialties/${specialty.id}`, {
      session: admin.token,
      body: { name: { es: other.name.es, en: 'Nuevo nombre inglés' } },
    });
    expect(taken.statusCode).toBe(409);
    expect(codeOf(taken)).toBe('ALREADY_EXISTS');

    for (const id of ['00000000-0000-4000-8000-000000000000', 'x']) {
      const missing = await send(context.app, 'PATCH', `/api/v1/specialties/${id}`, {
        session: admin.token,
        body: { active: true },
      });
      expect(missing.statusCode).toBe(404);
    }
    const doctor = await signIn(context.app, await createUser(context.app, { roles: ['doctor'] }));
    expect(
      (
        await send(context.app, 'PATCH', `/api/v1/specialties/${specialty.id}`, {
          session: doctor.token,
          body: { active: true },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('DELETE /specialties/:id', () => {
  it('deletes an unused specialty and audits it; 409 SPECIALTY_IN_USE while a doctor has it; 404 for unknown ids', async () => {
    const unused = await createSpecialty(names('Podología', 'Podiatry'));
    expect(
      (await send(context.app, 'DELETE', `/api/v1/specialties/${unused.id}`, { session: admin.token }))
        .statusCode,
    ).toBe(204);
    expect((await auditEventsOf(context.app, 'specialty.deleted')).at(-1)).toMatchObject({
      targetId: unused.id,
      details: { name: unused.name },
    });
    const used = await createSpecialty(names('Nefrología', 'Nephrology'));
    await assignToDoctor(used.id);
    const response = await send(context.app, 'DELETE', `/api/v1/specialties/${used.id}`, {
      session: admin.token,
    });
    expect(response.statusCode).toBe(409);
    expect(codeOf(response)).toBe('SPECIALTY_IN_USE');
    expect(
      (await send(context.app, 'DELETE', `/api/v1/specialties/${unused.id}`, { session: admin.token }))
        .statusCode,
    ).toBe(404);
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect(
      (await send(context.app, 'DELETE', `/api/v1/specialties/${used.id}`, { session: staff.token }))
        .statusCode,
    ).toBe(403);
  });
});
