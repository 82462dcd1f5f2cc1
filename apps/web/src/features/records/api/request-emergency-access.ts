import {
  emergencyAccessSchema,
  type EmergencyAccess,
  type EmergencyAccessRequest,
} from '@telemedicina/shared/records';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /patients/:patientId/emergency-access` → 201: the chart opens for 60 minutes (audited, the patient is told). */
export async function requestEmergencyAccess(
  patientId: string,
  request: EmergencyAccessRequest,
): Promise<EmergencyAccess> {
  const body = await api.post<unknown>(
    `/patients/${encodeURIComponent(patientId)}/emergency-access`,
    request,
    {
      alertOnError: false,
    },
  );
  return parseAnswer(emergencyAccessSchema, body);
}

export function useRequestEmergencyAccess(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: EmergencyAccessRequest) => requestEmergencyAccess(patientId, request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
