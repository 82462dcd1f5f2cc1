import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { appointments } from './appointments.js';
import { files } from './files.js';
import { users } from './identity.js';
import { diagnosisCodes } from './records.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/**
 * The doctor's note of one visit: SOAP sections as sanitized HTML, written beside the
 * call with autosave. `version` grows with every save (optimistic concurrency: a save names the
 * version it was based on). Signing stamps `signed_at` and locks the row for good — a trigger
 * refuses any later change to the content — so what follows is an addendum.
 */
export const visitNotes = pgTable(
  'visit_notes',
  {
    id: uuid().primaryKey().defaultRandom(),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: 'restrict' }),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    doctorUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    subjectiveHtml: text().notNull().default(''),
    objectiveHtml: text().notNull().default(''),
    assessmentHtml: text().notNull().default(''),
    planHtml: text().notNull().default(''),
    version: integer().notNull().default(1),
    status: text().$type<'draft' | 'signed'>().notNull().default('draft'),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
    signedAt: instant(),
    signedByUserId: uuid().references(() => users.id, { onDelete: 'restrict' }),
  },
  (table) => [
    uniqueIndex('visit_notes_appointment_key').on(table.appointmentId),
    index('visit_notes_patient_idx').on(table.patientUserId, table.createdAt),
    check('visit_notes_status_check', sql`${table.status} in ('draft', 'signed')`),
    check(
      'visit_notes_signed_check',
      sql`(${table.status} = 'signed') = (${table.signedAt} is not null and ${table.signedByUserId} is not null)`,
    ),
  ],
);

/** Diagnoses of a note, from the shipped catalogue, in the doctor's order; one may be primary. */
export const visitNoteDiagnoses = pgTable(
  'visit_note_diagnoses',
  {
    noteId: uuid()
      .notNull()
      .references(() => visitNotes.id, { onDelete: 'cascade' }),
    code: text()
      .notNull()
      .references(() => diagnosisCodes.code, { onDelete: 'restrict' }),
    position: integer().notNull(),
    isPrimary: boolean().notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.noteId, table.code] }),
    uniqueIndex('visit_note_diagnoses_position_key').on(table.noteId, table.position),
  ],
);

/** A signed, dated addition to a signed note. Addenda are signed when written and never change. */
export const visitNoteAddenda = pgTable(
  'visit_note_addenda',
  {
    id: uuid().primaryKey().defaultRandom(),
    noteId: uuid()
      .notNull()
      .references(() => visitNotes.id, { onDelete: 'restrict' }),
    authorUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    bodyHtml: text().notNull(),
    signedAt: instant().notNull().defaultNow(),
  },
  (table) => [index('visit_note_addenda_note_idx').on(table.noteId, table.signedAt)],
);

/**
 * Vitals the patient reports for a visit (before or during it); every field optional, each
 * checked against a plausible range. One row per appointment, replaced until the note is signed.
 */
export const visitVitals = pgTable(
  'visit_vitals',
  {
    appointmentId: uuid()
      .primaryKey()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    temperatureC: numeric({ precision: 4, scale: 1, mode: 'number' }),
    heartRateBpm: integer(),
    systolicMmHg: integer(),
    diastolicMmHg: integer(),
    respiratoryRate: integer(),
    oxygenSaturation: integer(),
    weightKg: numeric({ precision: 5, scale: 1, mode: 'number' }),
    heightCm: numeric({ precision: 4, scale: 1, mode: 'number' }),
    glucoseMgDl: integer(),
    reportedAt: instant().notNull().defaultNow(),
  },
  (table) => [index('visit_vitals_patient_idx').on(table.patientUserId, table.reportedAt)],
);

/**
 * Files in a patient's chart: uploaded by the patient or a treating doctor, or generated (visit
 * summaries). The bytes are a `files` row (sniffed type, sha256, generated storage name); `name`
 * is only a sanitized label. Documents are removed by stamping `removed_at`, never deleted.
 */
export const chartDocuments = pgTable(
  'chart_documents',
  {
    id: uuid().primaryKey().defaultRandom(),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fileId: uuid()
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    kind: text().$type<'upload' | 'visit_summary' | 'consent'>().notNull().default('upload'),
    /** Free label chosen by the uploader (lab result, imaging, referral…). */
    category: text().$type<'lab' | 'imaging' | 'referral' | 'report' | 'other'>().notNull().default('other'),
    name: text().notNull(),
    appointmentId: uuid().references(() => appointments.id, { onDelete: 'set null' }),
    uploadedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: instant().notNull().defaultNow(),
    removedAt: instant(),
    removedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('chart_documents_patient_idx').on(table.patientUserId, table.createdAt),
    uniqueIndex('chart_documents_summary_key')
      .on(table.appointmentId)
      .where(sql`${table.kind} = 'visit_summary'`),
    check('chart_documents_kind_check', sql`${table.kind} in ('upload', 'visit_summary', 'consent')`),
    check(
      'chart_documents_category_check',
      sql`${table.category} in ('lab', 'imaging', 'referral', 'report', 'other')`,
    ),
  ],
);
