import { specialtyPageSchema } from '@telemedicina/shared/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** The clinic's active specialties a doctor may list (`GET /specialties?active=true`, up to 100). */
export async function getSpecialtyOptions(language: 'es' | 'en', signal?: AbortSignal) {
  const body = await api.get<unknown>('/specialties', {
    query: { page: 1, pageSize: 100, active: 'true', sort: 'name', order: 'asc', language },
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(specialtyPageSchema, body).data;
}

export function useSpecialtyOptions(language: 'es' | 'en') {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.specialtyOptions(language),
      queryFn: ({ signal }) => getSpecialtyOptions(language, signal),
      retry: false,
      staleTime: 60_000,
    }),
  );
}
