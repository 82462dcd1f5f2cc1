import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  smallint,
  time,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/** Clinic-wide settings changed at run time (`mfa.requiredRoles`, `session.idleMinutesStaff`…). */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedByUserId: uuid(),
});

export const specialties = pgTable(
  'specialties',
  {
    id: uuid().primaryKey().defaultRandom(),
    nameEs: text().notNull(),
    nameEn: text().notNull(),
    active: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    // Names are unique whatever their case, in each language.
    uniqueIndex('specialties_name_es_key').on(sql`lower(${table.nameEs})`),
    uniqueIndex('specialties_name_en_key').on(sql`lower(${table.nameEn})`),
  ],
);

/**
 * The doctor-specific part of a user: license, languages spoken (ISO 639-1 codes), biography in
 * both languages, visit length, whether new patients are accepted. The photo is the user's.
 */
export const doctorProfiles = pgTable(
  'doctor_profiles',
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    licenseNumber: text().notNull(),
    languages: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    visitMinutes: integer().notNull().default(30),
    bioEs: text().notNull().default(''),
    bioEn: text().notNull().default(''),
    acceptsNewPatients: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('doctor_profiles_languages_idx').using('gin', table.languages),
    check('doctor_profiles_visit_minutes_check', sql`${table.visitMinutes} between 5 and 240`),
  ],
);

/**
 * Weekly availability: on `weekday` (ISO: 1 = Monday … 7 = Sunday) from `startTime` to `endTime`,
 * wall-clock times in `timeZone` (the doctor's zone when the rule was made), optionally limited to
 * the dates `validFrom`..`validUntil` (inclusive, in that zone). Several ranges per day are several
 * rows. Slots are generated from these in the zone, so they stay at 09:00 local across DST changes.
 */
export const availabilityRules = pgTable(
  'availability_rules',
  {
    id: uuid().primaryKey().defaultRandom(),
    doctorUserId: uuid()
      .notNull()
      .references(() => doctorProfiles.userId, { onDelete: 'cascade' }),
    weekday: smallint().notNull(),
    startTime: time().notNull(),
    endTime: time().notNull(),
    timeZone: text().notNull(),
    validFrom: date({ mode: 'string' }),
    validUntil: date({ mode: 'string' }),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('availability_rules_doctor_idx').on(table.doctorUserId, table.weekday),
    check('availability_rules_weekday_check', sql`${table.weekday} between 1 and 7`),
    check('availability_rules_time_order_check', sql`${table.endTime} > ${table.startTime}`),
    check(
      'availability_rules_validity_check',
      sql`${table.validFrom} is null or ${table.validUntil} is null or ${table.validUntil} >= ${table.validFrom}`,
    ),
  ],
);

/** One-off changes to the weekly rules: time off (removes slots) or extra hours (adds slots). */
export const availabilityExceptions = pgTable(
  'availability_exceptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    doctorUserId: uuid()
      .notNull()
      .references(() => doctorProfiles.userId, { onDelete: 'cascade' }),
    kind: text().$type<'time_off' | 'extra'>().notNull(),
    startsAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    endsAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    reason: text(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [
    index('availability_exceptions_doctor_idx').on(table.doctorUserId, table.startsAt),
    check('availability_exceptions_kind_check', sql`${table.kind} in ('time_off', 'extra')`),
    check('availability_exceptions_time_order_check', sql`${table.endsAt} > ${table.startsAt}`),
  ],
);

export const doctorSpecialties = pgTable(
  'doctor_specialties',
  {
    doctorUserId: uuid()
      .notNull()
      .references(() => doctorProfiles.userId, { onDelete: 'cascade' }),
    specialtyId: uuid()
      .notNull()
      .references(() => specialties.id, { onDelete: 'restrict' }),
  },
  (table) => [
    primaryKey({ columns: [table.doctorUserId, table.specialtyId] }),
    index('doctor_specialties_specialty_idx').on(table.specialtyId),
  ],
);
