import { auditEventPageSchema, type AuditEventPage, type AuditOutcome } from '@telemedicina/shared/admin';
import { parseAnswer } from '../../../lib/parse-answer';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { queryKeys } from '../../../lib/query-keys';

/** The viewer's filters (each optional) — the query string of the list and of the export. */
export interface AuditFilters {
  q?: string;
  actor?: string;
  action?: string;
  targetType?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
}

export type AuditRequest = AuditFilters & { page: number; pageSize: number };

const filterNames = ['q', 'actor', 'action', 'targetType', 'targetId', 'outcome', 'from', 'to'] as const;

/**
 * The filters as a query string, in a fixed order, leaving out the ones not set — what the list
 * request and the CSV link send (the server orders newest first by default).
 */
export function auditQueryString(filters: AuditFilters, paging?: { page: number; pageSize: number }): string {
  const params = new URLSearchParams();
  if (paging) {
    params.set('page', String(paging.page));
    params.set('pageSize', String(paging.pageSize));
  }
  for (const name of filterNames) {
    const value = filters[name];
    if (value !== undefined && value !== '') {
      params.set(name, value);
    }
  }
  return params.toString();
}

/** `GET /audit-events?…` → one page of events, newest first. The server audits the view itself. */
export async function getAuditEvents(request: AuditRequest, signal?: AbortSignal): Promise<AuditEventPage> {
  const { page, pageSize, ...filters } = request;
  const body = await api.get<unknown>(`/audit-events?${auditQueryString(filters, { page, pageSize })}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(auditEventPageSchema, body);
}

export const auditEventsQuery = (request: AuditRequest) =>
  queryOptions({
    queryKey: queryKeys.auditEvents.page(auditQueryString(request, request)),
    queryFn: ({ signal }) => getAuditEvents(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useAuditEvents(request: AuditRequest) {
  return useQuery(auditEventsQuery(request));
}

/** Address of `GET /audit-events/export.csv` with the current filters (a plain download link). */
export function auditExportUrl(filters: AuditFilters): string {
  const query = auditQueryString(filters);
  return `${appConfig.apiBaseUrl}/audit-events/export.csv${query ? `?${query}` : ''}`;
}
