import { auditFacetsResponseSchema, type AuditFacetsResponse } from '@telemedicina/shared/admin';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /audit-events/facets` → the actions and record types the log holds (for the filter lists). */
export async function getAuditFacets(signal?: AbortSignal): Promise<AuditFacetsResponse> {
  const body = await api.get<unknown>('/audit-events/facets', {
    signal,
    showSpinner: false,
    alertOnError: false,
  });
  return parseAnswer(auditFacetsResponseSchema, body);
}

export const auditFacetsQuery = queryOptions({
  queryKey: queryKeys.auditEvents.facets(),
  queryFn: ({ signal }) => getAuditFacets(signal),
  retry: false,
  staleTime: 60_000,
});

export function useAuditFacets() {
  return useQuery(auditFacetsQuery);
}
