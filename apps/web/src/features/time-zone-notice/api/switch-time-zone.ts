import type { MeResponse, UpdateProfileRequest } from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { isMeResponse, storeMe } from '../../../lib/session';

/**
 * `PATCH /me` with only the time zone → the updated user. The profile's own request, kept here
 * without its zod schema so the signed-in frame does not load the profile area's contracts.
 */
export async function switchTimeZone(timeZone: string): Promise<MeResponse> {
  const body: UpdateProfileRequest = { timeZone };
  const me = await api.patch<unknown>('/me', body, { alertOnError: false });
  if (!isMeResponse(me)) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', me);
  }
  return me;
}

export function useSwitchTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: switchTimeZone, onSuccess: (me) => storeMe(queryClient, me) });
}
