import type { ResetPasswordRequest } from '@telemedicina/shared/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `POST /auth/password/reset` → 204; 400 TOKEN_INVALID, 422 PASSWORD_TOO_WEAK. Ends every session. */
export async function resetPassword(body: ResetPasswordRequest): Promise<void> {
  await api.post('/auth/password/reset', body, { alertOnError: false });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
