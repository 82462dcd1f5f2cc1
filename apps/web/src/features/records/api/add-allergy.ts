import { allergySchema, type Allergy, type CreateAllergyRequest } from '@telemedicina/shared/records';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /patients/:patientId/allergies` → 201 with the allergy. */
export async function addAllergy(patientId: string, request: CreateAllergyRequest): Promise<Allergy> {
  const body = await api.post<unknown>(`/patients/${encodeURIComponent(patientId)}/allergies`, request, {
    alertOnError: false,
  });
  return parseAnswer(allergySchema, body);
}

export function useAddAllergy(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateAllergyRequest) => addAllergy(patientId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
