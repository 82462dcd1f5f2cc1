import { z } from 'zod';
import { displayText } from './display-text.js';
import { dateOfBirthSchema, personNameSchema, phoneSchema } from './auth.js';
import { calendarDateSchema, listQuerySchema, pageOf } from './common.js';
import { chartDocumentSchema } from './documents.js';

/**
 * Contracts of the patient chart: the patients list, the chart itself, its edits,
 * emergency access and the patient's own access log. Who may see what is decided on the server
 * (records.policy.ts); staff get the administrative part only (`clinical: null`).
 */

// ---------------------------------------------------------------- field schemas

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: 'validation.tooLong' })
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

/** A name or label in the chart (a substance, a condition, a medication): read by every clinician. */
const requiredText = (max: number) =>
  displayText(
    z
      .string({ message: 'validation.required' })
      .trim()
      .min(1, { message: 'validation.required' })
      .max(max, { message: 'validation.tooLong' }),
  );

/** An optional name or label (the emergency contact's name and relation). */
const optionalLabel = (max: number) =>
  displayText(z.string().trim().max(max, { message: 'validation.tooLong' }))
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

export const patientSexes = ['female', 'male', 'other', 'unknown'] as const;
export const patientSexSchema = z.enum(patientSexes, { message: 'validation.invalid' });
export type PatientSex = z.infer<typeof patientSexSchema>;

export const identityDocumentTypes = ['national_id', 'passport', 'driver_license', 'other'] as const;
export const identityDocumentTypeSchema = z.enum(identityDocumentTypes, { message: 'validation.invalid' });

export const allergySeverities = ['mild', 'moderate', 'severe', 'unknown'] as const;
export const allergySeveritySchema = z.enum(allergySeverities, { message: 'validation.invalid' });

export const conditionStatuses = ['active', 'resolved'] as const;
export const conditionStatusSchema = z.enum(conditionStatuses, { message: 'validation.invalid' });

export const bloodTypes = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export const bloodTypeSchema = z.enum(bloodTypes, { message: 'validation.invalid' });

// ---------------------------------------------------------------- patients list

/** `GET /patients?q&page&pageSize`: a doctor's own patients, or every patient for staff. */
export const patientListQuerySchema = listQuerySchema;
export type PatientListQuery = z.infer<typeof patientListQuerySchema>;

export const patientSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  /** The latest non-cancelled appointment that started before now (with this doctor, for a doctor). */
  lastVisitAt: z.string().nullable(),
  /** The first non-cancelled appointment from now on (with this doctor, for a doctor). */
  nextVisitAt: z.string().nullable(),
});
export type PatientSummary = z.infer<typeof patientSummarySchema>;
export const patientPageSchema = pageOf(patientSummarySchema);
export type PatientPage = z.infer<typeof patientPageSchema>;

// ---------------------------------------------------------------- the chart

export const chartQuerySchema = z.object({
  /** `removed` also lists the allergies, conditions and medications that were removed (history). */
  include: z.enum(['removed'], { message: 'validation.invalid' }).optional(),
});
export type ChartQuery = z.infer<typeof chartQuerySchema>;

/** How the reader reaches the chart; the web app shows it (and a banner under emergency access). */
export const chartAccessSchema = z.enum(['self', 'treating', 'emergency', 'administrative']);
export type ChartAccess = z.infer<typeof chartAccessSchema>;

const recordedBySchema = z.object({ id: z.string(), name: z.string() }).nullable();

export const allergySchema = z.object({
  id: z.uuid(),
  substance: z.string(),
  reaction: z.string().nullable(),
  severity: allergySeveritySchema,
  recordedAt: z.string(),
  recordedBy: recordedBySchema,
  removedAt: z.string().nullable(),
  removedBy: recordedBySchema,
});
export type Allergy = z.infer<typeof allergySchema>;

export const conditionSchema = z.object({
  id: z.uuid(),
  description: z.string(),
  diagnosisCode: z.string().nullable(),
  /** The catalogue's name of the code in the reader's language. */
  diagnosisName: z.string().nullable(),
  status: conditionStatusSchema,
  onsetDate: z.string().nullable(),
  recordedAt: z.string(),
  recordedBy: recordedBySchema,
  removedAt: z.string().nullable(),
  removedBy: recordedBySchema,
});
export type Condition = z.infer<typeof conditionSchema>;

export const medicationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  dose: z.string().nullable(),
  frequency: z.string().nullable(),
  startedOn: z.string().nullable(),
  stoppedOn: z.string().nullable(),
  recordedAt: z.string(),
  recordedBy: recordedBySchema,
  removedAt: z.string().nullable(),
  removedBy: recordedBySchema,
});
export type Medication = z.infer<typeof medicationSchema>;

export const chartVisitSchema = z.object({
  id: z.uuid(),
  startsAt: z.string(),
  status: z.string(),
  doctor: z.object({ id: z.string(), name: z.string() }),
  /**
   * The reason the patient gave; null for staff (administrative view) unless the clinic's privacy
   * setting lets staff read visit reasons.
   */
  reason: z.string().nullable(),
});
export type ChartVisit = z.infer<typeof chartVisitSchema>;

export const chartPrescriptionSchema = z.object({
  id: z.uuid(),
  issuedAt: z.string(),
  status: z.enum(['active', 'cancelled']),
  doctor: z.object({ id: z.string(), name: z.string() }),
  itemCount: z.number(),
});
export type ChartPrescription = z.infer<typeof chartPrescriptionSchema>;

export const chartDemographicsSchema = z.object({
  name: z.string(),
  dateOfBirth: z.string().nullable(),
  sex: patientSexSchema,
  phone: z.string().nullable(),
  email: z.string(),
  language: z.string(),
  address: z.string().nullable(),
});

export const chartSchema = z.object({
  patientId: z.uuid(),
  access: chartAccessSchema,
  /** When the reader's emergency access ends (only for `access: 'emergency'`). */
  emergencyExpiresAt: z.string().nullable(),
  demographics: chartDemographicsSchema,
  identityDocument: z.object({ type: z.string().nullable(), number: z.string().nullable() }),
  emergencyContact: z.object({
    name: z.string().nullable(),
    phone: z.string().nullable(),
    relation: z.string().nullable(),
  }),
  visits: z.array(chartVisitSchema),
  /** The clinical part; null for staff, who see administrative data only. */
  clinical: z
    .object({
      bloodType: z.string().nullable(),
      allergies: z.array(allergySchema),
      conditions: z.array(conditionSchema),
      medications: z.array(medicationSchema),
      prescriptions: z.array(chartPrescriptionSchema),
      /** Documents in the chart (uploads and visit summaries), newest first; removed ones with `include=removed`. */
      documents: z.array(chartDocumentSchema),
    })
    .nullable(),
});
export type Chart = z.infer<typeof chartSchema>;

// ---------------------------------------------------------------- edits

/**
 * `PATCH /patients/:patientId/profile`. Doctors may change every field; the patient only their
 * contact details (`phone`, `address`) and the emergency contact. `null` clears a field.
 */
export const updatePatientProfileRequestSchema = z
  .object({
    name: personNameSchema.optional(),
    dateOfBirth: dateOfBirthSchema.nullable().optional(),
    sex: patientSexSchema.optional(),
    phone: phoneSchema.nullable().optional(),
    address: optionalText(300),
    bloodType: bloodTypeSchema.nullable().optional(),
    identityDocument: z
      .object({
        type: identityDocumentTypeSchema.nullable(),
        number: z
          .string()
          .trim()
          .max(40, { message: 'validation.tooLong' })
          .transform((value) => (value === '' ? null : value))
          .nullable(),
      })
      .optional(),
    emergencyContact: z
      .object({
        name: optionalLabel(120),
        phone: phoneSchema.nullable().optional(),
        relation: optionalLabel(60),
      })
      .optional(),
  })
  .strict();
export type UpdatePatientProfileRequest = z.input<typeof updatePatientProfileRequestSchema>;

/** The fields a patient may change in their own chart. */
export const patientEditableProfileFields = ['phone', 'address', 'emergencyContact'] as const;

export const createAllergyRequestSchema = z.object({
  substance: requiredText(120),
  reaction: optionalText(300),
  severity: allergySeveritySchema.default('unknown'),
});
export type CreateAllergyRequest = z.input<typeof createAllergyRequestSchema>;

export const createConditionRequestSchema = z.object({
  description: requiredText(300),
  /** A code of the diagnosis catalogue; unknown codes answer 400 on `diagnosisCode`. */
  diagnosisCode: z
    .string()
    .trim()
    .max(16, { message: 'records.validation.unknownDiagnosisCode' })
    .transform((value) => (value === '' ? null : value.toUpperCase()))
    .nullable()
    .optional(),
  status: conditionStatusSchema.default('active'),
  onsetDate: calendarDateSchema.nullable().optional(),
});
export type CreateConditionRequest = z.input<typeof createConditionRequestSchema>;

export const createMedicationRequestSchema = z
  .object({
    name: requiredText(120),
    dose: optionalText(60),
    frequency: optionalText(60),
    startedOn: calendarDateSchema.nullable().optional(),
    stoppedOn: calendarDateSchema.nullable().optional(),
  })
  .refine(
    (value) =>
      value.startedOn === undefined ||
      value.startedOn === null ||
      value.stoppedOn === undefined ||
      value.stoppedOn === null ||
      value.stoppedOn >= value.startedOn,
    { message: 'validation.timeOrder', path: ['stoppedOn'] },
  );
export type CreateMedicationRequest = z.input<typeof createMedicationRequestSchema>;

// ---------------------------------------------------------------- emergency access

/** How long an emergency access keeps a chart open (then a new, reasoned request is needed). */
export const emergencyAccessMinutes = 60;

export const emergencyAccessRequestSchema = z.object({
  reason: z
    .string({ message: 'records.validation.emergencyReasonTooShort' })
    .trim()
    .min(20, { message: 'records.validation.emergencyReasonTooShort' })
    .max(1000, { message: 'validation.tooLong' }),
});
export type EmergencyAccessRequest = z.infer<typeof emergencyAccessRequestSchema>;

export const emergencyAccessSchema = z.object({
  id: z.uuid(),
  patientId: z.uuid(),
  grantedAt: z.string(),
  expiresAt: z.string(),
});
export type EmergencyAccess = z.infer<typeof emergencyAccessSchema>;

// ---------------------------------------------------------------- the patient's access log

export const recordAccessQuerySchema = listQuerySchema.omit({ q: true });
export type RecordAccessQuery = z.infer<typeof recordAccessQuerySchema>;

export const recordAccessEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  /** `record.viewed`, `record.updated`, `record.emergency_access`, `prescription.*`. */
  action: z.string(),
  actor: z
    .object({
      id: z.string(),
      name: z.string(),
      /** A system role key (`doctor`, `staff`, `admin`, `patient`) or a custom role's key. */
      roleKey: z.string().nullable(),
    })
    .nullable(),
  /** Which part of the chart (`chart`, `allergies`, `conditions`, `medications`, `profile`, …). */
  section: z.string().nullable(),
  /** Read or written under an emergency access. */
  isEmergency: z.boolean(),
  /** The reason the doctor gave for the emergency access (shown to the patient). */
  emergencyReason: z.string().nullable(),
  /** Read through the FHIR API by a third-party app (on behalf of `actor`); null for the app itself. */
  client: z.object({ id: z.string(), name: z.string() }).nullable().optional(),
  /** The FHIR resource type read (section `fhir`). */
  resourceType: z.string().nullable().optional(),
});
export type RecordAccessEntry = z.infer<typeof recordAccessEntrySchema>;
export const recordAccessPageSchema = pageOf(recordAccessEntrySchema);
export type RecordAccessPage = z.infer<typeof recordAccessPageSchema>;
