import type { Questionnaire, QuestionnaireItem } from '@medplum/fhirtypes';
import { flattenItems, itemText, maxValueOf, minValueOf, textIn, unitOf } from './intake-logic.js';
import type { DefinitionProblemKind } from './questionnaire-builder.js';

/*
 * What is wrong with a questionnaire the clinic wants to publish, item by item: the server answers
 * 422 naming each, the builder shows the same before saving. Pure; shared by both sides.
 */

export interface QuestionnaireDefinitionProblem {
  /** The item's linkId; empty for the questionnaire's title. */
  linkId: string;
  problem: DefinitionProblemKind;
}

function hasBothLanguages(es: string, en: string): boolean {
  return es.trim() !== '' && en.trim() !== '';
}

/**
 * Problems of the definition: a title and every item's words in Spanish and English, linkIds used
 * once, a condition (`enableWhen`) only on an earlier question, choices with at least one option
 * (codes once, words in both languages), min not above max, sections (groups) at the top level and
 * holding something. Empty when it can be published.
 */
export function questionnaireDefinitionProblems(
  questionnaire: Pick<Questionnaire, 'title' | 'item'> & { _title?: unknown },
): QuestionnaireDefinitionProblem[] {
  const problems: QuestionnaireDefinitionProblem[] = [];
  const titleElement = questionnaire._title as Parameters<typeof textIn>[1];
  if (
    !hasBothLanguages(textIn(questionnaire.title, undefined, 'es'), textIn(undefined, titleElement, 'en'))
  ) {
    problems.push({ linkId: '', problem: 'missingTitle' });
  }
  const all = flattenItems(questionnaire.item);
  const position = new Map<string, number>();
  all.forEach((item, index) => {
    if (position.has(item.linkId)) {
      problems.push({ linkId: item.linkId, problem: 'duplicateLinkId' });
    } else {
      position.set(item.linkId, index);
    }
  });
  for (const item of questionnaire.item ?? []) {
    if (item.type === 'group') {
      if ((item.item ?? []).length === 0) {
        problems.push({ linkId: item.linkId, problem: 'emptySection' });
      }
      for (const child of item.item ?? []) {
        if (child.type === 'group') {
          problems.push({ linkId: child.linkId, problem: 'nestedSection' });
        }
      }
    }
  }
  all.forEach((item, index) => problems.push(...itemProblems(item, index, all, position)));
  return problems;
}

function itemProblems(
  item: QuestionnaireItem,
  index: number,
  all: readonly QuestionnaireItem[],
  position: ReadonlyMap<string, number>,
): QuestionnaireDefinitionProblem[] {
  const problems: QuestionnaireDefinitionProblem[] = [];
  const add = (problem: DefinitionProblemKind): void => {
    problems.push({ linkId: item.linkId, problem });
  };
  if (!hasBothLanguages(item.text ?? '', englishOf(item))) {
    add('missingText');
  }
  for (const condition of item.enableWhen ?? []) {
    const at = position.get(condition.question);
    if (condition.question === item.linkId) {
      add('enableWhenSelf');
    } else if (at === undefined || all[at]?.type === 'group') {
      add('enableWhenUnknown');
    } else if (at > index) {
      add('enableWhenLater');
    }
  }
  if (item.type === 'choice') {
    const options = (item.answerOption ?? []).flatMap((option) =>
      option.valueCoding === undefined ? [] : [option.valueCoding],
    );
    if (options.length === 0) {
      add('emptyChoices');
    }
    const codes = options.map((option) => option.code);
    if (new Set(codes).size !== codes.length) {
      add('duplicateOption');
    }
    if (options.some((option) => !hasBothLanguages(option.display ?? '', englishDisplay(option)))) {
      add('missingOptionText');
    }
  }
  const min = minValueOf(item);
  const max = maxValueOf(item);
  if (min !== undefined && max !== undefined && min > max) {
    add('minAboveMax');
  }
  const unit = unitOf(item);
  if (
    unit !== undefined &&
    !hasBothLanguages(unit.display ?? '', englishDisplay(unit)) &&
    !problems.some((problem) => problem.problem === 'missingText')
  ) {
    add('missingText');
  }
  return problems;
}

function englishOf(item: QuestionnaireItem): string {
  const element = (item as { _text?: Parameters<typeof textIn>[1] })._text;
  return textIn(undefined, element, 'en');
}

function englishDisplay(coding: NonNullable<ReturnType<typeof unitOf>>): string {
  const element = (coding as { _display?: Parameters<typeof textIn>[1] })._display;
  return element === undefined ? '' : textIn(undefined, element, 'en');
}

/** The item's words for a message: its question in `language`, else its linkId. */
export function definitionItemText(
  questionnaire: Pick<Questionnaire, 'item'>,
  linkId: string,
  language: 'es' | 'en',
): string {
  const item = flattenItems(questionnaire.item).find((candidate) => candidate.linkId === linkId);
  const text = item === undefined ? '' : itemText(item, language).trim();
  return text === '' ? linkId : text;
}
