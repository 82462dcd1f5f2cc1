import type { Coding, Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import {
  codingText,
  isScale,
  itemControlExtensionUrl,
  itemText,
  maxValueExtensionUrl,
  maxValueOf,
  minValueExtensionUrl,
  minValueOf,
  textIn,
  unitExtensionUrl,
  unitOf,
} from '@telemedicina/shared/intake-logic';
import {
  type BuilderQuestionnaire,
  type BuilderQuestionnaireItem,
  englishElement,
} from '@telemedicina/shared/questionnaire-builder';

/*
 * The builder's working copy of a questionnaire: a flat list in which a section starts a group that
 * holds the questions after it (until the next section), so items are added, moved and removed in
 * one list. `toQuestionnaire` writes the FHIR R4 resource the server publishes; `fromQuestionnaire`
 * reads a published version back.
 */

export const draftTypes = [
  'string',
  'text',
  'choice',
  'multipleChoice',
  'integer',
  'decimal',
  'scale',
  'date',
  'boolean',
  'section',
] as const;
export type DraftType = (typeof draftTypes)[number];

export interface DraftOption {
  code: string;
  es: string;
  en: string;
}

/** "Show only when <question> <operator> <answer>": the answer as text (an option's code, true/false, a number). */
export interface DraftCondition {
  question: string;
  operator: '=' | '>=' | '<=';
  answer: string;
}

export interface DraftItem {
  linkId: string;
  type: DraftType;
  es: string;
  en: string;
  required: boolean;
  options: DraftOption[];
  unitEs: string;
  unitEn: string;
  min: number | null;
  max: number | null;
  condition: DraftCondition | null;
}

export interface Draft {
  titleEs: string;
  titleEn: string;
  items: DraftItem[];
}

let counter = 0;
/** A fresh identifier (linkId, option code) unlikely to meet another in the same questionnaire. */
export function freshId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}${counter.toString(36)}`;
}

export function newItem(type: DraftType): DraftItem {
  const isChoice = type === 'choice' || type === 'multipleChoice';
  return {
    linkId: freshId(type === 'section' ? 's' : 'q'),
    type,
    es: '',
    en: '',
    required: false,
    options: isChoice ? [{ code: freshId('o'), es: '', en: '' }] : [],
    unitEs: '',
    unitEn: '',
    min: type === 'scale' ? 0 : null,
    max: type === 'scale' ? 10 : null,
    condition: null,
  };
}

export function emptyDraft(): Draft {
  return { titleEs: '', titleEn: '', items: [newItem('string')] };
}

/** The questions an item may depend on: the answerable ones before it whose answers can be picked. */
export function conditionSources(items: readonly DraftItem[], index: number): DraftItem[] {
  return items
    .slice(0, index)
    .filter((item) =>
      ['choice', 'multipleChoice', 'boolean', 'integer', 'decimal', 'scale'].includes(item.type),
    );
}

function enableWhenOf(item: DraftItem, items: readonly DraftItem[]): Partial<BuilderQuestionnaireItem> {
  const condition = item.condition;
  const source = items.find((candidate) => candidate.linkId === condition?.question);
  if (condition === null || condition.answer === '') {
    return {};
  }
  const base = { question: condition.question, operator: condition.operator };
  if (source?.type === 'boolean') {
    return { enableWhen: [{ ...base, operator: '=', answerBoolean: condition.answer === 'true' }] };
  }
  if (source?.type === 'choice' || source?.type === 'multipleChoice') {
    return { enableWhen: [{ ...base, operator: '=', answerCoding: { code: condition.answer } }] };
  }
  if (source?.type === 'decimal') {
    return { enableWhen: [{ ...base, answerDecimal: Number(condition.answer) }] };
  }
  // An unknown source is still written, so the server can name the problem.
  return { enableWhen: [{ ...base, answerInteger: Math.round(Number(condition.answer)) }] };
}

function rangeOf(item: DraftItem): BuilderQuestionnaireItem['extension'] {
  const isInteger = item.type === 'integer' || item.type === 'scale';
  const bound = (url: typeof minValueExtensionUrl | typeof maxValueExtensionUrl, value: number | null) =>
    value === null
      ? []
      : [isInteger ? { url, valueInteger: Math.round(value) } : { url, valueDecimal: value }];
  const unit: NonNullable<BuilderQuestionnaireItem['extension']> =
    item.type === 'integer' || item.type === 'decimal'
      ? item.unitEs.trim() === '' && item.unitEn.trim() === ''
        ? []
        : [
            {
              url: unitExtensionUrl,
              valueCoding: {
                code: item.unitEn || item.unitEs,
                display: item.unitEs,
                _display: englishElement(item.unitEn),
              },
            },
          ]
      : [];
  const slider: NonNullable<BuilderQuestionnaireItem['extension']> =
    item.type === 'scale'
      ? [{ url: itemControlExtensionUrl, valueCodeableConcept: { coding: [{ code: 'slider' as const }] } }]
      : [];
  return [
    ...bound(minValueExtensionUrl, item.min),
    ...bound(maxValueExtensionUrl, item.max),
    ...unit,
    ...slider,
  ];
}

function questionOf(item: DraftItem, items: readonly DraftItem[]): BuilderQuestionnaireItem {
  const type =
    item.type === 'multipleChoice'
      ? 'choice'
      : item.type === 'scale'
        ? 'integer'
        : item.type === 'section'
          ? 'group'
          : item.type;
  const extension = item.type === 'section' ? [] : (rangeOf(item) ?? []);
  return {
    linkId: item.linkId,
    type,
    text: item.es,
    _text: englishElement(item.en),
    ...(item.type === 'section' ? {} : { required: item.required }),
    ...(item.type === 'multipleChoice' ? { repeats: true } : {}),
    ...(extension.length > 0 ? { extension } : {}),
    ...(type === 'choice'
      ? {
          answerOption: item.options.map((option) => ({
            valueCoding: { code: option.code, display: option.es, _display: englishElement(option.en) },
          })),
        }
      : {}),
    ...enableWhenOf(item, items),
  };
}

/** The FHIR R4 Questionnaire the server publishes. */
export function toQuestionnaire(draft: Draft): BuilderQuestionnaire {
  const top: BuilderQuestionnaireItem[] = [];
  let section: BuilderQuestionnaireItem | null = null;
  for (const item of draft.items) {
    const written = questionOf(item, draft.items);
    if (item.type === 'section') {
      section = { ...written, item: [] };
      top.push(section);
    } else if (section !== null) {
      section.item = [...(section.item ?? []), written];
    } else {
      top.push(written);
    }
  }
  return {
    resourceType: 'Questionnaire',
    title: draft.titleEs,
    _title: englishElement(draft.titleEn),
    item: top,
  };
}

function draftTypeOf(item: QuestionnaireItem): DraftType {
  if (item.type === 'group') {
    return 'section';
  }
  if (item.type === 'choice') {
    return item.repeats === true ? 'multipleChoice' : 'choice';
  }
  if (item.type === 'integer' && isScale(item)) {
    return 'scale';
  }
  return (draftTypes as readonly string[]).includes(item.type) ? (item.type as DraftType) : 'string';
}

function conditionOf(item: QuestionnaireItem): DraftCondition | null {
  const [first] = item.enableWhen ?? [];
  if (first === undefined) {
    return null;
  }
  const answer =
    first.answerCoding?.code ??
    (first.answerBoolean === undefined ? undefined : String(first.answerBoolean)) ??
    (first.answerInteger ?? first.answerDecimal)?.toString() ??
    '';
  const operator = first.operator === '>=' || first.operator === '<=' ? first.operator : '=';
  return { question: first.question, operator, answer };
}

function draftItemOf(item: QuestionnaireItem): DraftItem {
  const unit: Coding | undefined = unitOf(item);
  return {
    linkId: item.linkId,
    type: draftTypeOf(item),
    es: itemText(item, 'es'),
    en: textIn(undefined, (item as { _text?: Parameters<typeof textIn>[1] })._text, 'en'),
    required: item.required === true,
    options: (item.answerOption ?? []).flatMap((option) =>
      option.valueCoding?.code === undefined
        ? []
        : [
            {
              code: option.valueCoding.code,
              es: codingText(option.valueCoding, 'es'),
              en: textIn(
                undefined,
                (option.valueCoding as { _display?: Parameters<typeof textIn>[1] })._display,
                'en',
              ),
            },
          ],
    ),
    unitEs: unit === undefined ? '' : codingText(unit, 'es'),
    unitEn: unit === undefined ? '' : codingText(unit, 'en'),
    min: minValueOf(item) ?? null,
    max: maxValueOf(item) ?? null,
    condition: conditionOf(item),
  };
}

/** A published version as the builder edits it (groups become sections followed by their items). */
export function fromQuestionnaire(
  questionnaire: Pick<Questionnaire, 'title' | 'item'> & { _title?: unknown },
): Draft {
  const items: DraftItem[] = [];
  for (const item of questionnaire.item ?? []) {
    items.push(draftItemOf(item));
    for (const child of item.type === 'group' ? (item.item ?? []) : []) {
      items.push(draftItemOf(child));
    }
  }
  return {
    titleEs: questionnaire.title ?? '',
    titleEn: textIn(undefined, questionnaire._title as Parameters<typeof textIn>[1], 'en'),
    items,
  };
}

/** Moves the item at `from` one place up (-1) or down (+1). */
export function moveItem(items: readonly DraftItem[], from: number, step: -1 | 1): DraftItem[] {
  const to = from + step;
  if (to < 0 || to >= items.length) {
    return [...items];
  }
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) {
    next.splice(to, 0, moved);
  }
  return next;
}
