import { patientLookupResultSchema, type PatientMatch } from '@telemedicina/shared/reception';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /patients/lookup?q=`: patients by name, email, phone or date of birth (at most 20). */
export async function lookUpPatients(q: string, signal?: AbortSignal): Promise<PatientMatch[]> {
  const body = await api.get<unknown>('/patients/lookup', {
    query: { q },
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(patientLookupResultSchema, body).data;
}

/** Searches once the text has two characters or more. */
export function usePatientLookup(q: string) {
  const text = q.trim();
  return useQuery(
    queryOptions({
      queryKey: queryKeys.patients.lookup(text),
      queryFn: ({ signal }) => lookUpPatients(text, signal),
      enabled: text.length >= 2,
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}
