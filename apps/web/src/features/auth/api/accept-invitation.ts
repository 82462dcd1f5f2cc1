import type { AcceptInvitationRequest, MeResponse } from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { isMeResponse, storeMe } from '../../../lib/session';

/** `POST /auth/invitations/accept` → the new user, signed in (session cookie set). */
export async function acceptInvitation(body: AcceptInvitationRequest): Promise<MeResponse> {
  const me = await api.post<unknown>('/auth/invitations/accept', body, { alertOnError: false });
  if (!isMeResponse(me)) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', me);
  }
  return me;
}

export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: acceptInvitation, onSuccess: (me) => storeMe(queryClient, me) });
}
