import { dashboardResponseSchema, type DashboardResponse } from '@telemedicina/shared/admin';
import { errorResponseSchema } from '@telemedicina/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAppointment,
  createUser,
  send,
  signIn,
  type SignedInClient,
  type TestUser,
} from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { writeSetting } from '../settings/settings.repository.js';
import { invalidateClinicSettingsCache } from '../settings/clinic-settings-cache.js';
import { settingKeys } from '../settings/settings.service.js';

/**
 * The clinic is in Madrid. Summer time ends on Sunday 2026-10-25 at 03:00
 * local (01:00 UTC): that day lasts 25 hours, from 2026-10-24T22:00Z to
 * 2026-10-25T23:00Z, and the dashboard must count it as one local day.
 */
let context: TestContext;
let clock = new Date('2026-10-20T09:00:00.000Z');
let admin: SignedInClient;
let lucia: TestUser;
let javier: TestUser;
let pablo: TestUser;
let maria: TestUser;

const zeroDay = {
  requested: 0,
  confirmed: 0,
  checked_in: 0,
  in_progress: 0,
  completed: 0,
  cancelled: 0,
  no_show: 0,
};

beforeAll(async () => {
  context = await createTestContext({ now: () => clock });
  await writeSetting(context.db, settingKeys.clinicTimeZone, 'Europe/Madrid', { now: clock });
  invalidateClinicSettingsCache(context.db);
  const adminUser = await createUser(context.app, { roles: ['admin'] });
  lucia = await createUser(context.app, { roles: ['doctor'], name: 'Dra. Lucía' });
  javier = await createUser(context.app, { roles: ['doctor'], name: 'Dr. Javier' });
  pablo = await createUser(context.app, { roles: ['patient'], name: 'Pablo' });
  await createUser(context.app, { roles: ['patient'], status: 'disabled' });
  clock = new Date('2026-10-24T22:30:00.000Z'); // 00:30 on the 25th in Madrid, the 24th in UTC
  maria = await createUser(context.app, { roles: ['patient'], name: 'María' });
  clock = new Date('2026-10-25T22:30:00.000Z'); // 23:30 on the 25th in Madrid (winter time)
  await createUser(context.app, { roles: ['patient'] });
  await createUser(context.app, { roles: ['staff'] }); // created in range, not a patient
  clock = new Date('2026-10-27T10:00:00.000Z');
  admin = await signIn(context.app, adminUser);
});

afterAll(async () => {
  await context?.close();
});

async function dashboard(query = '', client: SignedInClient = admin): Promise<DashboardResponse> {
  const response = await send(context.app, 'GET', `/api/v1/dashboard${query}`, { session: client.token });
  expect(response.statusCode, response.body).toBe(200);
  return dashboardResponseSchema.parse(response.json());
}

describe('GET /dashboard with no appointments', () => {
  it('answers zeros and nulls for every day of the range, not an error', async () => {
    const result = await dashboard('?from=2026-10-01&to=2026-10-07');
    expect(result.range).toEqual({ from: '2026-10-01', to: '2026-10-07', timeZone: 'Europe/Madrid' });
    expect(result.appointmentsPerDay).toHaveLength(7);
    expect(result.appointmentsPerDay[0]).toEqual({ date: '2026-10-01', ...zeroDay });
    expect(result.appointmentsPerDay.map((day) => day.date).at(-1)).toBe('2026-10-07');
    expect(
      result.appointmentsPerDay.every((day) => Object.values({ ...day, date: 0 }).every((n) => n === 0)),
    ).toBe(true);
    expect(result.newPatientsPerDay).toEqual(
      ['01', '02', '03', '04', '05', '06', '07'].map((day) => ({ date: `2026-10-${day}`, count: 0 })),
    );
    expect(result.visitsPerDoctor).toEqual([]);
    expect(result.totals).toMatchObject({
      appointments: 0,
      completed: 0,
      noShows: 0,
      cancelled: 0,
      noShowRate: null,
      averageWaitSeconds: null,
      newPatients: 0,
    });
  });

  it('counts active accounts, patients and doctors (a disabled patient is not counted)', async () => {
    const { totals } = await dashboard();
    // admin, 2 doctors, 3 active patients, 1 staff
    expect(totals).toMatchObject({ activeUsers: 7, patients: 3, doctors: 2 });
  });

  it('defaults to the last 30 days ending today in the clinic time zone', async () => {
    clock = new Date('2026-10-27T23:30:00.000Z'); // already the 28th in Madrid
    try {
      const lateAdmin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
      const result = await dashboard('', lateAdmin);
      expect(result.range).toEqual({ from: '2026-09-29', to: '2026-10-28', timeZone: 'Europe/Madrid' });
      expect(result.appointmentsPerDay).toHaveLength(30);
      expect(result.newPatientsPerDay).toHaveLength(30);
    } finally {
      clock = new Date('2026-10-27T10:00:00.000Z');
    }
    const fromOnly = await dashboard('?from=2026-01-01');
    expect(fromOnly.range).toMatchObject({ from: '2026-01-01', to: '2026-01-30' });
    const toOnly = await dashboard('?to=2026-03-31');
    expect(toOnly.range).toMatchObject({ from: '2026-03-02', to: '2026-03-31' });
  });
});

describe('GET /dashboard with appointments', () => {
  beforeAll(async () => {
    const visit = (startsAt: string, waitSeconds: number) => {
      const start = Date.parse(startsAt);
      return {
        status: 'completed' as const,
        checkedInAt: new Date(start - 5 * 60_000),
        admittedAt: new Date(start - 5 * 60_000 + waitSeconds * 1000),
        startedAt: new Date(start - 5 * 60_000 + waitSeconds * 1000 + 30_000),
        endedAt: new Date(start + 25 * 60_000),
      };
    };
    // 23:30 on the 24th in Madrid (summer time, UTC+2).
    await createAppointment(context.app, {
      doctorId: lucia.id,
      patientId: pablo.id,
      startsAt: '2026-10-24T21:30:00.000Z',
      ...visit('2026-10-24T21:30:00.000Z', 120), // admitted on the 24th: outside a range starting on the 25th
    });
    // 00:30 on the 25th in Madrid, still the 24th in UTC.
    await createAppointment(context.app, {
      doctorId: lucia.id,
      patientId: maria.id,
      startsAt: '2026-10-24T22:30:00.000Z',
      ...visit('2026-10-24T22:30:00.000Z', 300),
    });
    // 23:30 on the 25th in Madrid (winter time, UTC+1): it would be the 26th in summer time.
    await createAppointment(context.app, {
      doctorId: lucia.id,
      patientId: pablo.id,
      startsAt: '2026-10-25T22:30:00.000Z',
      ...visit('2026-10-25T22:30:00.000Z', 600),
    });
    await createAppointment(context.app, {
      doctorId: javier.id,
      patientId: maria.id,
      startsAt: '2026-10-25T10:00:00.000Z',
      status: 'no_show',
    });
    await createAppointment(context.app, {
      doctorId: javier.id,
      patientId: pablo.id,
      startsAt: '2026-10-25T11:00:00.000Z',
      status: 'cancelled',
      cancelledAt: '2026-10-20T09:00:00.000Z',
    });
    // 00:30 on the 26th in Madrid.
    await createAppointment(context.app, {
      doctorId: javier.id,
      patientId: pablo.id,
      startsAt: '2026-10-25T23:30:00.000Z',
      status: 'confirmed',
    });
  });

  it('buckets appointments by the clinic local day across the end of summer time', async () => {
    const result = await dashboard('?from=2026-10-24&to=2026-10-26');
    expect(result.appointmentsPerDay).toEqual([
      { date: '2026-10-24', ...zeroDay, completed: 1 },
      { date: '2026-10-25', ...zeroDay, completed: 2, no_show: 1, cancelled: 1 },
      { date: '2026-10-26', ...zeroDay, confirmed: 1 },
    ]);
    expect(result.newPatientsPerDay).toEqual([
      { date: '2026-10-24', count: 0 },
      { date: '2026-10-25', count: 2 },
      { date: '2026-10-26', count: 0 },
    ]);
  });

  it('computes totals, the no-show rate, the average wait and visits per doctor', async () => {
    const result = await dashboard('?from=2026-10-25&to=2026-10-25');
    expect(result.totals).toMatchObject({
      appointments: 4,
      completed: 2,
      noShows: 1,
      cancelled: 1,
      noShowRate: 1 / 3,
      // Admitted on the 25th: waits of 300 s and 600 s (the 120 s visit was admitted on the 24th).
      averageWaitSeconds: 450,
      newPatients: 2,
    });
    // Equal totals: by name.
    expect(result.visitsPerDoctor).toEqual([
      { doctorId: javier.id, name: 'Dr. Javier', completed: 0, noShows: 1, total: 2 },
      { doctorId: lucia.id, name: 'Dra. Lucía', completed: 2, noShows: 0, total: 2 },
    ]);
    const wide = await dashboard('?from=2026-10-01&to=2026-10-31');
    expect(wide.totals).toMatchObject({ appointments: 6, completed: 3, averageWaitSeconds: 340 });
    expect(wide.appointmentsPerDay).toHaveLength(31);
    expect(wide.visitsPerDoctor.map((doctor) => doctor.total)).toEqual([3, 3]);
  });

  it('lists at most 20 doctors, most visits first', async () => {
    const doctors: TestUser[] = [];
    for (let index = 0; index < 22; index += 1) {
      doctors.push(
        await createUser(context.app, {
          roles: ['doctor'],
          name: `Médico ${String(index).padStart(2, '0')}`,
        }),
      );
    }
    for (const [index, doctor] of doctors.entries()) {
      for (let visit = 0; visit <= (index === 21 ? 2 : 0); visit += 1) {
        await createAppointment(context.app, {
          doctorId: doctor.id,
          patientId: pablo.id,
          startsAt: `2026-06-0${visit + 1}T10:00:00.000Z`,
          status: 'completed',
        });
      }
    }
    const result = await dashboard('?from=2026-06-01&to=2026-06-30');
    expect(result.visitsPerDoctor).toHaveLength(20);
    expect(result.visitsPerDoctor[0]).toMatchObject({ name: 'Médico 21', total: 3 });
    expect(result.visitsPerDoctor.slice(1).map((doctor) => doctor.name)).toEqual(
      Array.from({ length: 19 }, (_, index) => `Médico ${String(index).padStart(2, '0')}`),
    );
  });
});

describe('GET /dashboard validation and access', () => {
  it.each([
    ['?from=2026-10-10&to=2026-10-09', 'from', 'validation.dateRange'],
    ['?from=2025-01-01&to=2026-01-02', 'from', 'validation.dateRange'],
    ['?from=2025-01-01', undefined, undefined],
    ['?to=2026-13-01', 'to', 'validation.date'],
    ['?from=yesterday', 'from', 'validation.date'],
  ])('%s', async (query, path, message) => {
    const response = await send(context.app, 'GET', `/api/v1/dashboard${query}`, { session: admin.token });
    if (path === undefined) {
      expect(response.statusCode).toBe(200);
      return;
    }
    expect(response.statusCode).toBe(400);
    expect(errorResponseSchema.parse(response.json()).error).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: { issues: [{ location: 'querystring', path, message }] },
    });
  });

  it('accepts exactly 366 days', async () => {
    const result = await dashboard('?from=2025-10-27&to=2026-10-27');
    expect(result.appointmentsPerDay).toHaveLength(366);
  });

  it('answers 401 without a session and 403 without dashboard.admin', async () => {
    expect((await send(context.app, 'GET', '/api/v1/dashboard')).statusCode).toBe(401);
    for (const role of ['doctor', 'staff', 'patient']) {
      const client = await signIn(context.app, await createUser(context.app, { roles: [role] }));
      expect(
        (await send(context.app, 'GET', '/api/v1/dashboard', { session: client.token })).statusCode,
      ).toBe(403);
    }
  });
});
