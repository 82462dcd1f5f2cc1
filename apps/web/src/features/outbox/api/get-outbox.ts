import type { OutboxItem } from '@telemedicina/shared/auth';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface OutboxPage {
  data: OutboxItem[];
  page: number;
  pageSize: number;
  total: number;
}

export type OutboxStatus = OutboxItem['status'];

export interface OutboxRequest {
  page: number;
  pageSize: number;
  q: string;
  /** Only messages in this delivery status; all when absent. */
  status?: OutboxStatus;
}

/** `GET /outbox?page&pageSize&q&status` → one page of stored emails, newest first. */
export async function getOutbox(
  { page, pageSize, q, status }: OutboxRequest,
  signal?: AbortSignal,
): Promise<OutboxPage> {
  const body = await api.get<OutboxPage>('/outbox', {
    query: { page, pageSize, q, status },
    signal,
    alertOnError: false,
  });
  return {
    data: Array.isArray(body?.data) ? body.data : [],
    page: typeof body?.page === 'number' ? body.page : page,
    pageSize: typeof body?.pageSize === 'number' ? body.pageSize : pageSize,
    total: typeof body?.total === 'number' ? body.total : 0,
  };
}

export const outboxQuery = (request: OutboxRequest) =>
  queryOptions({
    queryKey: queryKeys.outbox.page(request.page, request.pageSize, request.q, request.status ?? ''),
    queryFn: ({ signal }) => getOutbox(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useOutbox(request: OutboxRequest) {
  return useQuery(outboxQuery(request));
}
