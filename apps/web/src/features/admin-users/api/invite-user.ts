import {
  invitationCreatedResponseSchema,
  type CreateInvitationRequest,
  type InvitationCreatedResponse,
} from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /invitations` → 201 `{ id, expiresAt }`; the invitation email goes out (409 CONFLICT: email taken). */
export async function inviteUser(body: CreateInvitationRequest): Promise<InvitationCreatedResponse> {
  const answer = await api.post<unknown>('/invitations', body, { alertOnError: false });
  return parseAnswer(invitationCreatedResponseSchema, answer);
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers.lists() }),
  });
}
