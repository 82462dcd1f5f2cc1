import { globalSearchResponseSchema, type GlobalSearchResponse } from '@telemedicina/shared/search';
import { parseAnswer } from '../../../lib/parse-answer';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Shortest text the header's search sends (the server refuses shorter ones). */
export const minSearchLength = 2;

/**
 * `GET /search?q=` → up to five hits per group; a group is present only when the session may see
 * that kind of record. Quiet: no spinner (the box shows its own) and no alert (the list says so).
 */
export async function globalSearch(q: string, signal?: AbortSignal): Promise<GlobalSearchResponse> {
  const body = await api.get<unknown>('/search', {
    query: { q },
    signal,
    showSpinner: false,
    alertOnError: false,
  });
  return parseAnswer(globalSearchResponseSchema, body);
}

export const globalSearchQuery = (q: string) =>
  queryOptions({
    queryKey: queryKeys.globalSearch(q),
    queryFn: ({ signal }) => globalSearch(q, signal),
    enabled: q.length >= minSearchLength,
    retry: false,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });

export function useGlobalSearch(q: string) {
  return useQuery(globalSearchQuery(q));
}
