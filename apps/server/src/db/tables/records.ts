import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { appointments } from './appointments.js';
import { users } from './identity.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/**
 * The clinical record. A patient's chart is their `users` row (name, date of birth,
 * phone) plus `patient_profiles` (demographics, identity document, emergency contact) and the
 * lists below. Rows of the lists are never deleted: `removed_at` ends them, so the history of
 * what was recorded, by whom and when is kept.
 */
export const patientProfiles = pgTable(
  'patient_profiles',
  {
    userId: uuid()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    sex: text().$type<'female' | 'male' | 'other' | 'unknown'>().notNull().default('unknown'),
    identityDocumentType: text(),
    identityDocumentNumber: text(),
    address: text(),
    bloodType: text(),
    emergencyContactName: text(),
    emergencyContactPhone: text(),
    emergencyContactRelation: text(),
    updatedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
  },
  (table) => [
    check('patient_profiles_sex_check', sql`${table.sex} in ('female', 'male', 'other', 'unknown')`),
  ],
);

export const patientAllergies = pgTable(
  'patient_allergies',
  {
    id: uuid().primaryKey().defaultRandom(),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    substance: text().notNull(),
    reaction: text(),
    severity: text().$type<'mild' | 'moderate' | 'severe' | 'unknown'>().notNull().default('unknown'),
    recordedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    recordedAt: instant().notNull().defaultNow(),
    removedAt: instant(),
    removedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('patient_allergies_patient_idx').on(table.patientUserId, table.recordedAt),
    check(
      'patient_allergies_severity_check',
      sql`${table.severity} in ('mild', 'moderate', 'severe', 'unknown')`,
    ),
  ],
);

export const patientConditions = pgTable(
  'patient_conditions',
  {
    id: uuid().primaryKey().defaultRandom(),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** A code of the diagnosis catalogue, when picked from it. */
    diagnosisCode: text().references(() => diagnosisCodes.code, { onDelete: 'set null' }),
    description: text().notNull(),
    status: text().$type<'active' | 'resolved'>().notNull().default('active'),
    onsetDate: date({ mode: 'string' }),
    recordedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    recordedAt: instant().notNull().defaultNow(),
    removedAt: instant(),
    removedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('patient_conditions_patient_idx').on(table.patientUserId, table.recordedAt),
    check('patient_conditions_status_check', sql`${table.status} in ('active', 'resolved')`),
  ],
);

export const patientMedications = pgTable(
  'patient_medications',
  {
    id: uuid().primaryKey().defaultRandom(),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    dose: text(),
    frequency: text(),
    startedOn: date({ mode: 'string' }),
    stoppedOn: date({ mode: 'string' }),
    recordedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    recordedAt: instant().notNull().defaultNow(),
    removedAt: instant(),
    removedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [index('patient_medications_patient_idx').on(table.patientUserId, table.recordedAt)],
);

/**
 * Emergency access of a doctor to the chart of someone who is not their patient: a stated reason,
 * a short lifetime, audited when granted and on every read made under it.
 */
export const emergencyAccesses = pgTable(
  'emergency_accesses',
  {
    id: uuid().primaryKey().defaultRandom(),
    doctorUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    grantedAt: instant().notNull().defaultNow(),
    expiresAt: instant().notNull(),
  },
  (table) => [
    index('emergency_accesses_doctor_patient_idx').on(
      table.doctorUserId,
      table.patientUserId,
      table.expiresAt,
    ),
  ],
);

/**
 * The diagnosis catalogue shipped with the project (a subset of ICD-10 chapters and common
 * telemedicine diagnoses, in Spanish and English), loaded from a data file at start (upsert).
 */
export const diagnosisCodes = pgTable(
  'diagnosis_codes',
  {
    code: text().primaryKey(),
    /** ICD-10 chapter (roman numeral) or block the code belongs to. */
    chapter: text().notNull(),
    nameEs: text().notNull(),
    nameEn: text().notNull(),
    /** Lower-cased, accent-free names and code, for the search. */
    searchText: text().notNull(),
  },
  (table) => [index('diagnosis_codes_search_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`)],
);

/**
 * Prescriptions: issued by a doctor to a patient (optionally during a visit), with items. The
 * verification code is what the printed PDF carries; the public check page answers only whether
 * it is valid, when it was issued, by which doctor — never anything about the patient.
 */
export const prescriptions = pgTable(
  'prescriptions',
  {
    id: uuid().primaryKey().defaultRandom(),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    doctorUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    appointmentId: uuid().references(() => appointments.id, { onDelete: 'set null' }),
    verificationCode: text().notNull(),
    status: text().$type<'active' | 'cancelled'>().notNull().default('active'),
    notes: text(),
    issuedAt: instant().notNull().defaultNow(),
    cancelledAt: instant(),
    cancellationReason: text(),
  },
  (table) => [
    uniqueIndex('prescriptions_verification_code_key').on(table.verificationCode),
    index('prescriptions_patient_issued_idx').on(table.patientUserId, table.issuedAt),
    index('prescriptions_doctor_issued_idx').on(table.doctorUserId, table.issuedAt),
    check('prescriptions_status_check', sql`${table.status} in ('active', 'cancelled')`),
  ],
);

export const prescriptionItems = pgTable(
  'prescription_items',
  {
    id: uuid().primaryKey().defaultRandom(),
    prescriptionId: uuid()
      .notNull()
      .references(() => prescriptions.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    medication: text().notNull(),
    dose: text().notNull(),
    route: text().notNull(),
    frequency: text().notNull(),
    duration: text().notNull(),
    quantity: text().notNull(),
    instructions: text(),
  },
  (table) => [uniqueIndex('prescription_items_position_key').on(table.prescriptionId, table.position)],
);
