import {
  doctorDirectoryPageSchema,
  doctorProfileSchema,
  errorResponseSchema,
  validationErrorDetailsSchema,
  type DoctorDirectoryItem,
  type DoctorProfile,
} from '@telemedicina/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { availabilityRules, doctorProfiles, doctorSpecialties, specialties, users } from '../../db/schema.js';
import {
  auditEventsOf,
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { findFreeSlotsOf } from '../availability/availability.service.js';
import type { ServiceContext } from '../context.js';
import { writeSetting } from '../settings/settings.repository.js';
import { loadBookingRules, settingKeys } from '../settings/settings.service.js';
import { findNextFreeSlots } from './doctor-slots.js';
import { listDirectoryDoctors } from './doctors.repository.js';

let context: TestContext;
let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext();
});

beforeEach(async () => {
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

function issuesOf(response: { json: () => unknown }): { path: string; message: string }[] {
  const details = errorResponseSchema.parse(response.json()).error.details;
  return validationErrorDetailsSchema
    .parse(details)
    .issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

let sequence = 0;
/** A word no other test's names contain, so `q` isolates each test's doctors in the shared database. */
function uniqueToken(): string {
  sequence += 1;
  return `dq${sequence}${Math.random().toString(36).slice(2, 7)}`;
}

async function createSpecialty(active = true): Promise<string> {
  const token = uniqueToken();
  const [row] = await context.db.db
    .insert(specialties)
    .values({ nameEs: `Especialidad ${token}`, nameEn: `Specialty ${token}`, active })
    .returning({ id: specialties.id });
  return row!.id;
}

/** A doctor user with a profile row (straight in the tables), optionally with specialties. */
async function createDoctor(
  options: {
    name?: string;
    languages?: string[];
    acceptsNewPatients?: boolean;
    specialtyIds?: string[];
    status?: 'active' | 'pending' | 'disabled';
    roles?: string[];
  } = {},
): Promise<TestUser> {
  const doctor = await createUser(context.app, {
    roles: options.roles ?? ['doctor'],
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.status === undefined ? {} : { status: options.status }),
  });
  await context.db.db.insert(doctorProfiles).values({
    userId: doctor.id,
    licenseNumber: `LIC-${doctor.id.slice(0, 8)}`,
    languages: options.languages ?? ['es'],
    acceptsNewPatients: options.acceptsNewPatients ?? true,
    bioEs: 'Biografía',
    bioEn: 'Biography',
  });
  if (options.specialtyIds !== undefined && options.specialtyIds.length > 0) {
    await context.db.db
      .insert(doctorSpecialties)
      .values(options.specialtyIds.map((specialtyId) => ({ doctorUserId: doctor.id, specialtyId })));
  }
  return doctor;
}

async function directory(query: string, session = admin.token): Promise<DoctorDirectoryItem[]> {
  const response = await send(context.app, 'GET', `/api/v1/doctors?${query}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return doctorDirectoryPageSchema.parse(response.json()).data;
}

function patchDoctor(id: string, body: unknown, session: string) {
  return send(context.app, 'PATCH', `/api/v1/doctors/${id}`, { session, body });
}

describe('GET /doctors (the directory)', () => {
  it('lists only active users holding the doctor role with a profile, searched by name ignoring accents', async () => {
    const token = uniqueToken();
    const listed = await createDoctor({ name: `Dra. Lucía Núñez ${token}` });
    await createUser(context.app, { roles: ['doctor'], name: `Dr. Sin Perfil ${token}` });
    await createDoctor({ name: `Dr. Deshabilitado ${token}`, status: 'disabled' });
    await createDoctor({ name: `Dr. Pendiente ${token}`, status: 'pending' });
    await createDoctor({ name: `Paciente Con Fila ${token}`, roles: ['patient'] });
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));

    const found = await directory(`q=${token}`, patient.token);
    expect(found.map((item) => item.id)).toEqual([listed.id]);
    expect(found[0]).toMatchObject({
      id: listed.id,
      name: `Dra. Lucía Núñez ${token}`,
      photoUrl: null,
      languages: ['es'],
      visitMinutes: 30,
      acceptsNewPatients: true,
      timeZone: 'America/Mexico_City',
      specialties: [],
    });
    expect(found[0]).not.toHaveProperty('licenseNumber');
    for (const q of [`lucia nunez ${token}`, `LUCÍA NÚÑEZ ${token.toUpperCase()}`, `núñez ${token}`]) {
      expect(
        (await directory(`q=${encodeURIComponent(q)}`)).map((item) => item.id),
        q,
      ).toEqual([listed.id]);
    }
    expect(await directory(`q=${token}_`)).toEqual([]);
    expect((await send(context.app, 'GET', `/api/v1/doctors?q=${token}`)).statusCode).toBe(401);
  });

  it('filters by specialty (active ones), language and new patients, and lists active specialties only', async () => {
    const token = uniqueToken();
    const cardiology = await createSpecialty();
    const retired = await createSpecialty(false);
    const first = await createDoctor({
      name: `Bruno Uno ${token}`,
      languages: ['es', 'en'],
      specialtyIds: [cardiology, retired],
    });
    const second = await createDoctor({
      name: `Alba Dos ${token}`,
      languages: ['es', 'fr'],
      acceptsNewPatients: false,
      specialtyIds: [retired],
    });
    const ids = async (query: string) => (await directory(`q=${token}&${query}`)).map((item) => item.id);
    expect(await ids(`specialtyId=${cardiology}`)).toEqual([first.id]);
    expect(await ids(`specialtyId=${retired}`)).toEqual([]);
    expect(await ids('language=fr')).toEqual([second.id]);
    expect(await ids('language=en')).toEqual([first.id]);
    expect(await ids('language=es')).toEqual([second.id, first.id]);
    expect(await ids('acceptsNewPatients=false')).toEqual([second.id]);
    expect(await ids('acceptsNewPatients=true&language=es')).toEqual([first.id]);
    const [item] = await directory(`q=${token}&specialtyId=${cardiology}`);
    expect(item?.specialties.map((specialty) => specialty.id)).toEqual([cardiology]);
  });

  it('sorts by name both ways and pages with the total', async () => {
    const token = uniqueToken();
    const names = ['Ana', 'Beatriz', 'Carlos', 'Diana', 'Elena'].map((name) => `${name} ${token}`);
    const doctors = [];
    for (const name of [...names].reverse()) {
      doctors.push(await createDoctor({ name }));
    }
    const byName = new Map(doctors.map((doctor) => [doctor.name, doctor.id]));
    const response = await send(context.app, 'GET', `/api/v1/doctors?q=${token}&page=2&pageSize=2`, {
      session: admin.token,
    });
    const page = doctorDirectoryPageSchema.parse(response.json());
    expect(page).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(page.data.map((item) => item.name)).toEqual([names[2], names[3]]);
    expect((await directory(`q=${token}&order=desc&pageSize=3`)).map((item) => item.name)).toEqual([
      names[4],
      names[3],
      names[2],
    ]);
    expect(await directory(`q=${token}&page=4&pageSize=2`)).toEqual([]);
    // Without availability nobody has a free slot: next-available order falls back to name order.
    expect((await directory(`q=${token}&sort=nextAvailable`)).map((item) => byName.get(item.name))).toEqual(
      names.map((name) => byName.get(name)),
    );
  });

  it.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['sort=rating', 'sort'],
    ['order=sideways', 'order'],
    ['language=xx', 'language'],
    ['language=ES', 'language'],
    ['specialtyId=cardiology', 'specialtyId'],
    ['acceptsNewPatients=yes', 'acceptsNewPatients'],
  ])('refuses %s with 400 VALIDATION_FAILED on that parameter', async (query, path) => {
    const response = await send(context.app, 'GET', `/api/v1/doctors?${query}`, { session: admin.token });
    expect(response.statusCode, response.body).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_FAILED');
    expect(issuesOf(response).map((issue) => issue.path)).toEqual([path]);
  });
});

describe('next free slots in the directory', () => {
  const dayMs = 24 * 60 * 60 * 1000;

  /** Open all day every day (UTC), from a date on (always when not given). */
  async function openEveryDay(doctorId: string, validFrom: string | null = null): Promise<void> {
    await context.db.db.insert(availabilityRules).values(
      [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        doctorUserId: doctorId,
        weekday,
        startTime: '00:00',
        endTime: '24:00',
        timeZone: 'UTC',
        validFrom,
      })),
    );
  }

  it('reads the slots of a whole page in a fixed number of queries, the same slots as one doctor at a time', async () => {
    const token = uniqueToken();
    const doctors: TestUser[] = [];
    for (const index of [0, 1, 2, 3, 4, 5]) {
      const doctor = await createDoctor({ name: `Lote ${index} ${token}` });
      doctors.push(doctor);
      if (index !== 5) {
        await openEveryDay(doctor.id, new Date(Date.now() + index * dayMs).toISOString().slice(0, 10));
      }
    }
    const patient = await createUser(context.app, { roles: ['patient'] });
    const [firstBefore] = await directory(`q=${encodeURIComponent(`Lote 0 ${token}`)}`);
    await createAppointment(context.app, {
      doctorId: doctors[0]!.id,
      patientId: patient.id,
      startsAt: new Date(firstBefore!.nextSlots[0]!),
    });

    let selects = 0;
    const counting = new Proxy(context.db.db, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === 'select' && typeof value === 'function') {
          return (...args: unknown[]) => {
            selects += 1;
            return (value as (...inner: unknown[]) => unknown).apply(target, args);
          };
        }
        return value;
      },
    });
    const ctx = { db: { ...context.db, db: counting }, now: () => new Date() } as unknown as ServiceContext;
    const { rows } = await listDirectoryDoctors(context.db.db, { q: token }, { order: 'asc', page: null });
    expect(rows).toHaveLength(6);
    const from = new Date();
    const window = { from, until: new Date(from.getTime() + 14 * dayMs), limit: 3 };

    selects = 0;
    const one = await findNextFreeSlots(ctx, rows.slice(0, 1), window);
    const queriesForOne = selects;
    selects = 0;
    const page = await findNextFreeSlots(ctx, rows, window);
    expect(selects, 'queries for six doctors').toBe(queriesForOne);
    expect(queriesForOne).toBeLessThanOrEqual(4);

    // The same slots as the availability module gives each doctor alone.
    const notice = (await loadBookingRules(context.db.db)).minimumNoticeMinutes;
    for (const row of rows) {
      const alone = await findFreeSlotsOf(
        context.db.db,
        { ...row, userId: row.id },
        { from, to: window.until, now: from, limit: 3, minimumNoticeMinutes: notice },
      );
      expect(page.get(row.id), row.name).toEqual(alone.map((slot) => slot.startsAt));
    }
    expect(one.get(rows[0]!.id)).toEqual(page.get(rows[0]!.id));
    expect(page.get(doctors[0]!.id)?.[0]?.getTime()).not.toBe(Date.parse(firstBefore!.nextSlots[0]!));
    expect(page.get(doctors[5]!.id)).toEqual([]);
  });

  it('shows up to 3 free slots in the next 14 days, after the minimum notice and around appointments', async () => {
    const token = uniqueToken();
    const open = await createDoctor({ name: `Abierta ${token}` });
    const later = await createDoctor({ name: `Aaron Tarde ${token}` });
    const closed = await createDoctor({ name: `Cerrado ${token}` });
    const beyond = await createDoctor({ name: `Lejano ${token}` });
    await openEveryDay(open.id);
    await openEveryDay(later.id, new Date(Date.now() + 3 * dayMs).toISOString().slice(0, 10));
    await openEveryDay(beyond.id, new Date(Date.now() + 16 * dayMs).toISOString().slice(0, 10));
    const started = Date.now();
    const items = await directory(`q=${token}`);
    const byId = new Map(items.map((item) => [item.id, item]));
    const slots = byId.get(open.id)!.nextSlots.map((slot) => new Date(slot).getTime());
    expect(slots).toHaveLength(3);
    // Minimum notice (120 minutes by default), 30-minute grid, earliest first.
    expect(slots[0]).toBeGreaterThanOrEqual(started + 119 * 60_000);
    expect(slots[0]).toBeLessThan(started + 151 * 60_000);
    expect(slots.map((slot) => (slot - slots[0]!) / 60_000)).toEqual([0, 30, 60]);
    expect(slots.every((slot) => slot % (30 * 60_000) === 0)).toBe(true);
    const laterSlots = byId.get(later.id)!.nextSlots.map((slot) => new Date(slot).getTime());
    expect(laterSlots).toHaveLength(3);
    expect(laterSlots[0]).toBeGreaterThanOrEqual(started + 2 * dayMs);
    expect(byId.get(closed.id)?.nextSlots).toEqual([]);
    expect(byId.get(beyond.id)?.nextSlots).toEqual([]);

    // A booked visit takes its slot out.
    const patient = await createUser(context.app, { roles: ['patient'] });
    await createAppointment(context.app, {
      doctorId: open.id,
      patientId: patient.id,
      startsAt: new Date(slots[0]!),
    });
    const [afterBooking] = await directory(`q=${encodeURIComponent(`Abierta ${token}`)}`);
    expect(afterBooking?.nextSlots.map((slot) => new Date(slot).getTime())).toEqual([
      slots[1],
      slots[2],
      slots[2]! + 30 * 60_000,
    ]);

    // By next availability: earliest first, doctors with no slot last (in name order); paging after sorting.
    const ids = async (query: string) => (await directory(`q=${token}&${query}`)).map((item) => item.id);
    expect(await ids('sort=name')).toEqual([later.id, open.id, closed.id, beyond.id]);
    expect(await ids('sort=nextAvailable')).toEqual([open.id, later.id, closed.id, beyond.id]);
    expect(await ids('sort=nextAvailable&order=desc')).toEqual([later.id, open.id, closed.id, beyond.id]);
    expect(await ids('sort=nextAvailable&page=2&pageSize=2')).toEqual([closed.id, beyond.id]);
  });
});

describe('GET /doctors/:id', () => {
  it("answers a doctor's profile to anyone signed in, and 404 for everyone else's ids", async () => {
    const specialty = await createSpecialty();
    const doctor = await createDoctor({ languages: ['es', 'de'], specialtyIds: [specialty] });
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const response = await send(context.app, 'GET', `/api/v1/doctors/${doctor.id}`, {
      session: patient.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    const profile: DoctorProfile = doctorProfileSchema.parse(response.json());
    expect(profile).toMatchObject({
      id: doctor.id,
      name: doctor.name,
      licenseNumber: `LIC-${doctor.id.slice(0, 8)}`,
      languages: ['es', 'de'],
      bio: { es: 'Biografía', en: 'Biography' },
      specialties: [{ id: specialty }],
    });

    const patientUser = await createUser(context.app, { roles: ['patient'] });
    const withoutProfile = await createUser(context.app, { roles: ['doctor'] });
    for (const id of [
      patientUser.id,
      withoutProfile.id,
      'not-a-uuid',
      '3f1c7a52-8d4e-4b8a-9a43-0c3f1b2d5e6f',
    ]) {
      const missing = await send(context.app, 'GET', `/api/v1/doctors/${id}`, { session: patient.token });
      expect(missing.statusCode, id).toBe(404);
      expect(codeOf(missing)).toBe('NOT_FOUND');
    }
  });

  it('hides a disabled doctor from patients but not from administrators', async () => {
    const doctor = await createDoctor({ status: 'disabled' });
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(
      (await send(context.app, 'GET', `/api/v1/doctors/${doctor.id}`, { session: patient.token })).statusCode,
    ).toBe(404);
    expect(
      (await send(context.app, 'GET', `/api/v1/doctors/${doctor.id}`, { session: admin.token })).statusCode,
    ).toBe(200);
  });
});

describe('PATCH /doctors/:id', () => {
  it('lets a doctor edit their own profile, normalizing line breaks, and audits the changed fields', async () => {
    const doctorUser = await createDoctor();
    const doctor = await signIn(context.app, doctorUser);
    const response = await patchDoctor(
      doctorUser.id,
      {
        bio: { es: '  Primera línea.\r\nSegunda línea.  ', en: 'First line.\nSecond line.' },
        languages: ['en', 'es', 'pt'],
        visitMinutes: 45,
        acceptsNewPatients: false,
        licenseNumber: `LIC-${doctorUser.id.slice(0, 8)}`,
      },
      doctor.token,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(doctorProfileSchema.parse(response.json())).toMatchObject({
      bio: { es: 'Primera línea.\nSegunda línea.', en: 'First line.\nSecond line.' },
      languages: ['en', 'es', 'pt'],
      visitMinutes: 45,
      acceptsNewPatients: false,
    });
    const events = (await auditEventsOf(context.app, 'doctor.profile_updated')).filter(
      (event) => event.targetId === doctorUser.id,
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorUserId: doctorUser.id, targetType: 'user' });
    expect((events[0]?.details as { fields: string[] }).fields.sort()).toEqual(
      ['acceptsNewPatients', 'bio.en', 'bio.es', 'languages', 'visitMinutes'].sort(),
    );

    // The same values again change nothing and write no event.
    const again = await patchDoctor(
      doctorUser.id,
      { visitMinutes: 45, languages: ['en', 'es', 'pt'] },
      doctor.token,
    );
    expect(again.statusCode).toBe(200);
    expect(
      (await auditEventsOf(context.app, 'doctor.profile_updated')).filter(
        (event) => event.targetId === doctorUser.id,
      ),
    ).toHaveLength(1);
  });

  it('refuses patients, staff and other doctors with 403, and leaves the license to administrators', async () => {
    const target = await createDoctor();
    const before = doctorProfileSchema.parse(
      (await send(context.app, 'GET', `/api/v1/doctors/${target.id}`, { session: admin.token })).json(),
    );
    for (const roles of [['patient'], ['staff'], ['doctor']]) {
      const caller = await signIn(context.app, await createUser(context.app, { roles }));
      const response = await patchDoctor(target.id, { acceptsNewPatients: false }, caller.token);
      expect(response.statusCode, roles.join()).toBe(403);
      expect(codeOf(response)).toBe('FORBIDDEN');
      const specialtiesResponse = await send(context.app, 'PUT', `/api/v1/doctors/${target.id}/specialties`, {
        session: caller.token,
        body: { specialtyIds: [] },
      });
      expect(specialtiesResponse.statusCode, roles.join()).toBe(403);
    }
    const self = await signIn(context.app, target);
    const license = await patchDoctor(target.id, { licenseNumber: 'OTRA-123' }, self.token);
    expect(license.statusCode).toBe(403);
    const after = await send(context.app, 'GET', `/api/v1/doctors/${target.id}`, { session: admin.token });
    expect(doctorProfileSchema.parse(after.json())).toEqual(before);

    const byAdmin = await patchDoctor(target.id, { licenseNumber: 'MX-998877' }, admin.token);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(doctorProfileSchema.parse(byAdmin.json()).licenseNumber).toBe('MX-998877');
    const [event] = (await auditEventsOf(context.app, 'doctor.profile_updated')).filter(
      (row) => row.targetId === target.id,
    );
    expect(event).toMatchObject({ actorUserId: admin.me.user.id, details: { fields: ['licenseNumber'] } });
  });

  it('accepts only visit lengths from the clinic settings', async () => {
    const doctorUser = await createDoctor();
    const doctor = await signIn(context.app, doctorUser);
    const refused = await patchDoctor(doctorUser.id, { visitMinutes: 25 }, doctor.token);
    expect(refused.statusCode).toBe(400);
    expect(issuesOf(refused)).toEqual([{ path: 'visitMinutes', message: 'validation.visitLength' }]);
    expect((await patchDoctor(doctorUser.id, { visitMinutes: 241 }, doctor.token)).statusCode).toBe(400);
    await writeSetting(context.db.db, settingKeys.visitLengths, [25, 50], { now: new Date() });
    try {
      const accepted = await patchDoctor(doctorUser.id, { visitMinutes: 25 }, doctor.token);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await patchDoctor(doctorUser.id, { visitMinutes: 30 }, doctor.token)).statusCode).toBe(400);
      // A length the clinic has since dropped may be sent back unchanged with the rest of the form.
      await writeSetting(context.db.db, settingKeys.visitLengths, [15, 20, 30, 45, 60], { now: new Date() });
      const unchanged = await patchDoctor(
        doctorUser.id,
        { visitMinutes: 25, acceptsNewPatients: false },
        doctor.token,
      );
      expect(unchanged.statusCode, unchanged.body).toBe(200);
    } finally {
      await writeSetting(context.db.db, settingKeys.visitLengths, [15, 20, 30, 45, 60], { now: new Date() });
    }
  });

  it.each([
    [{ bio: { es: 'x'.repeat(4001) } }, 'bio.es', 'validation.bioTooLong'],
    [{ bio: { en: 'con\u0007campana' } }, 'bio.en', 'validation.invalid'],
    [{ languages: ['es', 'xx'] }, 'languages.1', 'validation.languageCode'],
    [{ languages: ['es', 'es'] }, 'languages', 'validation.duplicate'],
    [{ visitMinutes: 30.5 }, 'visitMinutes', 'validation.integer'],
    [{ licenseNumber: '<b>' }, 'licenseNumber', 'validation.licenseNumber'],
    [{ specialtyIds: ['cardio'] }, 'specialtyIds.0', 'validation.invalid'],
    [{ rating: 5 }, '', ''],
  ])('refuses %j with 400', async (body, path, message) => {
    const doctorUser = await createDoctor();
    const response = await patchDoctor(doctorUser.id, body, admin.token);
    expect(response.statusCode, response.body).toBe(400);
    expect(codeOf(response)).toBe('VALIDATION_FAILED');
    if (message !== '') {
      expect(issuesOf(response)).toContainEqual({ path, message });
    }
  });

  it('takes only active specialties, by PATCH or PUT, and audits the change', async () => {
    const doctorUser = await createDoctor();
    const doctor = await signIn(context.app, doctorUser);
    const active = await createSpecialty();
    const other = await createSpecialty();
    const inactive = await createSpecialty(false);
    const refused = await patchDoctor(doctorUser.id, { specialtyIds: [active, inactive] }, doctor.token);
    expect(refused.statusCode).toBe(400);
    expect(issuesOf(refused)).toEqual([
      { path: 'specialtyIds.1', message: 'validation.specialtyUnavailable' },
    ]);
    const unknown = await send(context.app, 'PUT', `/api/v1/doctors/${doctorUser.id}/specialties`, {
      session: doctor.token,
      body: { specialtyIds: ['3f1c7a52-8d4e-4b8a-9a43-0c3f1b2d5e6f'] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(
      await context.db.db
        .select()
        .from(doctorSpecialties)
        .where(eq(doctorSpecialties.doctorUserId, doctorUser.id)),
    ).toEqual([]);

    const patched = await patchDoctor(doctorUser.id, { specialtyIds: [active] }, doctor.token);
    expect(patched.statusCode, patched.body).toBe(200);
    expect(doctorProfileSchema.parse(patched.json()).specialties.map((entry) => entry.id)).toEqual([active]);
    const put = await send(context.app, 'PUT', `/api/v1/doctors/${doctorUser.id}/specialties`, {
      session: admin.token,
      body: { specialtyIds: [other, active] },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(
      doctorProfileSchema
        .parse(put.json())
        .specialties.map((entry) => entry.id)
        .sort(),
    ).toEqual([active, other].sort());
    const events = (await auditEventsOf(context.app, 'doctor.profile_updated')).filter(
      (event) => event.targetId === doctorUser.id,
    );
    expect(events.map((event) => event.details)).toEqual([
      { fields: ['specialtyIds'], specialtyIds: { before: [], after: [active] } },
      { fields: ['specialtyIds'], specialtyIds: { before: [active], after: [active, other].sort() } },
    ]);
  });

  it('creates a missing profile on the first administrator edit, license number required', async () => {
    const doctorUser = await createUser(context.app, { roles: ['doctor'] });
    const doctor = await signIn(context.app, doctorUser);
    const own = await patchDoctor(doctorUser.id, { bio: { es: 'Hola' } }, doctor.token);
    expect(own.statusCode).toBe(404);
    const specialtiesFirst = await send(context.app, 'PUT', `/api/v1/doctors/${doctorUser.id}/specialties`, {
      session: admin.token,
      body: { specialtyIds: [] },
    });
    expect(specialtiesFirst.statusCode).toBe(404);
    const withoutLicense = await patchDoctor(doctorUser.id, { languages: ['es'] }, admin.token);
    expect(withoutLicense.statusCode).toBe(400);
    expect(issuesOf(withoutLicense)).toEqual([{ path: 'licenseNumber', message: 'validation.required' }]);

    const created = await patchDoctor(
      doctorUser.id,
      { licenseNumber: 'CDMX 12/345', languages: ['es', 'en'] },
      admin.token,
    );
    expect(created.statusCode, created.body).toBe(200);
    expect(doctorProfileSchema.parse(created.json())).toMatchObject({
      licenseNumber: 'CDMX 12/345',
      languages: ['es', 'en'],
      visitMinutes: 30,
      acceptsNewPatients: true,
      bio: { es: '', en: '' },
    });
    const [event] = (await auditEventsOf(context.app, 'doctor.profile_updated')).filter(
      (row) => row.targetId === doctorUser.id,
    );
    expect(event?.details).toEqual({ fields: ['licenseNumber', 'languages'], created: true });
    expect((await patchDoctor(doctorUser.id, { bio: { es: 'Hola' } }, doctor.token)).statusCode).toBe(200);

    const notDoctor = await createUser(context.app, { roles: ['staff'] });
    const refused = await patchDoctor(notDoctor.id, { licenseNumber: 'X-1' }, admin.token);
    expect(refused.statusCode).toBe(404);
    const [row] = await context.db.db.select().from(users).where(eq(users.id, notDoctor.id));
    expect(row?.roleKeys).toEqual(['staff']);
  });
});
