import {
  doctorDirectoryPageSchema,
  doctorProfileSchema,
  type DoctorProfile,
} from '@telemedicina/shared/doctors';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { doctorSpecialties, users } from '../../db/schema.js';
import { auditEventsOf, createUser, send, signIn } from '../../test/factories.js';
import { writeSetting } from '../settings/settings.repository.js';
import { settingKeys } from '../settings/settings.service.js';
import {
  admin,
  codeOf,
  context,
  createDoctor,
  createSpecialty,
  directory,
  issuesOf,
  patchDoctor,
  uniqueToken,
} from './doctors-test-support.js';

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
    await writeSetting(context.db, settingKeys.visitLengths, [25, 50], { now: new Date() });
    try {
      const accepted = await patchDoctor(doctorUser.id, { visitMinutes: 25 }, doctor.token);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await patchDoctor(doctorUser.id, { visitMinutes: 30 }, doctor.token)).statusCode).toBe(400);
      // A length the clinic has since dropped may be sent back unchanged with the rest of the form.
      await writeSetting(context.db, settingKeys.visitLengths, [15, 20, 30, 45, 60], { now: new Date() });
      const unchanged = await patchDoctor(
        doctorUser.id,
        { visitMinutes: 25, acceptsNewPatients: false },
        doctor.token,
      );
      expect(unchanged.statusCode, unchanged.body).toBe(200);
    } finally {
      await writeSetting(context.db, settingKeys.visitLengths, [15, 20, 30, 45, 60], { now: new Date() });
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
      await context.db
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
    const [row] = await context.db.select().from(users).where(eq(users.id, notDoctor.id));
    expect(row?.roleKeys).toEqual(['staff']);
  });
});
