import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /auth/verify-email` with the emailed token → `{ status: 'verified' }`; 400 TOKEN_INVALID. */
export async function verifyEmail(token: string): Promise<void> {
  await api.post('/auth/verify-email', { token }, { alertOnError: false });
}

/**
 * The verification runs as a query so it is sent exactly once per token, even when React mounts
 * the page twice (development) or the person returns to it: a second POST of a single-use token
 * would fail and wrongly say the link is invalid.
 */
export const verifyEmailQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.verifyEmail(token),
    queryFn: () => verifyEmail(token).then(() => true as const),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

export function useVerifyEmail(token: string) {
  return useQuery(verifyEmailQuery(token));
}
