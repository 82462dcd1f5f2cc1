import type { OutboxItem } from '@telemedicina/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface OutboxPage {
  data: OutboxItem[];
  page: number;
  pageSize: number;
  total: number;
}

export interface OutboxRequest {
  page: number;
  pageSize: number;
  q: string;
}

/** `GET /outbox?page&pageSize&q` → one page of stored emails, newest first. */
export async function getOutbox(
  { page, pageSize, q }: OutboxRequest,
  signal?: AbortSignal,
): Promise<OutboxPage> {
  const body = await api.get<OutboxPage>('/outbox', {
    query: { page, pageSize, q },
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
    queryKey: ['outbox', request.page, request.pageSize, request.q],
    queryFn: ({ signal }) => getOutbox(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useOutbox(request: OutboxRequest) {
  return useQuery(outboxQuery(request));
}
