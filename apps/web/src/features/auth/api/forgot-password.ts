import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `POST /auth/password/forgot` → 202 always, so the answer never tells whether an account exists. */
export async function requestPasswordReset(email: string): Promise<void> {
  await api.post('/auth/password/forgot', { email }, { alertOnError: false });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
