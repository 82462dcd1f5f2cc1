import { sql } from 'drizzle-orm';
import {
  boolean,
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

/** The doctor-specific part of a user; the doctors issue extends it (bio, photo, fees…). */
export const doctorProfiles = pgTable('doctor_profiles', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  licenseNumber: text().notNull(),
  languages: text()
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  visitMinutes: integer().notNull().default(30),
  createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

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
