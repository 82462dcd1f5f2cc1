import { conditionSchema, type Condition, type CreateConditionRequest } from '@telemedicina/shared/records';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /patients/:patientId/conditions` → 201 (an unknown catalogue code → 400 on `diagnosisCode`). */
export async function addCondition(patientId: string, request: CreateConditionRequest): Promise<Condition> {
  const body = await api.post<unknown>(`/patients/${encodeURIComponent(patientId)}/conditions`, request, {
    alertOnError: false,
  });
  return parseAnswer(conditionSchema, body);
}

export function useAddCondition(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateConditionRequest) => addCondition(patientId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
