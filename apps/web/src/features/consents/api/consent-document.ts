import { consentDocumentSchema, type ConsentDocument } from '@telemedicina/shared/consents';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /consent-documents/:id`: the current version, both languages. */
export async function getConsentDocument(id: string, signal?: AbortSignal): Promise<ConsentDocument> {
  const body = await api.get<unknown>(`/consent-documents/${encodeURIComponent(id)}`, { signal });
  return parseAnswer(consentDocumentSchema, body);
}

export function useConsentDocument(id: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.consents.document(id),
      queryFn: ({ signal }) => getConsentDocument(id, signal),
    }),
  );
}
