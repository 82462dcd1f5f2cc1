import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { appointments } from './appointments.js';
import { specialties } from './clinic.js';
import { users } from './identity.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/**
 * Intake questionnaires (issue 25). A questionnaire is a name for its versions; what a patient
 * answers is one published version, a FHIR R4 `Questionnaire` kept as JSON and never changed
 * (a new version for every published change). `system_key` marks the ones every install gets
 * (PHQ-9, GAD-7), `instrument` the scoring that applies, `owner_doctor_user_id` a doctor's own.
 */
export const questionnaires = pgTable(
  'questionnaires',
  {
    id: uuid().primaryKey().defaultRandom(),
    systemKey: text(),
    instrument: text().$type<'phq9' | 'gad7'>(),
    ownerDoctorUserId: uuid().references(() => users.id, { onDelete: 'restrict' }),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
    archivedAt: instant(),
  },
  (table) => [
    uniqueIndex('questionnaires_system_key_key').on(table.systemKey),
    check('questionnaires_instrument_check', sql`${table.instrument} in ('phq9', 'gad7')`),
  ],
);

export const questionnaireVersions = pgTable(
  'questionnaire_versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'restrict' }),
    version: integer().notNull(),
    resource: jsonb().$type<Questionnaire>().notNull(),
    publishedAt: instant().notNull().defaultNow(),
    publishedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('questionnaire_versions_number_key').on(table.questionnaireId, table.version),
    check('questionnaire_versions_version_check', sql`${table.version} > 0`),
  ],
);

/** A questionnaire is due for appointments with a doctor of a specialty, or with one doctor. */
export const questionnaireAssignments = pgTable(
  'questionnaire_assignments',
  {
    id: uuid().primaryKey().defaultRandom(),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'cascade' }),
    specialtyId: uuid().references(() => specialties.id, { onDelete: 'cascade' }),
    doctorUserId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('questionnaire_assignments_target_key').on(
      table.questionnaireId,
      sql`coalesce(${table.specialtyId}, ${table.doctorUserId})`,
    ),
    index('questionnaire_assignments_specialty_idx').on(table.specialtyId),
    index('questionnaire_assignments_doctor_idx').on(table.doctorUserId),
    check(
      'questionnaire_assignments_target_check',
      sql`(${table.specialtyId} is null) <> (${table.doctorUserId} is null)`,
    ),
  ],
);

/**
 * One patient's answers to one version for one appointment: a FHIR `QuestionnaireResponse` (status
 * in-progress while the patient fills it in, completed once submitted and valid). The instrument's
 * score, band and the PHQ-9 item-9 flag are kept beside it for the waiting room and the chart.
 */
export const questionnaireResponses = pgTable(
  'questionnaire_responses',
  {
    id: uuid().primaryKey().defaultRandom(),
    questionnaireId: uuid()
      .notNull()
      .references(() => questionnaires.id, { onDelete: 'restrict' }),
    questionnaireVersionId: uuid()
      .notNull()
      .references(() => questionnaireVersions.id, { onDelete: 'restrict' }),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    appointmentId: uuid()
      .notNull()
      .references(() => appointments.id, { onDelete: 'restrict' }),
    status: text().$type<'in-progress' | 'completed'>().notNull().default('in-progress'),
    resource: jsonb().$type<QuestionnaireResponse>().notNull(),
    score: integer(),
    severity: text(),
    selfHarmFlag: boolean().notNull().default(false),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
    completedAt: instant(),
  },
  (table) => [
    uniqueIndex('questionnaire_responses_appointment_key').on(table.appointmentId, table.questionnaireId),
    index('questionnaire_responses_patient_idx').on(table.patientUserId, table.createdAt),
    check('questionnaire_responses_status_check', sql`${table.status} in ('in-progress', 'completed')`),
    check(
      'questionnaire_responses_completed_check',
      sql`(${table.status} = 'completed') = (${table.completedAt} is not null)`,
    ),
  ],
);
