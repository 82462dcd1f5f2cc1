import type { LoginRequest, MeResponse } from '@telemedicina/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../../lib/api-client';
import { isMeResponse, storeMe } from '../../../lib/session';

/**
 * `POST /auth/login`. Failures are shown inside the form (wrong password, second factor needed,
 * lockout…), so the request never opens the global dialog.
 */
export async function signIn(body: LoginRequest): Promise<MeResponse> {
  const me = await api.post<unknown>('/auth/login', body, { alertOnError: false });
  if (!isMeResponse(me)) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected login answer', me);
  }
  return me;
}

/** Signs in; on success the page's session is the new user's (the sign-in page then moves on). */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: signIn, onSuccess: (me) => storeMe(queryClient, me) });
}
