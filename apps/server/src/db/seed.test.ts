import { systemRoles } from '@telemedicina/shared/permission-catalogue';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadIdentitySettings } from '../modules/settings/settings.service.js';
import { createTestConfig } from '../test/test-context.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { buildApp, type App } from '../app.js';
import { signIn } from '../test/factories.js';
import { demoAccounts, demoPassword, prepareDatabase, seedSystemData } from './seed.js';
import {
  appointments,
  doctorSpecialties,
  rolePermissions,
  roles,
  specialties,
  userRoles,
  users,
} from './schema.js';

let database: TestDatabase;
let app: App;
const config = createTestConfig('/tmp/telemedicina-seed-test', { seedDemo: true });

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ config, database: database.client });
});

afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

describe('system data', () => {
  it('creates the four system roles with the catalogue grants', async () => {
    await seedSystemData(database.db, new Date());
    const rows = await database.db.select().from(roles);
    expect(rows.map((row) => row.key).sort()).toEqual(['admin', 'doctor', 'patient', 'staff']);
    expect(rows.every((row) => row.isSystem)).toBe(true);
    for (const [key, role] of Object.entries(systemRoles)) {
      const grants = await database.db
        .select({ permission: rolePermissions.permission })
        .from(rolePermissions)
        .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
        .where(eq(roles.key, key));
      expect(grants.map((grant) => grant.permission).sort()).toEqual([...role.permissions].sort());
    }
  });

  it('does not bring back a grant an administrator removed', async () => {
    const [patient] = await database.db.select().from(roles).where(eq(roles.key, 'patient'));
    await database.db
      .delete(rolePermissions)
      .where(
        and(eq(rolePermissions.roleId, patient!.id), eq(rolePermissions.permission, 'documents.upload')),
      );
    await seedSystemData(database.db, new Date());
    const grants = await database.db
      .select()
      .from(rolePermissions)
      .where(eq(rolePermissions.roleId, patient!.id));
    expect(grants.map((grant) => grant.permission)).not.toContain('documents.upload');
    await database.db.insert(rolePermissions).values({ roleId: patient!.id, permission: 'documents.upload' });
  });

  it('requires a second factor of admins and doctors by default', async () => {
    expect((await loadIdentitySettings(database.db, config)).mfaRequiredRoles).toEqual(['admin', 'doctor']);
  });
});

describe('demo data', () => {
  it('creates the demo clinic once, on an empty database', async () => {
    expect(await prepareDatabase(database.client, config, new Date())).toEqual({
      hasDemoData: true,
      hasUsers: true,
    });
    expect(await prepareDatabase(database.client, config, new Date())).toEqual({
      hasDemoData: true,
      hasUsers: true,
    });
    const rows = await database.db.select().from(users);
    expect(rows.map((row) => row.email).sort()).toEqual(demoAccounts.map((account) => account.email).sort());
    expect(
      rows.every(
        (row) => row.status === 'active' && row.emailVerifiedAt !== null && row.mfaEnabledAt === null,
      ),
    ).toBe(true);
    expect((await database.db.select().from(specialties)).map((row) => row.nameEn).sort()).toEqual([
      'Dermatology',
      'General medicine',
      'Pediatrics',
      'Psychiatry',
    ]);
    expect((await loadIdentitySettings(database.db, config)).mfaRequiredRoles).toEqual([]);
  });

  it('books about 80 past visits over 45 days and a few upcoming ones, once', async () => {
    const rows = await database.db.select().from(appointments);
    const now = Date.now();
    const past = rows.filter((row) => row.startsAt.getTime() < now);
    const upcoming = rows.filter((row) => row.startsAt.getTime() > now);
    expect(past.length).toBeGreaterThanOrEqual(70);
    expect(past.length).toBeLessThanOrEqual(100);
    expect(past.every((row) => now - row.startsAt.getTime() <= 46 * 24 * 3600 * 1000)).toBe(true);
    expect(upcoming.length).toBeGreaterThanOrEqual(3);
    expect(upcoming.every((row) => row.status === 'confirmed')).toBe(true);
    const count = (status: string) => past.filter((row) => row.status === status).length;
    expect(count('completed')).toBeGreaterThan(past.length / 2);
    expect(count('no_show')).toBeGreaterThan(0);
    expect(count('cancelled')).toBeGreaterThan(0);
    expect(count('completed') + count('no_show') + count('cancelled')).toBe(past.length);
    for (const row of past.filter((candidate) => candidate.status === 'completed')) {
      const times = [row.checkedInAt, row.admittedAt, row.startedAt, row.endedAt].map((at) => at!.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times[3]! - times[0]!).toBeLessThan(60 * 60 * 1000);
    }
    // Between the demo doctors and patients only, never overlapping for one doctor.
    const emails = new Map((await database.db.select().from(users)).map((row) => [row.id, row.email]));
    expect(new Set(rows.map((row) => emails.get(row.doctorUserId)))).toEqual(
      new Set(['medico1@example.com', 'medico2@example.com']),
    );
    expect(new Set(rows.map((row) => emails.get(row.patientUserId)))).toEqual(
      new Set(['paciente1@example.com', 'paciente2@example.com']),
    );
    const byDoctor = Map.groupBy(rows, (row) => row.doctorUserId);
    for (const visits of byDoctor.values()) {
      const sorted = visits.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime());
      sorted.slice(1).forEach((visit, index) => {
        expect(visit.startsAt.getTime()).toBeGreaterThanOrEqual(sorted[index]!.endsAt.getTime());
      });
    }
    await prepareDatabase(database.client, config, new Date());
    expect(await database.db.select().from(appointments)).toHaveLength(rows.length);
  });

  it('gives the two doctors different specialties', async () => {
    const specialtiesOf = async (email: string): Promise<string[]> => {
      const rows = await database.db
        .select({ name: specialties.nameEs })
        .from(doctorSpecialties)
        .innerJoin(users, eq(users.id, doctorSpecialties.doctorUserId))
        .innerJoin(specialties, eq(specialties.id, doctorSpecialties.specialtyId))
        .where(eq(users.email, email));
      return rows.map((row) => row.name).sort();
    };
    const first = await specialtiesOf('medico1@example.com');
    const second = await specialtiesOf('medico2@example.com');
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect(first.filter((name) => second.includes(name))).toEqual([]);
  });

  it('lets every demo account sign in with the demo password, with its role', async () => {
    for (const account of demoAccounts) {
      const client = await signIn(app, { email: account.email, password: demoPassword, totpSecret: null });
      expect(client.me.roles.map((role) => role.key)).toEqual([account.role]);
      expect(client.me.session.mfaEnrollmentRequired).toBe(false);
    }
    const adminRows = await database.db
      .select({ email: users.email })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(roles.key, 'admin'));
    expect(adminRows).toEqual([{ email: 'admin@example.com' }]);
  });

  it('creates nothing when the database already has users', async () => {
    const other = await createTestDatabase();
    try {
      await seedSystemData(other.db, new Date());
      await other.db.insert(users).values({
        email: 'someone@example.test',
        name: 'Someone',
        language: 'es',
        timeZone: 'UTC',
        status: 'active',
      });
      expect(await prepareDatabase(other.client, config, new Date())).toEqual({
        hasDemoData: false,
        hasUsers: true,
      });
      expect(await other.db.select().from(users)).toHaveLength(1);
    } finally {
      await other.dispose();
    }
  });
});
