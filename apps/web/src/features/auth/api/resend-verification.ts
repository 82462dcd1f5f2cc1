import { api } from '../../../lib/api-client';

/**
 * `POST /auth/verify-email/resend` → 202 always: a new link if the address has an unverified account.
 * The query hook lives in `hooks/use-resend-verification.ts`, so the sign-in form (shown before the
 * query cache is downloaded) can call this without it.
 */
export async function resendVerification(email: string): Promise<void> {
  await api.post('/auth/verify-email/resend', { email }, { alertOnError: false });
}
