import { prescriptionSchema, type Prescription } from '@telemedicina/shared/prescriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /prescriptions/:id/cancel {reason}` (the issuing doctor; 409 when already cancelled). */
export async function cancelPrescription(id: string, reason: string): Promise<Prescription> {
  const body = await api.post<unknown>(
    `/prescriptions/${encodeURIComponent(id)}/cancel`,
    { reason },
    { alertOnError: false },
  );
  return parseAnswer(prescriptionSchema, body);
}

export function useCancelPrescription(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) => cancelPrescription(id, reason),
    onSuccess: (prescription) => queryClient.setQueryData(queryKeys.prescriptions.detail(id), prescription),
  });
}
