import { connectedAppListSchema, type ConnectedApp } from '@telemedicina/shared/smart';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /me/connected-apps` → the apps the person connected, what each may read, its last read. */
export async function getConnectedApps(signal?: AbortSignal): Promise<ConnectedApp[]> {
  const answer = await api.get<unknown>('/me/connected-apps', { signal, showSpinner: false });
  return parseAnswer(connectedAppListSchema, answer).data;
}

export const connectedAppsQuery = queryOptions({
  queryKey: queryKeys.connectedApps.mine(),
  queryFn: ({ signal }) => getConnectedApps(signal),
  staleTime: 0,
});

export function useConnectedApps() {
  return useQuery(connectedAppsQuery);
}

/** `DELETE /me/connected-apps/:id` → 204: the app's access and tokens are revoked. */
export async function disconnectApp(id: string): Promise<void> {
  await api.delete(`/me/connected-apps/${encodeURIComponent(id)}`);
}

export function useDisconnectApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnectApp,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectedApps.mine() }),
  });
}
