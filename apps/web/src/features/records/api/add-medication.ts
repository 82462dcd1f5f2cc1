import {
  medicationSchema,
  type CreateMedicationRequest,
  type Medication,
} from '@telemedicina/shared/records';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /patients/:patientId/medications` → 201 with the medication. */
export async function addMedication(
  patientId: string,
  request: CreateMedicationRequest,
): Promise<Medication> {
  const body = await api.post<unknown>(`/patients/${encodeURIComponent(patientId)}/medications`, request, {
    alertOnError: false,
  });
  return parseAnswer(medicationSchema, body);
}

export function useAddMedication(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateMedicationRequest) => addMedication(patientId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
