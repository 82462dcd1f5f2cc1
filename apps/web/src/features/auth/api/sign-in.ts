import type { LoginRequest, MeResponse } from '@telemedicina/shared/auth';
import { api, ApiError } from '../../../lib/api-client';
import { isMeResponse } from '../../../lib/me';

/**
 * `POST /auth/login`. Failures are shown inside the form (wrong password, second factor needed,
 * lockout…), so the request never opens the global dialog. A plain fetcher without a query hook:
 * the sign-in form runs before the query cache exists (`main.tsx`); whoever shows the form puts
 * the answer in the session (`SignInPage` stores it in the cache, the start page boots the app
 * with it).
 */
export async function signIn(body: LoginRequest): Promise<MeResponse> {
  const me = await api.post<unknown>('/auth/login', body, { alertOnError: false });
  if (!isMeResponse(me)) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected login answer', me);
  }
  return me;
}
