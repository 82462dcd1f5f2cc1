import {
  prescriptionVerificationSchema,
  type PrescriptionVerification,
} from '@telemedicina/shared/prescriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /prescriptions/verify/:code` (public): valid or not, date, doctor — never the patient. */
export async function verifyPrescription(
  code: string,
  signal?: AbortSignal,
): Promise<PrescriptionVerification> {
  const body = await api.get<unknown>(`/prescriptions/verify/${encodeURIComponent(code)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(prescriptionVerificationSchema, body);
}

export function usePrescriptionVerification(code: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.prescriptions.verification(code),
      queryFn: ({ signal }) => verifyPrescription(code, signal),
      retry: false,
      enabled: code !== '',
    }),
  );
}
