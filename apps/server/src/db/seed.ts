import { systemRoles, type SystemRoleKey } from '@telemedicina/shared';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config/config.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { settingKeys } from '../modules/settings/settings.service.js';
import { writeSetting } from '../modules/settings/settings.repository.js';
import type { Database, DatabaseClient } from './client.js';
import {
  appMeta,
  consents,
  doctorProfiles,
  doctorSpecialties,
  rolePermissions,
  roles,
  specialties,
  userRoles,
  users,
} from './schema.js';

/** The password of every demo account (docs/IDENTITY.md, README). */
export const demoPassword = 'Telemedicina2026!';

export interface DemoAccount {
  email: string;
  name: string;
  role: SystemRoleKey;
}

export const demoAccounts: readonly DemoAccount[] = [
  { email: 'admin@example.com', name: 'Ana Administradora', role: 'admin' },
  { email: 'medico1@example.com', name: 'Dra. Lucía Martínez', role: 'doctor' },
  { email: 'medico2@example.com', name: 'Dr. Javier Gómez', role: 'doctor' },
  { email: 'recepcion@example.com', name: 'Rosa Recepción', role: 'staff' },
  { email: 'paciente1@example.com', name: 'Pablo Paciente', role: 'patient' },
  { email: 'paciente2@example.com', name: 'María Paciente', role: 'patient' },
];

export const demoSpecialties = [
  { nameEs: 'Medicina general', nameEn: 'General medicine' },
  { nameEs: 'Pediatría', nameEn: 'Pediatrics' },
  { nameEs: 'Dermatología', nameEn: 'Dermatology' },
  { nameEs: 'Psiquiatría', nameEn: 'Psychiatry' },
] as const;

const demoDoctors: Record<string, { license: string; specialties: string[]; languages: string[] }> = {
  'medico1@example.com': {
    license: 'MG-104233',
    specialties: ['Medicina general', 'Psiquiatría'],
    languages: ['es', 'en'],
  },
  'medico2@example.com': {
    license: 'PD-208871',
    specialties: ['Pediatría', 'Dermatología'],
    languages: ['es'],
  },
};

const demoSeededKey = 'demo.seededAt';
const systemGrantsKey = 'seed.systemRoleGrants';

/**
 * Data every installation needs, applied at each start (idempotent): the four
 * system roles with their grants. A grant is added once — when the role is
 * created or when a new catalogue version introduces it — and never again,
 * so an administrator who removes a grant from a system role keeps it removed.
 */
export async function seedSystemData(db: Database, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7410195105100107)`);
    const [meta] = await tx.select().from(appMeta).where(eq(appMeta.key, systemGrantsKey));
    const applied = new Set(Array.isArray(meta?.value) ? (meta.value as string[]) : []);
    for (const [key, role] of Object.entries(systemRoles)) {
      await tx
        .insert(roles)
        .values({ key, nameEs: role.es, nameEn: role.en, isSystem: true, createdAt: now })
        .onConflictDoNothing({ target: roles.key });
      const [row] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.key, key));
      if (row === undefined) {
        continue;
      }
      const fresh = role.permissions.filter((permission) => !applied.has(`${key}:${permission}`));
      if (fresh.length > 0) {
        await tx
          .insert(rolePermissions)
          .values(fresh.map((permission) => ({ roleId: row.id, permission })))
          .onConflictDoNothing();
        fresh.forEach((permission) => applied.add(`${key}:${permission}`));
      }
    }
    const value = [...applied].sort();
    await tx
      .insert(appMeta)
      .values({ key: systemGrantsKey, value, updatedAt: now })
      .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: now } });
  });
}

/** True once the demo data was created in this database (even if later edited or deleted). */
export async function hasDemoData(db: Database): Promise<boolean> {
  const [row] = await db.select({ key: appMeta.key }).from(appMeta).where(eq(appMeta.key, demoSeededKey));
  return row !== undefined;
}

/**
 * The demo clinic, created on the first start of an empty database: six
 * accounts (one per role, two doctors with different specialties, two
 * patients), verified, without a second factor, all with {@link demoPassword};
 * four specialties; and `mfa.requiredRoles` empty so the demo signs in with a
 * password alone. Does nothing when users already exist or it ran before.
 * Resolves with whether it created anything.
 */
export async function seedDemoData(
  db: Database,
  config: Pick<Config, 'passwordHashing'>,
  now: Date,
): Promise<boolean> {
  const hasher = createPasswordHasher(config.passwordHashing);
  const hashes = await Promise.all(demoAccounts.map(() => hasher.hash(demoPassword)));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7410195105100108)`);
    const [existing] = await tx.select({ id: users.id }).from(users).limit(1);
    if (existing !== undefined || (await hasDemoData(tx))) {
      return false;
    }
    const specialtyRows = await tx
      .insert(specialties)
      .values(demoSpecialties.map((specialty) => ({ ...specialty, active: true })))
      .onConflictDoNothing()
      .returning();
    const specialtyId = new Map(specialtyRows.map((row) => [row.nameEs, row.id]));
    const roleRows = await tx.select({ id: roles.id, key: roles.key }).from(roles);
    const roleId = new Map(roleRows.map((row) => [row.key, row.id]));

    for (const [index, account] of demoAccounts.entries()) {
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          name: account.name,
          phone: `+52 55 5000 ${String(1000 + index)}`,
          dateOfBirth: account.role === 'patient' ? `198${index}-0${index}-1${index}` : null,
          language: 'es',
          timeZone: 'America/Mexico_City',
          passwordHash: hashes[index] ?? null,
          status: 'active',
          emailVerifiedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      const role = roleId.get(account.role);
      if (user === undefined || role === undefined) {
        throw new Error(`demo seed: could not create ${account.email}`);
      }
      await tx.insert(userRoles).values({ userId: user.id, roleId: role, createdAt: now });
      await tx
        .insert(consents)
        .values({ userId: user.id, kind: 'terms', version: 'demo', acceptedAt: now, ip: null });
      const doctor = demoDoctors[account.email];
      if (doctor !== undefined) {
        await tx.insert(doctorProfiles).values({
          userId: user.id,
          licenseNumber: doctor.license,
          languages: doctor.languages,
          visitMinutes: 30,
          createdAt: now,
          updatedAt: now,
        });
        await tx.insert(doctorSpecialties).values(
          doctor.specialties.flatMap((name) => {
            const id = specialtyId.get(name);
            return id === undefined ? [] : [{ doctorUserId: user.id, specialtyId: id }];
          }),
        );
      }
    }
    await writeSetting(tx, settingKeys.mfaRequiredRoles, [], { now });
    await writeSetting(tx, settingKeys.clinicTimeZone, 'America/Mexico_City', { now });
    await tx.insert(appMeta).values({ key: demoSeededKey, value: now.toISOString(), updatedAt: now });
    return true;
  });
}

/**
 * Brings a migrated database to what the app expects at start: system roles
 * always; the demo clinic when `config.seedDemo` and the database is empty.
 * Resolves with whether the database holds the demo data and any user (for the start banner).
 */
export async function prepareDatabase(
  client: DatabaseClient,
  config: Pick<Config, 'seedDemo' | 'passwordHashing'>,
  now: Date,
): Promise<{ hasDemoData: boolean; hasUsers: boolean }> {
  await seedSystemData(client.db, now);
  if (config.seedDemo) {
    await seedDemoData(client.db, config, now);
  }
  const [anyUser] = await client.db.select({ id: users.id }).from(users).limit(1);
  return { hasDemoData: await hasDemoData(client.db), hasUsers: anyUser !== undefined };
}
