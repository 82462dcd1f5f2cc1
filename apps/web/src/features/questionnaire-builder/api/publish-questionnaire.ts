import {
  type BuilderQuestionnaire,
  type QuestionnaireDetail,
  questionnaireDetailSchema,
} from '@telemedicina/shared/questionnaire-builder';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `POST /questionnaires` (id null: version 1 of a new one) or `POST /questionnaires/:id/versions`
 * (the next version) → 201 the questionnaire; 422 with `details.problems` naming the items.
 */
export async function publishQuestionnaire(input: {
  id: string | null;
  questionnaire: BuilderQuestionnaire;
}): Promise<QuestionnaireDetail> {
  const path =
    input.id === null ? '/questionnaires' : `/questionnaires/${encodeURIComponent(input.id)}/versions`;
  const answer = await api.post<unknown>(
    path,
    { questionnaire: input.questionnaire },
    { alertOnError: false },
  );
  return parseAnswer(questionnaireDetailSchema, answer);
}

export function usePublishQuestionnaire() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishQuestionnaire,
    onSuccess: async (saved) => {
      queryClient.setQueryData(queryKeys.questionnaireBuilder.detail(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: queryKeys.questionnaireBuilder.list() });
    },
  });
}
