import type { OutboxMessage } from '@telemedicina/shared/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /outbox/:id` → one message with its HTML and text versions. */
export async function getOutboxMessage(id: string, signal?: AbortSignal): Promise<OutboxMessage> {
  return api.get<OutboxMessage>(`/outbox/${encodeURIComponent(id)}`, { signal, alertOnError: false });
}

export const outboxMessageQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.outbox.message(id),
    queryFn: ({ signal }) => getOutboxMessage(id, signal),
    enabled: id !== '',
    retry: false,
    staleTime: 60_000,
  });

export function useOutboxMessage(id: string) {
  return useQuery(outboxMessageQuery(id));
}
