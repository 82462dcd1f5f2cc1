import type { UpdatePatientProfileRequest } from '@telemedicina/shared/records';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /patients/:patientId/profile` → 204 (the patient: contact details and emergency contact only). */
export async function updatePatientProfile(
  patientId: string,
  request: UpdatePatientProfileRequest,
): Promise<void> {
  await api.patch<unknown>(`/patients/${encodeURIComponent(patientId)}/profile`, request, {
    alertOnError: false,
  });
}

export function useUpdatePatientProfile(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdatePatientProfileRequest) => updatePatientProfile(patientId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
