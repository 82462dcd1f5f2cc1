import { z } from 'zod';
import { responseProblems, severities } from './intake-logic.js';

/*
 * Contracts of intake questionnaires (issue 25). Questionnaires and responses travel as FHIR R4
 * JSON (`Questionnaire`, `QuestionnaireResponse`; types from @medplum/fhirtypes, checked here only
 * for their resourceType: their content is checked against the version by `validateAnswers`).
 */

const linkIdSchema = z.string().min(1).max(64);

/** One answer: exactly one FHIR value[x] of the types the forms use. */
export const answerValueSchema = z.union([
  z.strictObject({ valueString: z.string().max(4000) }),
  z.strictObject({ valueBoolean: z.boolean() }),
  z.strictObject({ valueInteger: z.number().int() }),
  z.strictObject({ valueDecimal: z.number() }),
  z.strictObject({ valueDate: z.string().max(10) }),
  z.strictObject({
    valueCoding: z.strictObject({
      system: z.string().max(200).optional(),
      code: z.string().min(1).max(64),
      display: z.string().max(500).optional(),
    }),
  }),
]);

/** `PUT /intake-responses/:id/answers` (autosave) and `POST /intake-responses/:id/submit`: every answer so far. */
export const saveIntakeAnswersRequestSchema = z.strictObject({
  answers: z
    .record(linkIdSchema, z.array(answerValueSchema).max(50))
    .refine((answers) => Object.keys(answers).length <= 500, { message: 'validation.tooMany' }),
});
export type SaveIntakeAnswersRequest = z.infer<typeof saveIntakeAnswersRequestSchema>;

export const intakeResponseStatusSchema = z.enum(['in-progress', 'completed']);
export type IntakeResponseStatus = z.infer<typeof intakeResponseStatusSchema>;

export const intakeScoreSchema = z.object({
  instrument: z.enum(['phq9', 'gad7']),
  score: z.number().int(),
  severity: z.enum(severities),
  selfHarmFlag: z.boolean(),
});
export type IntakeScore = z.infer<typeof intakeScoreSchema>;

/** One form due for an appointment, as lists show it (no answers). */
export const intakeFormSummarySchema = z.object({
  id: z.uuid(),
  appointmentId: z.uuid(),
  patientId: z.uuid(),
  title: z.object({ es: z.string(), en: z.string() }),
  questionnaireVersion: z.number().int(),
  status: intakeResponseStatusSchema,
  updatedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  /** For a scored instrument, once completed; shown to the patient's clinicians and the patient. */
  score: intakeScoreSchema.nullable(),
});
export type IntakeFormSummary = z.infer<typeof intakeFormSummarySchema>;

export const intakeFormListSchema = z.object({ data: z.array(intakeFormSummarySchema) });
export type IntakeFormList = z.infer<typeof intakeFormListSchema>;

/** A FHIR resource as JSON (its resourceType checked; the rest is the version's business). */
const fhirResource = <T extends string>(resourceType: T) =>
  z.looseObject({ resourceType: z.literal(resourceType) });

/** `GET /intake-responses/:id`: the version answered and the answers, as FHIR resources. */
export const intakeResponseDetailSchema = intakeFormSummarySchema.extend({
  questionnaire: fhirResource('Questionnaire'),
  response: fhirResource('QuestionnaireResponse'),
});
export type IntakeResponseDetail = z.infer<typeof intakeResponseDetailSchema>;

/** A problem of one item, in the details of a 422 answer to a save or a submit. */
export const intakeProblemSchema = z.object({
  linkId: z.string(),
  problem: z.enum(responseProblems),
  limit: z.number().optional(),
  /** The item's question in the asker's language (empty for an unknown item). */
  itemText: z.string(),
});
export type IntakeProblem = z.infer<typeof intakeProblemSchema>;

export const intakeProblemsDetailsSchema = z.object({ problems: z.array(intakeProblemSchema) });
export type IntakeProblemsDetails = z.infer<typeof intakeProblemsDetailsSchema>;
