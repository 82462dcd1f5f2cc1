import { useMutation } from '@tanstack/react-query';
import { resendVerification } from '../api/resend-verification';

/** Asks for a new verification link (`POST /auth/verify-email/resend`) as a mutation. */
export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
