import type { ActiveSession } from '@telemedicina/shared/auth';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /me/sessions` → the user's live sessions, this one marked `isCurrent`. */
export async function getSessions(signal?: AbortSignal): Promise<ActiveSession[]> {
  const body = await api.get<{ data: ActiveSession[] }>('/me/sessions', { signal, showSpinner: false });
  return Array.isArray(body?.data) ? body.data : [];
}

export const sessionsQuery = queryOptions({
  queryKey: queryKeys.mySessions(),
  queryFn: ({ signal }) => getSessions(signal),
  staleTime: 0,
});

export function useSessions() {
  return useQuery(sessionsQuery);
}

/** `DELETE /me/sessions/:id` → 204: signs that device out. */
export async function revokeSession(id: string): Promise<void> {
  await api.delete(`/me/sessions/${encodeURIComponent(id)}`);
}

/** `POST /me/sessions/revoke-others` → 204: every session but this one ends. */
export async function revokeOtherSessions(): Promise<void> {
  await api.post('/me/sessions/revoke-others');
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySessions() }),
  });
}

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySessions() }),
  });
}
