import {
  smartDecisionResponseSchema,
  smartInteractionSchema,
  type SmartInteraction,
} from '@telemedicina/shared/smart';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /smart/interactions/:uid` → the app asking and the permissions it asks for. */
export async function getSmartInteraction(uid: string, signal?: AbortSignal): Promise<SmartInteraction> {
  const answer = await api.get<unknown>(`/smart/interactions/${encodeURIComponent(uid)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(smartInteractionSchema, answer);
}

export const smartInteractionQuery = (uid: string) =>
  queryOptions({
    queryKey: queryKeys.connectedApps.interaction(uid),
    queryFn: ({ signal }) => getSmartInteraction(uid, signal),
    retry: false,
    staleTime: Infinity,
  });

export function useSmartInteraction(uid: string) {
  return useQuery(smartInteractionQuery(uid));
}

/** `POST /smart/interactions/:uid/decision` → where the browser goes next (back to the app). */
export async function decideSmartInteraction(input: {
  uid: string;
  decision: 'allow' | 'deny';
}): Promise<{ redirectTo: string }> {
  const answer = await api.post<unknown>(
    `/smart/interactions/${encodeURIComponent(input.uid)}/decision`,
    { decision: input.decision },
    { alertOnError: false },
  );
  return parseAnswer(smartDecisionResponseSchema, answer);
}

export function useDecideSmartInteraction() {
  return useMutation({ mutationFn: decideSmartInteraction });
}
