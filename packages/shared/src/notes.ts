import { z } from 'zod';

/**
 * Contracts of visit notes, patient-reported vitals and chart documents. REST paths are
 * under `/api/v1`. A note belongs to one appointment; its doctor writes it beside the call (SOAP
 * sections in rich text, autosaved every 5 s), picks diagnoses from the catalogue, and signs it.
 * A signed note never changes: later additions are addenda, signed and dated when written.
 * Stored HTML is sanitized on the server; what the client sends is only a proposal.
 */

// ---------------------------------------------------------------- notes
//
// Answers: `GET …/note` → `noteEnvelopeSchema`; `POST …/note` (201 created, 200 when it already
// existed), `PATCH …/note`, `PUT …/note/diagnoses`, `POST …/note/sign` and `POST …/note/addenda`
// (201) → `visitNoteSchema`; `GET`/`PUT …/vitals` → `vitalsResponseSchema`;
// `GET /patients/:patientId/notes` → `chartNoteListSchema`.

export const noteSections = ['subjective', 'objective', 'assessment', 'plan'] as const;
export type NoteSection = (typeof noteSections)[number];

export const noteStatuses = ['draft', 'signed'] as const;
export type NoteStatus = (typeof noteStatuses)[number];

/** Longest HTML of one section or addendum, before sanitizing (about 30 pages of text). */
export const noteSectionMaxLength = 100_000;
export const noteMaxDiagnoses = 12;

const sectionHtmlSchema = z.string().max(noteSectionMaxLength, { message: 'validation.tooLong' });

const baseVersionSchema = z
  .number({ message: 'validation.number' })
  .int({ message: 'validation.integer' })
  .min(1, { message: 'validation.range' });

/**
 * `PATCH /appointments/:appointmentId/note`: the sections that changed, and the version the
 * client last saw. Another version → 409 `NOTE_VERSION_CONFLICT` with the current note in
 * `details.note`; a signed note → 409 `NOTE_SIGNED`.
 */
export const saveNoteRequestSchema = z
  .object({
    baseVersion: baseVersionSchema,
    subjective: sectionHtmlSchema.optional(),
    objective: sectionHtmlSchema.optional(),
    assessment: sectionHtmlSchema.optional(),
    plan: sectionHtmlSchema.optional(),
  })
  .strict();
export type SaveNoteRequest = z.infer<typeof saveNoteRequestSchema>;

/** `PUT /appointments/:appointmentId/note/diagnoses`: the whole list, in order; at most one primary. */
export const setNoteDiagnosesRequestSchema = z
  .object({
    baseVersion: baseVersionSchema,
    items: z
      .array(
        z.object({
          code: z
            .string()
            .trim()
            .toUpperCase()
            .regex(/^[A-Z][0-9]{2}(\.[0-9A-Z]{1,2})?$/, { message: 'validation.invalid' }),
          primary: z.boolean().default(false),
        }),
      )
      .max(noteMaxDiagnoses, { message: 'validation.tooMany' })
      .refine((items) => new Set(items.map((item) => item.code)).size === items.length, {
        message: 'validation.duplicate',
      })
      .refine((items) => items.filter((item) => item.primary).length <= 1, {
        message: 'validation.onePrimary',
      }),
  })
  .strict();
export type SetNoteDiagnosesRequest = z.input<typeof setNoteDiagnosesRequestSchema>;

/** `POST /appointments/:appointmentId/note/sign`: signs the version the doctor sees. */
export const signNoteRequestSchema = z.object({ baseVersion: baseVersionSchema }).strict();
export type SignNoteRequest = z.infer<typeof signNoteRequestSchema>;

/** `POST /appointments/:appointmentId/note/addenda`: only on a signed note; signed when written. */
export const createAddendumRequestSchema = z
  .object({
    body: z
      .string({ message: 'validation.required' })
      .max(noteSectionMaxLength, { message: 'validation.tooLong' })
      .refine((html) => html.replace(/<[^>]*>/g, '').trim() !== '', { message: 'validation.required' }),
  })
  .strict();
export type CreateAddendumRequest = z.infer<typeof createAddendumRequestSchema>;

export const noteDiagnosisSchema = z.object({
  code: z.string(),
  chapter: z.string(),
  nameEs: z.string(),
  nameEn: z.string(),
  primary: z.boolean(),
});
export type NoteDiagnosis = z.infer<typeof noteDiagnosisSchema>;

export const noteAddendumSchema = z.object({
  id: z.string(),
  author: z.object({ id: z.string(), name: z.string() }),
  /** Sanitized HTML. */
  body: z.string(),
  signedAt: z.string(),
});
export type NoteAddendum = z.infer<typeof noteAddendumSchema>;

export const visitNoteSchema = z.object({
  id: z.string(),
  appointmentId: z.string(),
  patient: z.object({ id: z.string(), name: z.string() }),
  doctor: z.object({ id: z.string(), name: z.string(), licenseNumber: z.string().nullable() }),
  status: z.enum(noteStatuses),
  version: z.number().int(),
  /** Sanitized HTML of each SOAP section ('' when empty). */
  sections: z.object({
    subjective: z.string(),
    objective: z.string(),
    assessment: z.string(),
    plan: z.string(),
  }),
  diagnoses: z.array(noteDiagnosisSchema),
  addenda: z.array(noteAddendumSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
  signedAt: z.string().nullable(),
  /** The visit summary PDF kept in the chart once the note is signed. */
  summaryDocumentId: z.string().nullable(),
  /** The signed-in user may edit it (its doctor, while a draft) or add addenda (signed). */
  canEdit: z.boolean(),
  canAmend: z.boolean(),
});
export type VisitNote = z.infer<typeof visitNoteSchema>;

// ---------------------------------------------------------------- vitals

/** Plausible ranges of patient-reported vitals; outside them the field is refused (400). */
export const vitalRanges = {
  temperatureC: { min: 30, max: 45, step: 0.1 },
  heartRateBpm: { min: 20, max: 250, step: 1 },
  systolicMmHg: { min: 50, max: 260, step: 1 },
  diastolicMmHg: { min: 30, max: 160, step: 1 },
  respiratoryRate: { min: 4, max: 80, step: 1 },
  oxygenSaturation: { min: 50, max: 100, step: 1 },
  weightKg: { min: 0.5, max: 400, step: 0.1 },
  heightCm: { min: 30, max: 250, step: 0.1 },
  glucoseMgDl: { min: 20, max: 800, step: 1 },
} as const;
export type VitalName = keyof typeof vitalRanges;
export const vitalNames = Object.keys(vitalRanges) as VitalName[];

const vitalInput = (name: VitalName) => {
  const range = vitalRanges[name];
  const base = z
    .number({ message: 'validation.number' })
    .min(range.min, { message: 'validation.range' })
    .max(range.max, { message: 'validation.range' });
  return (range.step === 1 ? base.int({ message: 'validation.integer' }) : base).nullable().optional();
};

/**
 * `PUT /appointments/:appointmentId/vitals` (the patient, until the note is signed): replaces what
 * was reported. Systolic above diastolic when both are given.
 */
export const reportVitalsRequestSchema = z
  .object({
    temperatureC: vitalInput('temperatureC'),
    heartRateBpm: vitalInput('heartRateBpm'),
    systolicMmHg: vitalInput('systolicMmHg'),
    diastolicMmHg: vitalInput('diastolicMmHg'),
    respiratoryRate: vitalInput('respiratoryRate'),
    oxygenSaturation: vitalInput('oxygenSaturation'),
    weightKg: vitalInput('weightKg'),
    heightCm: vitalInput('heightCm'),
    glucoseMgDl: vitalInput('glucoseMgDl'),
  })
  .strict()
  .refine(
    (vitals) =>
      vitals.systolicMmHg === undefined ||
      vitals.systolicMmHg === null ||
      vitals.diastolicMmHg === undefined ||
      vitals.diastolicMmHg === null ||
      vitals.systolicMmHg > vitals.diastolicMmHg,
    { message: 'validation.bloodPressure', path: ['diastolicMmHg'] },
  )
  .refine((vitals) => Object.values(vitals).some((value) => value !== undefined && value !== null), {
    message: 'validation.required',
  });
export type ReportVitalsRequest = z.infer<typeof reportVitalsRequestSchema>;

export const vitalsSchema = z.object({
  temperatureC: z.number().nullable(),
  heartRateBpm: z.number().nullable(),
  systolicMmHg: z.number().nullable(),
  diastolicMmHg: z.number().nullable(),
  respiratoryRate: z.number().nullable(),
  oxygenSaturation: z.number().nullable(),
  weightKg: z.number().nullable(),
  heightCm: z.number().nullable(),
  glucoseMgDl: z.number().nullable(),
  reportedAt: z.string(),
});
export type Vitals = z.infer<typeof vitalsSchema>;

/**
 * `GET /appointments/:appointmentId/vitals` and the answer of `PUT` (the vitals as stored, with
 * `reportedAt`): null until the patient reports something.
 */
export const vitalsResponseSchema = z.object({ vitals: vitalsSchema.nullable() });
export type VitalsResponse = z.infer<typeof vitalsResponseSchema>;

// ---------------------------------------------------------------- chart notes list

/** `GET /patients/:patientId/notes`: the notes of a chart, newest visit first (patients: signed only). */
export const chartNoteSummarySchema = z.object({
  id: z.string(),
  appointmentId: z.string(),
  visitStartsAt: z.string(),
  doctor: z.object({ id: z.string(), name: z.string() }),
  status: z.enum(noteStatuses),
  signedAt: z.string().nullable(),
  diagnoses: z.array(z.object({ code: z.string(), nameEs: z.string(), nameEn: z.string() })),
  addendaCount: z.number().int(),
});
export type ChartNoteSummary = z.infer<typeof chartNoteSummarySchema>;
export const chartNoteListSchema = z.object({ items: z.array(chartNoteSummarySchema) });
export type ChartNoteList = z.infer<typeof chartNoteListSchema>;

// ---------------------------------------------------------------- the note of one visit

/**
 * `GET /appointments/:appointmentId/note`: the note (null until the doctor starts it; patients
 * see it only once signed) and the vitals the patient reported for that visit.
 */
export const noteEnvelopeSchema = z.object({
  note: visitNoteSchema.nullable(),
  vitals: vitalsSchema.nullable(),
});
export type NoteEnvelope = z.infer<typeof noteEnvelopeSchema>;
