import type { Questionnaire, QuestionnaireItem, QuestionnaireResponse } from '@medplum/fhirtypes';
import type { Language } from './i18n.js';
import { type AnswerValue, answersOf, codingText, flattenItems, itemText, unitOf } from './intake-logic.js';

/** One answered question in words: what the patient was asked and what they said. */
export interface ReadableAnswer {
  linkId: string;
  question: string;
  answer: string;
}

const yesNo: Record<Language, { yes: string; no: string }> = {
  es: { yes: 'Sí', no: 'No' },
  en: { yes: 'Yes', no: 'No' },
};

/** One answer value in words: the option's text in `language`, yes/no, a number with its unit. */
function answerText(item: QuestionnaireItem | undefined, value: AnswerValue, language: Language): string {
  if (value.valueCoding !== undefined) {
    const option = item?.answerOption?.find((entry) => entry.valueCoding?.code === value.valueCoding?.code);
    return codingText(option?.valueCoding ?? value.valueCoding, language) || (value.valueCoding.code ?? '');
  }
  if (value.valueBoolean !== undefined) {
    return value.valueBoolean ? yesNo[language].yes : yesNo[language].no;
  }
  const number = value.valueInteger ?? value.valueDecimal;
  if (number !== undefined) {
    const unit = item === undefined ? undefined : unitOf(item);
    const unitText = unit === undefined ? '' : codingText(unit, language);
    return unitText === '' ? String(number) : `${number} ${unitText}`;
  }
  return value.valueString ?? value.valueDate ?? '';
}

/**
 * The answers of a response as question/answer lines in the questionnaire's order and the reader's
 * language (the chart's note insert, the record export's summary). Unanswered items are left out.
 */
export function readableAnswers(
  questionnaire: Pick<Questionnaire, 'item'>,
  response: Pick<QuestionnaireResponse, 'item'>,
  language: Language,
): ReadableAnswer[] {
  const answers = answersOf(response);
  const out: ReadableAnswer[] = [];
  for (const item of flattenItems(questionnaire.item)) {
    const given = answers[item.linkId];
    if (item.type === 'group' || given === undefined || given.length === 0) {
      continue;
    }
    out.push({
      linkId: item.linkId,
      question: itemText(item, language),
      answer: given.map((value) => answerText(item, value, language)).join(', '),
    });
  }
  return out;
}
