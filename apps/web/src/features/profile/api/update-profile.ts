import type { MeResponse, UpdateProfileRequest } from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { isMeResponse, storeMe } from '../../../lib/session';

/** `PATCH /me` → the updated user. */
export async function updateProfile(body: UpdateProfileRequest): Promise<MeResponse> {
  const me = await api.patch<unknown>('/me', body, { alertOnError: false });
  if (!isMeResponse(me)) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', me);
  }
  return me;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateProfile, onSuccess: (me) => storeMe(queryClient, me) });
}
