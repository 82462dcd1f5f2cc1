import { diagnosisListSchema, type Diagnosis } from '@telemedicina/shared/prescriptions';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /diagnoses?q=&limit=`: catalogue entries by code prefix or words in either language. */
export async function searchDiagnoses(q: string, limit: number, signal?: AbortSignal): Promise<Diagnosis[]> {
  const body = await api.get<unknown>('/diagnoses', {
    query: { q, limit },
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(diagnosisListSchema, body).items;
}

export function useDiagnosisSearch(q: string, limit = 10) {
  const text = q.trim();
  return useQuery(
    queryOptions({
      queryKey: queryKeys.diagnoses(text, limit),
      queryFn: ({ signal }) => searchDiagnoses(text, limit, signal),
      enabled: text.length > 0,
      placeholderData: keepPreviousData,
      staleTime: 5 * 60_000,
      retry: false,
    }),
  );
}
