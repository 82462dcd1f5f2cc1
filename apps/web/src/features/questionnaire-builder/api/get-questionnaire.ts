import {
  type QuestionnaireDetail,
  questionnaireDetailSchema,
} from '@telemedicina/shared/questionnaire-builder';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /questionnaires/:id`: the latest version (FHIR JSON) and where it is assigned. */
export async function getQuestionnaire(id: string, signal?: AbortSignal): Promise<QuestionnaireDetail> {
  const body = await api.get<unknown>(`/questionnaires/${encodeURIComponent(id)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(questionnaireDetailSchema, body);
}

export const questionnaireQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.questionnaireBuilder.detail(id),
    queryFn: ({ signal }) => getQuestionnaire(id, signal),
    retry: false,
  });

/** The questionnaire, or nothing while creating a new one (`id` null). */
export function useQuestionnaire(id: string | null) {
  return useQuery({ ...questionnaireQuery(id ?? ''), enabled: id !== null });
}
