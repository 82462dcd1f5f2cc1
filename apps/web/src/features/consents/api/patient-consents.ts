import { patientConsentsSchema, type PatientConsents } from '@telemedicina/shared/consents';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /patients/:id/consents`: the patient or a doctor who treats them (404 for anyone else). */
export async function getPatientConsents(patientId: string, signal?: AbortSignal): Promise<PatientConsents> {
  const body = await api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/consents`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(patientConsentsSchema, body);
}

export function patientConsentsQuery(patientId: string) {
  return queryOptions({
    queryKey: queryKeys.consents.ofPatient(patientId),
    queryFn: ({ signal }) => getPatientConsents(patientId, signal),
    retry: false,
  });
}

export function usePatientConsents(patientId: string | undefined) {
  return useQuery({
    ...patientConsentsQuery(patientId ?? ''),
    enabled: patientId !== undefined && patientId !== '',
  });
}
