import { systemRoles, type SystemRoleKey } from '@telemedicina/shared/permission-catalogue';
import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config/config.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { loadDiagnosisCatalogue } from '../modules/diagnoses/diagnoses.service.js';
import {
  seedDemoConsentDocuments,
  seedSystemConsentDocuments,
} from '../modules/consents/consent-documents.service.js';
import {
  ensureShippedInstruments,
  seedDemoQuestionnaires,
} from '../modules/questionnaires/questionnaires.service.js';
import { addDays, calendarDateIn } from '../modules/settings/clinic-dates.js';
import { settingKeys } from '../modules/settings/settings.service.js';
import { writeSetting } from '../modules/settings/settings.repository.js';
import { openRegistrationSettingKey } from '../modules/smart/smart-settings.js';
import type { Database, DatabaseClient } from './client.js';
import {
  appMeta,
  appointments,
  availabilityRules,
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

/** Demo doctor profiles: visit lengths are among the default `booking.visitLengths` (15, 20, 30, 45, 60). */
const demoDoctors: Record<
  string,
  {
    license: string;
    specialties: string[];
    languages: string[];
    visitMinutes: number;
    bioEs: string;
    bioEn: string;
  }
> = {
  'medico1@example.com': {
    license: 'MG-104233',
    specialties: ['Medicina general', 'Psiquiatría'],
    languages: ['es', 'en'],
    visitMinutes: 30,
    bioEs:
      'Médica general con 12 años de experiencia en atención primaria y salud mental.\n' +
      'Atiende consultas de seguimiento de enfermedades crónicas, ansiedad y trastornos del sueño.',
    bioEn:
      'General practitioner with 12 years of experience in primary care and mental health.\n' +
      'Sees follow-up visits for chronic conditions, anxiety and sleep disorders.',
  },
  'medico2@example.com': {
    license: 'PD-208871',
    specialties: ['Pediatría', 'Dermatología'],
    languages: ['es', 'fr'],
    visitMinutes: 20,
    bioEs:
      'Pediatra y dermatólogo. Atiende a niños y adolescentes, y problemas de la piel a cualquier edad.\n' +
      'Se formó en Lyon y ofrece consultas en español y en francés.',
    bioEn:
      'Paediatrician and dermatologist. Sees children and teenagers, and skin conditions at any age.\n' +
      'Trained in Lyon; offers visits in Spanish and French.',
  },
};

/**
 * Demo weekly hours (Monday to Friday, wall clock in the demo zone), around
 * the demo appointments (doctor 1 at 9:00, 10:00, 11:00; doctor 2 at 11:00, 16:00).
 */
const demoAvailabilityHours: Record<string, readonly (readonly [string, string])[]> = {
  'medico1@example.com': [
    ['09:00', '13:00'],
    ['15:00', '18:00'],
  ],
  'medico2@example.com': [
    ['10:00', '14:00'],
    ['16:00', '19:00'],
  ],
};

const demoSeededKey = 'demo.seededAt';
const demoTimeZone = 'America/Mexico_City';
const dayMs = 24 * 60 * 60 * 1000;
const minuteMs = 60 * 1000;

/** Days before the first start that the demo accounts "joined" (default 60): paciente2 is a recent patient. */
const demoCreatedDaysAgo: Record<string, number> = { 'paciente2@example.com': 25 };

/** Number of past days the demo appointments cover, and upcoming days with confirmed ones. */
const demoHistoryDays = 45;
const demoUpcomingDays = 7;

type NewAppointment = typeof appointments.$inferInsert;

/**
 * The demo clinic's appointment book, so the dashboard has something to show:
 * about 80 past visits over the last 45 days on weekdays between the two
 * demo doctors and the two demo patients — mostly completed (checked in,
 * admitted, started and ended a few minutes apart), some no-shows, some
 * cancelled — and a few confirmed ones in the coming week. Doctor 1 sees
 * patients at 9:00 and 10:00, doctor 2 at 16:00 (clinic time), 30 minutes
 * each, so no doctor's visits overlap and no patient is in two places.
 * Deterministic (a fixed pseudo-random sequence), relative to `now`.
 */
export function planDemoAppointments(
  now: Date,
  timeZone: string,
  userIds: ReadonlyMap<string, string>,
): NewAppointment[] {
  const doctor1 = userIds.get('medico1@example.com');
  const doctor2 = userIds.get('medico2@example.com');
  const patient1 = userIds.get('paciente1@example.com');
  const patient2 = userIds.get('paciente2@example.com');
  if (doctor1 === undefined || doctor2 === undefined || patient1 === undefined || patient2 === undefined) {
    return [];
  }
  const patient2Since = now.getTime() - (demoCreatedDaysAgo['paciente2@example.com'] ?? 0) * dayMs;
  let seed = 20_260_505;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const between = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const reasons = [
    'Revisión de tratamiento',
    'Dolor de cabeza persistente',
    'Control anual',
    'Consulta de seguimiento',
  ];
  const today = calendarDateIn(now, timeZone);
  const planned: NewAppointment[] = [];
  const book = (doctorUserId: string, date: string, hour: number, minute: number, isPast: boolean): void => {
    const startsAt = zonedInstant(date, hour, minute, timeZone);
    const patientUserId = startsAt.getTime() < patient2Since || random() < 0.5 ? patient1 : patient2;
    const endsAt = new Date(startsAt.getTime() + 30 * minuteMs);
    const createdAt = new Date(
      Math.max(startsAt.getTime() - between(2, 14) * dayMs, patientUserId === patient2 ? patient2Since : 0),
    );
    const base = {
      doctorUserId,
      patientUserId,
      startsAt,
      endsAt,
      reason: reasons[between(0, reasons.length - 1)] ?? null,
      createdByUserId: patientUserId,
      createdAt,
    };
    if (!isPast) {
      planned.push({ ...base, status: 'confirmed', updatedAt: createdAt });
      return;
    }
    const roll = random();
    if (roll < 0.72) {
      const checkedInAt = new Date(startsAt.getTime() - between(2, 10) * minuteMs);
      const admittedAt = new Date(startsAt.getTime() + between(0, 8) * minuteMs);
      const startedAt = new Date(admittedAt.getTime() + minuteMs);
      const endedAt = new Date(startedAt.getTime() + between(15, 28) * minuteMs);
      planned.push({
        ...base,
        status: 'completed',
        checkedInAt,
        admittedAt,
        startedAt,
        endedAt,
        updatedAt: endedAt,
      });
    } else if (roll < 0.86) {
      planned.push({ ...base, status: 'no_show', updatedAt: endsAt });
    } else {
      const cancelledAt = new Date(startsAt.getTime() - between(20, 70) * 60 * minuteMs);
      planned.push({
        ...base,
        createdAt: new Date(Math.min(createdAt.getTime(), cancelledAt.getTime() - dayMs)),
        status: 'cancelled',
        cancelledAt,
        cancellationReason: 'El paciente no puede asistir',
        updatedAt: cancelledAt,
      });
    }
  };
  for (let daysAgo = demoHistoryDays; daysAgo >= 1; daysAgo -= 1) {
    const date = addDays(today, -daysAgo);
    if (isWeekend(date)) {
      continue;
    }
    book(doctor1, date, 9, 0, true);
    if (random() < 0.55) {
      book(doctor1, date, 10, 0, true);
    }
    book(doctor2, date, 16, 0, true);
  }
  for (let daysAhead = 1; daysAhead <= demoUpcomingDays; daysAhead += 1) {
    const date = addDays(today, daysAhead);
    if (!isWeekend(date)) {
      book(daysAhead % 2 === 0 ? doctor2 : doctor1, date, 11, 0, false);
    }
  }
  return planned;
}

function isWeekend(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}

/** The instant a wall-clock time on `date` happens in `timeZone` (two passes settle any offset change). */
function zonedInstant(date: string, hour: number, minute: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`);
  let instant = wall;
  for (let pass = 0; pass < 2; pass += 1) {
    instant = wall - offsetMs(new Date(instant), timeZone);
  }
  return new Date(instant);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`. */
function offsetMs(instant: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}
const systemGrantsKey = 'seed.systemRoleGrants';

/**
 * Data every installation needs, applied at each start (idempotent): the diagnosis catalogue and the four
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
  // Reference data shipped with the project: the diagnosis catalogue (written only when it changed).
  await loadDiagnosisCatalogue(db, now);
  // The telemedicine consent document every patient can sign (version 1, kept as the clinic edits it).
  await seedSystemConsentDocuments(db, now);
  // The scored intake instruments every clinic has (PHQ-9, GAD-7; a new version when their wording changes).
  await ensureShippedInstruments(db, now);
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
 * four specialties; about 80 past and a few upcoming appointments
 * ({@link planDemoAppointments}); and `mfa.requiredRoles` empty so the demo
 * signs in with a password alone. Does nothing when users already exist or it ran before.
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

    const userIds = new Map<string, string>();
    for (const [index, account] of demoAccounts.entries()) {
      const createdAt = new Date(now.getTime() - (demoCreatedDaysAgo[account.email] ?? 60) * dayMs);
      const [user] = await tx
        .insert(users)
        .values({
          email: account.email,
          name: account.name,
          phone: `+52 55 5000 ${String(1000 + index)}`,
          dateOfBirth: account.role === 'patient' ? `198${index}-0${index}-1${index}` : null,
          language: 'es',
          timeZone: demoTimeZone,
          passwordHash: hashes[index] ?? null,
          status: 'active',
          emailVerifiedAt: createdAt,
          createdAt,
          updatedAt: createdAt,
        })
        .returning({ id: users.id });
      const role = roleId.get(account.role);
      if (user === undefined || role === undefined) {
        throw new Error(`demo seed: could not create ${account.email}`);
      }
      userIds.set(account.email, user.id);
      await tx.insert(userRoles).values({ userId: user.id, roleId: role, createdAt });
      await tx
        .insert(consents)
        .values({ userId: user.id, kind: 'terms', version: 'demo', acceptedAt: now, ip: null });
      const doctor = demoDoctors[account.email];
      if (doctor !== undefined) {
        await tx.insert(doctorProfiles).values({
          userId: user.id,
          licenseNumber: doctor.license,
          languages: doctor.languages,
          visitMinutes: doctor.visitMinutes,
          bioEs: doctor.bioEs,
          bioEn: doctor.bioEn,
          createdAt: now,
          updatedAt: now,
        });
        await tx.insert(doctorSpecialties).values(
          doctor.specialties.flatMap((name) => {
            const id = specialtyId.get(name);
            return id === undefined ? [] : [{ doctorUserId: user.id, specialtyId: id }];
          }),
        );
        const hours = demoAvailabilityHours[account.email] ?? [];
        if (hours.length > 0) {
          await tx.insert(availabilityRules).values(
            [1, 2, 3, 4, 5].flatMap((weekday) =>
              hours.map(([startTime, endTime]) => ({
                doctorUserId: user.id,
                weekday,
                startTime,
                endTime,
                timeZone: demoTimeZone,
                createdAt: now,
              })),
            ),
          );
        }
      }
    }
    const demoAppointments = planDemoAppointments(now, demoTimeZone, userIds);
    if (demoAppointments.length > 0) {
      await tx.insert(appointments).values(demoAppointments);
    }
    await seedDemoConsentDocuments(tx, now);
    await seedDemoQuestionnaires(tx, specialtyId.get('Psiquiatría'));
    await writeSetting(tx, settingKeys.mfaRequiredRoles, [], { now });
    await writeSetting(tx, settingKeys.clinicTimeZone, demoTimeZone, { now });
    // Third-party apps may register by themselves for SMART on FHIR sign-in (docs/FHIR.md).
    await writeSetting(tx, openRegistrationSettingKey, true, { now });
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
