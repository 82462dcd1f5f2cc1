import { z } from 'zod';
import {
  itemControlExtensionUrl,
  maxValueExtensionUrl,
  minValueExtensionUrl,
  translationExtensionUrl,
  unitExtensionUrl,
} from './intake-logic.js';

/*
 * Contracts of the questionnaire builder (issue 25): the clinic's questionnaires, each published as
 * a new version of a FHIR R4 `Questionnaire`. The body is the FHIR resource itself, limited to what
 * the builder offers (item types, the unit/min/max/slider extensions, `enableWhen`); Spanish in
 * `text`/`display`, English in the translation extension. Its meaning (linkIds, conditions, choices,
 * ranges, both languages) is checked by `questionnaireDefinitionProblems`
 * (questionnaire-definition.ts), answered 422 naming the item.
 */

const linkIdSchema = z.string().min(1).max(64);
const wordsSchema = z.string().max(2000);

const translationExtensionSchema = z.strictObject({
  url: z.literal(translationExtensionUrl),
  extension: z
    .array(
      z.union([
        z.strictObject({ url: z.literal('lang'), valueCode: z.enum(['es', 'en']) }),
        z.strictObject({ url: z.literal('content'), valueString: wordsSchema }),
      ]),
    )
    .max(2),
});

/** `_text`, `_display`, `_title`: the English words. */
const translatedSchema = z.strictObject({ extension: z.array(translationExtensionSchema).max(2) });
export type TranslatedElement = z.infer<typeof translatedSchema>;

/** The element carrying an item's (or option's, or title's) English words. */
export function englishElement(content: string): TranslatedElement {
  return {
    extension: [
      {
        url: translationExtensionUrl,
        extension: [
          { url: 'lang', valueCode: 'en' },
          { url: 'content', valueString: content },
        ],
      },
    ],
  };
}

const codingSchema = z.strictObject({
  system: z.string().max(200).optional(),
  code: z.string().min(1).max(64),
  display: wordsSchema.optional(),
  _display: translatedSchema.optional(),
});

const numberSchema = z.number().finite().min(-1e9).max(1e9);

const itemExtensionSchema = z.union([
  z.strictObject({ url: z.literal(unitExtensionUrl), valueCoding: codingSchema }),
  z.strictObject({
    url: z.enum([minValueExtensionUrl, maxValueExtensionUrl]),
    valueInteger: z.number().int().min(-1e9).max(1e9),
  }),
  z.strictObject({ url: z.enum([minValueExtensionUrl, maxValueExtensionUrl]), valueDecimal: numberSchema }),
  z.strictObject({
    url: z.literal(itemControlExtensionUrl),
    valueCodeableConcept: z.strictObject({
      coding: z.array(z.strictObject({ system: z.string().max(200).optional(), code: z.literal('slider') })),
    }),
  }),
]);

export const builderItemTypes = [
  'group',
  'string',
  'text',
  'choice',
  'decimal',
  'integer',
  'date',
  'boolean',
] as const;
export type BuilderItemType = (typeof builderItemTypes)[number];

export const enableWhenOperators = ['exists', '=', '!=', '>', '<', '>=', '<='] as const;

const enableWhenSchema = z.strictObject({
  question: linkIdSchema,
  operator: z.enum(enableWhenOperators),
  answerBoolean: z.boolean().optional(),
  answerInteger: z.number().int().optional(),
  answerDecimal: numberSchema.optional(),
  answerDate: z.string().max(10).optional(),
  answerString: wordsSchema.optional(),
  answerCoding: codingSchema.optional(),
});

/** One item as the builder writes it (groups are sections and hold items). */
export interface BuilderQuestionnaireItem {
  linkId: string;
  type: BuilderItemType;
  text?: string;
  _text?: z.infer<typeof translatedSchema>;
  required?: boolean;
  repeats?: boolean;
  extension?: z.infer<typeof itemExtensionSchema>[];
  answerOption?: { valueCoding: z.infer<typeof codingSchema> }[];
  enableWhen?: z.infer<typeof enableWhenSchema>[];
  enableBehavior?: 'all' | 'any';
  item?: BuilderQuestionnaireItem[];
}

export const builderItemSchema: z.ZodType<BuilderQuestionnaireItem> = z.lazy(() =>
  z.strictObject({
    linkId: linkIdSchema,
    type: z.enum(builderItemTypes),
    text: wordsSchema.optional(),
    _text: translatedSchema.optional(),
    required: z.boolean().optional(),
    repeats: z.boolean().optional(),
    extension: z.array(itemExtensionSchema).max(4).optional(),
    answerOption: z
      .array(z.strictObject({ valueCoding: codingSchema }))
      .max(100)
      .optional(),
    enableWhen: z.array(enableWhenSchema).max(10).optional(),
    enableBehavior: z.enum(['all', 'any']).optional(),
    item: z.array(builderItemSchema).max(200).optional(),
  }),
);

/** The body of a create or a new version: a FHIR R4 Questionnaire the builder can write. */
export const builderQuestionnaireSchema = z.strictObject({
  resourceType: z.literal('Questionnaire'),
  title: wordsSchema.optional(),
  _title: translatedSchema.optional(),
  item: z.array(builderItemSchema).min(1).max(200),
});
export type BuilderQuestionnaire = z.infer<typeof builderQuestionnaireSchema>;

/** `POST /questionnaires`, `POST /questionnaires/:id/versions`. */
export const publishQuestionnaireRequestSchema = z.strictObject({
  questionnaire: builderQuestionnaireSchema,
});
export type PublishQuestionnaireRequest = z.infer<typeof publishQuestionnaireRequestSchema>;

/** `PATCH /questionnaires/:id`: archive (no longer sent at booking) or bring back. */
export const archiveQuestionnaireRequestSchema = z.strictObject({ archived: z.boolean() });
export type ArchiveQuestionnaireRequest = z.infer<typeof archiveQuestionnaireRequestSchema>;

/** `POST /questionnaires/:id/assignments`: to a specialty (administrators) or to a doctor. */
export const assignQuestionnaireRequestSchema = z.union([
  z.strictObject({ specialtyId: z.uuid() }),
  z.strictObject({ doctorId: z.uuid() }),
]);
export type AssignQuestionnaireRequest = z.infer<typeof assignQuestionnaireRequestSchema>;

const bilingual = z.object({ es: z.string(), en: z.string() });

export const questionnaireAssignmentSchema = z.object({
  id: z.uuid(),
  specialty: z.object({ id: z.uuid(), name: bilingual }).nullable(),
  doctor: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type QuestionnaireAssignment = z.infer<typeof questionnaireAssignmentSchema>;

export const questionnaireSummarySchema = z.object({
  id: z.uuid(),
  title: bilingual,
  version: z.number().int(),
  /** PHQ-9 and GAD-7: assigned, never edited. */
  shipped: z.boolean(),
  /** A doctor's own questionnaire; null for the clinic's. */
  owner: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  archived: z.boolean(),
  itemCount: z.number().int(),
  assignments: z.array(questionnaireAssignmentSchema),
  publishedAt: z.iso.datetime(),
  /** What the asker may do with it. */
  canEdit: z.boolean(),
});
export type QuestionnaireSummary = z.infer<typeof questionnaireSummarySchema>;

export const questionnaireListSchema = z.object({ data: z.array(questionnaireSummarySchema) });
export type QuestionnaireList = z.infer<typeof questionnaireListSchema>;

/** One questionnaire with its latest version as FHIR JSON. */
export const questionnaireDetailSchema = questionnaireSummarySchema.extend({
  questionnaire: z.looseObject({ resourceType: z.literal('Questionnaire') }),
});
export type QuestionnaireDetail = z.infer<typeof questionnaireDetailSchema>;

export const definitionProblems = [
  'missingTitle',
  'missingText',
  'duplicateLinkId',
  'enableWhenUnknown',
  'enableWhenLater',
  'enableWhenSelf',
  'emptyChoices',
  'duplicateOption',
  'missingOptionText',
  'minAboveMax',
  'emptySection',
  'nestedSection',
] as const;
export type DefinitionProblemKind = (typeof definitionProblems)[number];

/** A problem of one item (linkId empty for the title), in the details of a 422. */
export const definitionProblemSchema = z.object({
  linkId: z.string(),
  problem: z.enum(definitionProblems),
  /** The item's words in the asker's language (or its linkId when it has none). */
  itemText: z.string(),
  message: z.string(),
});
export type DefinitionProblem = z.infer<typeof definitionProblemSchema>;
