import { consentDocumentAdminListSchema, type ConsentDocumentAdminList } from '@telemedicina/shared/consents';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /admin/consent-documents` (settings.manage): every document with its current text and counts. */
export async function getAdminConsentDocuments(signal?: AbortSignal): Promise<ConsentDocumentAdminList> {
  const body = await api.get<unknown>('/admin/consent-documents', { signal, alertOnError: false });
  return parseAnswer(consentDocumentAdminListSchema, body);
}

export const adminConsentDocumentsQuery = () =>
  queryOptions({
    queryKey: queryKeys.consents.admin(),
    queryFn: ({ signal }) => getAdminConsentDocuments(signal),
    retry: false,
  });

export function useAdminConsentDocuments() {
  return useQuery(adminConsentDocumentsQuery());
}
