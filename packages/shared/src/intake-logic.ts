import type {
  Coding,
  Extension,
  Questionnaire,
  QuestionnaireItem,
  QuestionnaireItemEnableWhen,
  QuestionnaireResponse,
  QuestionnaireResponseItem,
  QuestionnaireResponseItemAnswer,
} from '@medplum/fhirtypes';
import type { Language } from './i18n.js';

/*
 * Pure logic of intake questionnaires, used by the server (validation before saving, scores) and
 * the web (which items to show, the same problems before sending). Questionnaires are FHIR R4
 * `Questionnaire` resources: Spanish in `text`/`display`, English in the standard translation
 * extension on `_text`/`_display` (one resource per version, so both languages share linkIds and a
 * response and its score do not depend on the language it was answered in). Conditions are the
 * declarative `enableWhen` (+ `enableBehavior`), evaluated here by hand: `fhirpath` is not needed for
 * them and would add a large dependency to the patient's phone bundle.
 */

export const translationExtensionUrl = 'http://hl7.org/fhir/StructureDefinition/translation';
export const minValueExtensionUrl = 'http://hl7.org/fhir/StructureDefinition/minValue';
export const maxValueExtensionUrl = 'http://hl7.org/fhir/StructureDefinition/maxValue';
export const unitExtensionUrl = 'http://hl7.org/fhir/StructureDefinition/questionnaire-unit';
export const itemControlExtensionUrl = 'http://hl7.org/fhir/StructureDefinition/questionnaire-itemControl';
export const ordinalValueExtensionUrl = 'http://hl7.org/fhir/StructureDefinition/ordinalValue';

/** One answer as the API carries it: the FHIR answer value[x] the item's type takes. */
export type AnswerValue = QuestionnaireResponseItemAnswer;
/** Answers by linkId (a repeating choice holds several). */
export type AnswerMap = Record<string, AnswerValue[]>;

// ---------------------------------------------------------------- words

/** A translation extension for `_text`/`_display`. */
export function translation(language: Language, content: string): Extension {
  return {
    url: translationExtensionUrl,
    extension: [
      { url: 'lang', valueCode: language },
      { url: 'content', valueString: content },
    ],
  };
}

/** The text in `language`: the translation extension when there is one for it, else the base text. */
export function textIn(
  base: string | undefined,
  element: { extension?: Extension[] } | undefined,
  language: Language,
): string {
  const found = element?.extension?.find(
    (extension) =>
      extension.url === translationExtensionUrl &&
      extension.extension?.some((part) => part.url === 'lang' && part.valueCode === language),
  );
  const content = found?.extension?.find((part) => part.url === 'content')?.valueString;
  return content ?? base ?? '';
}

/** An item's question in `language`. */
export function itemText(item: QuestionnaireItem, language: Language): string {
  return textIn(item.text, (item as { _text?: { extension?: Extension[] } })._text, language);
}

/** An answer option's words in `language`. */
export function codingText(coding: Coding, language: Language): string {
  return textIn(coding.display, (coding as { _display?: { extension?: Extension[] } })._display, language);
}

// ---------------------------------------------------------------- item properties

function extensionOf(item: { extension?: Extension[] }, url: string): Extension | undefined {
  return item.extension?.find((extension) => extension.url === url);
}

export function minValueOf(item: QuestionnaireItem): number | undefined {
  const extension = extensionOf(item, minValueExtensionUrl);
  return extension?.valueInteger ?? extension?.valueDecimal;
}

export function maxValueOf(item: QuestionnaireItem): number | undefined {
  const extension = extensionOf(item, maxValueExtensionUrl);
  return extension?.valueInteger ?? extension?.valueDecimal;
}

export function unitOf(item: QuestionnaireItem): Coding | undefined {
  return extensionOf(item, unitExtensionUrl)?.valueCoding;
}

/** A 0–10 scale is an integer item shown as a slider (itemControl `slider`). */
export function isScale(item: QuestionnaireItem): boolean {
  return (
    extensionOf(item, itemControlExtensionUrl)?.valueCodeableConcept?.coding?.some(
      (coding) => coding.code === 'slider',
    ) === true
  );
}

/** The ordinal value an answer option carries (the points it scores), if any. */
export function ordinalOf(coding: Coding): number | undefined {
  return extensionOf(coding, ordinalValueExtensionUrl)?.valueDecimal;
}

/** Every item of the questionnaire, groups included, depth first. */
export function flattenItems(items: readonly QuestionnaireItem[] | undefined): QuestionnaireItem[] {
  const out: QuestionnaireItem[] = [];
  for (const item of items ?? []) {
    out.push(item);
    out.push(...flattenItems(item.item));
  }
  return out;
}

// ---------------------------------------------------------------- enableWhen

function answerKey(answer: AnswerValue): string | number | boolean | undefined {
  return (
    answer.valueCoding?.code ??
    answer.valueBoolean ??
    answer.valueInteger ??
    answer.valueDecimal ??
    answer.valueDate ??
    answer.valueString
  );
}

function conditionKey(condition: QuestionnaireItemEnableWhen): string | number | boolean | undefined {
  return (
    condition.answerCoding?.code ??
    condition.answerBoolean ??
    condition.answerInteger ??
    condition.answerDecimal ??
    condition.answerDate ??
    condition.answerString
  );
}

function conditionHolds(condition: QuestionnaireItemEnableWhen, answers: AnswerValue[]): boolean {
  if (condition.operator === 'exists') {
    return answers.length > 0 === (condition.answerBoolean ?? true);
  }
  const expected = conditionKey(condition);
  const given = answers.map(answerKey).filter((value) => value !== undefined);
  switch (condition.operator) {
    case '=':
      return given.some((value) => value === expected);
    case '!=':
      return given.length > 0 && given.every((value) => value !== expected);
    case '>':
    case '<':
    case '>=':
    case '<=':
      return given.some((value) => {
        if (expected === undefined || typeof value === 'boolean' || typeof expected === 'boolean') {
          return false;
        }
        if (condition.operator === '>') {
          return value > expected;
        }
        if (condition.operator === '<') {
          return value < expected;
        }
        if (condition.operator === '>=') {
          return value >= expected;
        }
        return value <= expected;
      });
    default:
      return false;
  }
}

/**
 * The linkIds enabled by the answers: an item without `enableWhen` is enabled when its parent is;
 * with conditions, all of them must hold (`enableBehavior: all`, the default) or any one (`any`). A
 * condition on an item that is itself disabled sees no answer.
 */
export function enabledLinkIds(questionnaire: Pick<Questionnaire, 'item'>, answers: AnswerMap): Set<string> {
  const all = flattenItems(questionnaire.item);
  // Start from "everything on" and recompute until nothing changes (conditions may chain).
  let previous = new Set(all.map((item) => item.linkId));
  for (let pass = 0; pass <= all.length; pass += 1) {
    const enabled = new Set<string>();
    const visit = (items: readonly QuestionnaireItem[] | undefined): void => {
      for (const item of items ?? []) {
        const conditions = item.enableWhen ?? [];
        const results = conditions.map((condition) =>
          conditionHolds(
            condition,
            previous.has(condition.question) ? (answers[condition.question] ?? []) : [],
          ),
        );
        const on =
          conditions.length === 0 ||
          (item.enableBehavior === 'any' ? results.some(Boolean) : results.every(Boolean));
        if (on) {
          enabled.add(item.linkId);
          visit(item.item);
        }
      }
    };
    visit(questionnaire.item);
    if (enabled.size === previous.size && [...enabled].every((linkId) => previous.has(linkId))) {
      return enabled;
    }
    previous = enabled;
  }
  return previous;
}

// ---------------------------------------------------------------- validation

export const responseProblems = [
  'required',
  'unknownItem',
  'wrongType',
  'notAnOption',
  'tooMany',
  'belowMin',
  'aboveMax',
  'notEnabled',
] as const;
export type ResponseProblemKind = (typeof responseProblems)[number];

export interface ResponseProblem {
  linkId: string;
  problem: ResponseProblemKind;
  /** The bound broken, for belowMin/aboveMax. */
  limit?: number;
}

function typeFits(item: QuestionnaireItem, answer: AnswerValue): boolean {
  const keys = Object.keys(answer).filter((key) => key.startsWith('value'));
  if (keys.length !== 1) {
    return false;
  }
  const type = item.type;
  if (type === 'string' || type === 'text') {
    return typeof answer.valueString === 'string' && answer.valueString.trim() !== '';
  }
  if (type === 'boolean') {
    return typeof answer.valueBoolean === 'boolean';
  }
  if (type === 'integer') {
    return Number.isInteger(answer.valueInteger);
  }
  if (type === 'decimal') {
    return typeof answer.valueDecimal === 'number' && Number.isFinite(answer.valueDecimal);
  }
  if (type === 'date') {
    return typeof answer.valueDate === 'string' && isCalendarDate(answer.valueDate);
  }
  if (type === 'choice') {
    return typeof answer.valueCoding?.code === 'string';
  }
  // Other FHIR item types are not offered by the builder.
  return false;
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return false;
  }
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * What is wrong with `answers` for this questionnaire version, item by item: unknown items,
 * answers to groups or disabled items, wrong types, codes that are not options, several answers to
 * a single choice, numbers outside min/max and — when `requireComplete` (a submit, not an
 * autosave) — required enabled items left unanswered. Empty when the answers fit.
 */
export function validateAnswers(
  questionnaire: Pick<Questionnaire, 'item'>,
  answers: AnswerMap,
  options: { requireComplete: boolean },
): ResponseProblem[] {
  const items = new Map(flattenItems(questionnaire.item).map((item) => [item.linkId, item]));
  const enabled = enabledLinkIds(questionnaire, answers);
  const problems: ResponseProblem[] = [];
  for (const [linkId, given] of Object.entries(answers)) {
    const item = items.get(linkId);
    if (item === undefined || item.type === 'group' || item.type === 'display') {
      problems.push({ linkId, problem: 'unknownItem' });
      continue;
    }
    if (given.length === 0) {
      continue;
    }
    if (!enabled.has(linkId)) {
      problems.push({ linkId, problem: 'notEnabled' });
      continue;
    }
    if (given.length > 1 && item.repeats !== true) {
      problems.push({ linkId, problem: 'tooMany' });
      continue;
    }
    for (const answer of given) {
      if (!typeFits(item, answer)) {
        problems.push({ linkId, problem: 'wrongType' });
        break;
      }
      if (item.type === 'choice') {
        const code = answer.valueCoding?.code;
        if (!(item.answerOption ?? []).some((option) => option.valueCoding?.code === code)) {
          problems.push({ linkId, problem: 'notAnOption' });
          break;
        }
      }
      const number = answer.valueInteger ?? answer.valueDecimal;
      if (number !== undefined) {
        const min = minValueOf(item);
        const max = maxValueOf(item);
        if (min !== undefined && number < min) {
          problems.push({ linkId, problem: 'belowMin', limit: min });
          break;
        }
        if (max !== undefined && number > max) {
          problems.push({ linkId, problem: 'aboveMax', limit: max });
          break;
        }
      }
    }
  }
  if (options.requireComplete) {
    for (const item of items.values()) {
      if (
        item.required === true &&
        item.type !== 'group' &&
        item.type !== 'display' &&
        enabled.has(item.linkId) &&
        (answers[item.linkId] ?? []).length === 0
      ) {
        problems.push({ linkId: item.linkId, problem: 'required' });
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- response shape

/**
 * The answers as a FHIR `QuestionnaireResponse.item` tree that follows the questionnaire's groups;
 * only enabled, answered items (and groups holding some) are kept.
 */
export function responseItems(
  questionnaire: Pick<Questionnaire, 'item'>,
  answers: AnswerMap,
): QuestionnaireResponseItem[] {
  const enabled = enabledLinkIds(questionnaire, answers);
  const build = (items: readonly QuestionnaireItem[] | undefined): QuestionnaireResponseItem[] => {
    const out: QuestionnaireResponseItem[] = [];
    for (const item of items ?? []) {
      if (!enabled.has(item.linkId)) {
        continue;
      }
      if (item.type === 'group') {
        const children = build(item.item);
        if (children.length > 0) {
          out.push({ linkId: item.linkId, text: item.text, item: children });
        }
        continue;
      }
      const given = answers[item.linkId] ?? [];
      if (given.length > 0) {
        out.push({ linkId: item.linkId, text: item.text, answer: given });
      }
    }
    return out;
  };
  return build(questionnaire.item);
}

/** The answers of a response, by linkId (groups flattened). */
export function answersOf(response: Pick<QuestionnaireResponse, 'item'>): AnswerMap {
  const out: AnswerMap = {};
  const walk = (items: readonly QuestionnaireResponseItem[] | undefined): void => {
    for (const item of items ?? []) {
      if (item.answer !== undefined && item.answer.length > 0) {
        out[item.linkId] = item.answer;
      }
      walk(item.item);
    }
  };
  walk(response.item);
  return out;
}

// ---------------------------------------------------------------- scored instruments

export const instruments = ['phq9', 'gad7'] as const;
export type Instrument = (typeof instruments)[number];

export const severities = ['minimal', 'mild', 'moderate', 'moderatelySevere', 'severe'] as const;
export type Severity = (typeof severities)[number];

export interface InstrumentScore {
  instrument: Instrument;
  /** Sum of the answered items' points. */
  score: number;
  /** The published band of the score. */
  severity: Severity;
  /** PHQ-9 item 9 (thoughts of being better off dead or of self-harm) answered above 0. */
  selfHarmFlag: boolean;
  /** Items answered out of those the instrument sums (a partial score is marked so). */
  answered: number;
  itemCount: number;
}

/** PHQ-9 (Kroenke, Spitzer & Williams 2001): 0–4, 5–9, 10–14, 15–19, 20–27. */
export function phq9Severity(score: number): Severity {
  if (score <= 4) {
    return 'minimal';
  }
  if (score <= 9) {
    return 'mild';
  }
  if (score <= 14) {
    return 'moderate';
  }
  if (score <= 19) {
    return 'moderatelySevere';
  }
  return 'severe';
}

/** GAD-7 (Spitzer et al. 2006): 0–4 minimal, 5–9 mild, 10–14 moderate, 15–21 severe. */
export function gad7Severity(score: number): Severity {
  if (score <= 4) {
    return 'minimal';
  }
  if (score <= 9) {
    return 'mild';
  }
  if (score <= 14) {
    return 'moderate';
  }
  return 'severe';
}

/** The summed items of each instrument (linkIds of the shipped questionnaires). */
export const instrumentItems: Record<Instrument, readonly string[]> = {
  phq9: ['phq9-1', 'phq9-2', 'phq9-3', 'phq9-4', 'phq9-5', 'phq9-6', 'phq9-7', 'phq9-8', 'phq9-9'],
  gad7: ['gad7-1', 'gad7-2', 'gad7-3', 'gad7-4', 'gad7-5', 'gad7-6', 'gad7-7'],
};
export const phq9SelfHarmItem = 'phq9-9';

/** The points of an answer: the option's ordinal value, else its code when that is a number. */
function pointsOf(item: QuestionnaireItem | undefined, answer: AnswerValue | undefined): number | undefined {
  const code = answer?.valueCoding?.code;
  if (code === undefined) {
    return undefined;
  }
  const option = item?.answerOption?.find((candidate) => candidate.valueCoding?.code === code);
  const ordinal = option?.valueCoding === undefined ? undefined : ordinalOf(option.valueCoding);
  if (ordinal !== undefined) {
    return ordinal;
  }
  const numeric = Number(code);
  return Number.isFinite(numeric) ? numeric : undefined;
}

/** The instrument's score, band and (PHQ-9) item-9 flag from the answers. */
export function scoreInstrument(
  instrument: Instrument,
  questionnaire: Pick<Questionnaire, 'item'>,
  answers: AnswerMap,
): InstrumentScore {
  const items = new Map(flattenItems(questionnaire.item).map((item) => [item.linkId, item]));
  const linkIds = instrumentItems[instrument];
  let score = 0;
  let answered = 0;
  for (const linkId of linkIds) {
    const points = pointsOf(items.get(linkId), answers[linkId]?.[0]);
    if (points !== undefined) {
      score += points;
      answered += 1;
    }
  }
  const selfHarm =
    instrument === 'phq9' ? (pointsOf(items.get(phq9SelfHarmItem), answers[phq9SelfHarmItem]?.[0]) ?? 0) : 0;
  return {
    instrument,
    score,
    severity: instrument === 'phq9' ? phq9Severity(score) : gad7Severity(score),
    selfHarmFlag: selfHarm > 0,
    answered,
    itemCount: linkIds.length,
  };
}
