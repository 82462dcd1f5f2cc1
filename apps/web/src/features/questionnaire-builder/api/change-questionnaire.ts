import {
  type AssignQuestionnaireRequest,
  type QuestionnaireDetail,
  questionnaireDetailSchema,
} from '@telemedicina/shared/questionnaire-builder';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** What changes a questionnaire's state without a new version. */
export type QuestionnaireChange =
  | { kind: 'archive'; archived: boolean }
  | { kind: 'assign'; target: AssignQuestionnaireRequest }
  | { kind: 'unassign'; assignmentId: string };

/**
 * `PATCH /questionnaires/:id` (archive or bring back), `POST /questionnaires/:id/assignments`,
 * `DELETE /questionnaires/:id/assignments/:assignmentId` → the questionnaire as it now is.
 */
export async function changeQuestionnaire(
  id: string,
  change: QuestionnaireChange,
): Promise<QuestionnaireDetail> {
  const base = `/questionnaires/${encodeURIComponent(id)}`;
  const answer =
    change.kind === 'archive'
      ? await api.patch<unknown>(base, { archived: change.archived })
      : change.kind === 'assign'
        ? await api.post<unknown>(`${base}/assignments`, change.target)
        : await api.delete<unknown>(`${base}/assignments/${encodeURIComponent(change.assignmentId)}`);
  return parseAnswer(questionnaireDetailSchema, answer);
}

export function useChangeQuestionnaire(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: QuestionnaireChange) => changeQuestionnaire(id, change),
    onSuccess: async (saved) => {
      queryClient.setQueryData(queryKeys.questionnaireBuilder.detail(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: queryKeys.questionnaireBuilder.list() });
    },
  });
}
