import { prescriptionSchema, type Prescription } from '@telemedicina/shared/prescriptions';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /prescriptions/:id` (the patient, the issuer, a doctor who treats the patient; else 404). */
export async function getPrescription(id: string, signal?: AbortSignal): Promise<Prescription> {
  const body = await api.get<unknown>(`/prescriptions/${encodeURIComponent(id)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(prescriptionSchema, body);
}

export function prescriptionQuery(id: string) {
  return queryOptions({
    queryKey: queryKeys.prescriptions.detail(id),
    queryFn: ({ signal }) => getPrescription(id, signal),
    retry: false,
  });
}

export function usePrescription(id: string) {
  return useQuery(prescriptionQuery(id));
}

/** `GET /prescriptions/:id/pdf`: a plain link (the session cookie goes with it), the server names the file. */
export function prescriptionPdfUrl(id: string): string {
  return `${appConfig.apiBaseUrl}/prescriptions/${encodeURIComponent(id)}/pdf`;
}
