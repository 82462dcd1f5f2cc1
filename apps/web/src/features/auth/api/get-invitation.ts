import type { InvitationInfo } from '@telemedicina/shared/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /auth/invitations/:token` → who is invited, with which roles; 400 TOKEN_INVALID. */
export async function getInvitation(token: string, signal?: AbortSignal): Promise<InvitationInfo> {
  return api.get<InvitationInfo>(`/auth/invitations/${encodeURIComponent(token)}`, {
    signal,
    alertOnError: false,
  });
}

export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.invitation(token),
    queryFn: ({ signal }) => getInvitation(token, signal),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });

export function useInvitation(token: string) {
  return useQuery(invitationQuery(token));
}
