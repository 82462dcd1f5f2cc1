import { initialAccessTokenSchema, registeredAppListSchema } from '@telemedicina/shared/smart';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /smart/apps` → registered apps (administrators) and whether open registration is on. */
export async function getRegisteredApps(signal?: AbortSignal) {
  const answer = await api.get<unknown>('/smart/apps', { signal, showSpinner: false });
  return parseAnswer(registeredAppListSchema, answer);
}

export const registeredAppsQuery = queryOptions({
  queryKey: queryKeys.connectedApps.registered(),
  queryFn: ({ signal }) => getRegisteredApps(signal),
  staleTime: 0,
});

export function useRegisteredApps() {
  return useQuery(registeredAppsQuery);
}

function useRefreshingMutation<T>(mutationFn: (input: T) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.connectedApps.registered() }),
  });
}

/** `PATCH /smart/apps/:clientId` → 204: blocks or unblocks the app. */
export function useSetAppBlocked() {
  return useRefreshingMutation(async (input: { clientId: string; blocked: boolean }) => {
    await api.patch(`/smart/apps/${encodeURIComponent(input.clientId)}`, { blocked: input.blocked });
  });
}

/** `PUT /smart/registration` → 204: opens or closes registration without a code. */
export function useSetOpenRegistration() {
  return useRefreshingMutation(async (openRegistration: boolean) => {
    await api.put('/smart/registration', { openRegistration });
  });
}

/** `POST /smart/initial-access-tokens` → a code that registers one app, valid a day. */
export function useIssueRegistrationToken() {
  return useMutation({
    mutationFn: async () =>
      parseAnswer(initialAccessTokenSchema, await api.post<unknown>('/smart/initial-access-tokens')),
  });
}
