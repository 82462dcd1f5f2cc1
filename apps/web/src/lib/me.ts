import type { MeResponse } from '@telemedicina/shared/auth';
import { api, ApiError } from './api-client';

// Apart from `session.ts` (query cache, router): the boot entry asks for the session with these
// before either is downloaded.

/**
 * Whether an answer has the shape of `MeResponse` where the client relies on it. A hand check
 * instead of the shared zod schema keeps zod out of the first download (every page asks for /me).
 */
export function isMeResponse(value: unknown): value is MeResponse {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const me = value as Record<string, unknown>;
  const user = me.user as Record<string, unknown> | null | undefined;
  const session = me.session as Record<string, unknown> | null | undefined;
  return (
    typeof user === 'object' &&
    user !== null &&
    typeof user.id === 'string' &&
    typeof user.name === 'string' &&
    typeof user.email === 'string' &&
    Array.isArray(me.roles) &&
    Array.isArray(me.permissions) &&
    me.permissions.every((name) => typeof name === 'string') &&
    typeof session === 'object' &&
    session !== null &&
    typeof session.idleTimeoutSeconds === 'number' &&
    typeof session.mfaEnrollmentRequired === 'boolean'
  );
}

/**
 * `GET /me`: the signed-in user, or null when there is no session. Asked quietly — no spinner and
 * no alert — because most first visits are signed out and that is not an error.
 */
export async function getMe(signal?: AbortSignal): Promise<MeResponse | null> {
  try {
    const body = await api.get<unknown>('/me', { signal, showSpinner: false, alertOnError: false });
    if (!isMeResponse(body)) {
      throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected /me answer', body);
    }
    return body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      return null;
    }
    throw error;
  }
}
