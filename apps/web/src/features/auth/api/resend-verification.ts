import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** `POST /auth/verify-email/resend` → 202 always: a new link if the address has an unverified account. */
export async function resendVerification(email: string): Promise<void> {
  await api.post('/auth/verify-email/resend', { email }, { alertOnError: false });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
