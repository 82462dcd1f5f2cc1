import { type QuestionnaireList, questionnaireListSchema } from '@telemedicina/shared/questionnaire-builder';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /questionnaires`: every one for the clinic; the shipped instruments and their own for a doctor. */
export async function getQuestionnaires(signal?: AbortSignal): Promise<QuestionnaireList> {
  const body = await api.get<unknown>('/questionnaires', { signal, alertOnError: false });
  return parseAnswer(questionnaireListSchema, body);
}

export const questionnairesQuery = () =>
  queryOptions({
    queryKey: queryKeys.questionnaireBuilder.list(),
    queryFn: ({ signal }) => getQuestionnaires(signal),
    retry: false,
  });

export function useQuestionnaires() {
  return useQuery(questionnairesQuery());
}
