import type { Questionnaire, QuestionnaireResponse } from '@medplum/fhirtypes';
import { answersOf, flattenItems } from '@telemedicina/shared/intake-logic';
import { readableAnswers, type ReadableAnswer } from '@telemedicina/shared/intake-summary';
import { formatCalendarDate } from '../../../lib/clock';

/** A date answer (`YYYY-MM-DD`, a calendar date with no zone) as the reader reads dates: "2 nov 2026". */
export function formatDateAnswer(day: string, language: string): string {
  return formatCalendarDate(day, language, { dateStyle: 'medium' });
}

/**
 * `readableAnswers` for a person reading on screen (beside the call, the note insert): the same
 * lines, with date answers written in the reader's language instead of as stored.
 */
export function readerAnswers(
  questionnaire: Pick<Questionnaire, 'item'>,
  response: Pick<QuestionnaireResponse, 'item'>,
  language: 'es' | 'en',
): ReadableAnswer[] {
  const dateItems = new Set(
    flattenItems(questionnaire.item)
      .filter((item) => item.type === 'date')
      .map((item) => item.linkId),
  );
  const answers = answersOf(response);
  return readableAnswers(questionnaire, response, language).map((line) =>
    dateItems.has(line.linkId)
      ? {
          ...line,
          answer: (answers[line.linkId] ?? [])
            .map((value) =>
              value.valueDate !== undefined
                ? formatDateAnswer(value.valueDate, language)
                : (value.valueString ?? ''),
            )
            .join(', '),
        }
      : line,
  );
}
