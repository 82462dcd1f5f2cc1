import {
  prescriptionSchema,
  type CreatePrescriptionRequest,
  type Prescription,
} from '@telemedicina/shared/prescriptions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /patients/:patientId/prescriptions` (a doctor who treats the patient). */
export async function createPrescription(
  patientId: string,
  request: CreatePrescriptionRequest,
): Promise<Prescription> {
  const body = await api.post<unknown>(`/patients/${encodeURIComponent(patientId)}/prescriptions`, request, {
    alertOnError: false,
  });
  return parseAnswer(prescriptionSchema, body);
}

export function useCreatePrescription(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreatePrescriptionRequest) => createPrescription(patientId, request),
    onSuccess: (prescription) => {
      queryClient.setQueryData(queryKeys.prescriptions.detail(prescription.id), prescription);
      void queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) });
    },
  });
}
