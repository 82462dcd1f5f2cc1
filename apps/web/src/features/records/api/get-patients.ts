import { patientPageSchema, type PatientPage } from '@telemedicina/shared/records';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

export interface PatientsRequest {
  page: number;
  pageSize: number;
  q: string | undefined;
}

/** `GET /patients?q&page&pageSize` → a doctor's own patients, or every patient for staff. */
export async function getPatients(request: PatientsRequest, signal?: AbortSignal): Promise<PatientPage> {
  const body = await api.get<unknown>('/patients', { query: { ...request }, signal, alertOnError: false });
  return parseAnswer(patientPageSchema, body);
}

export const patientsQuery = (request: PatientsRequest) =>
  queryOptions({
    queryKey: queryKeys.patients.list(request),
    queryFn: ({ signal }) => getPatients(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function usePatients(request: PatientsRequest) {
  return useQuery(patientsQuery(request));
}
