import { consentVerificationSchema, type ConsentVerification } from '@telemedicina/shared/consents';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /consents/verify/:code` (public): document, initials, time, hash, withdrawn. */
export async function verifyConsent(code: string, signal?: AbortSignal): Promise<ConsentVerification> {
  const body = await api.get<unknown>(`/consents/verify/${encodeURIComponent(code)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(consentVerificationSchema, body);
}

export function useConsentVerification(code: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.consents.verification(code),
      queryFn: ({ signal }) => verifyConsent(code, signal),
      retry: false,
      enabled: code !== '',
    }),
  );
}
