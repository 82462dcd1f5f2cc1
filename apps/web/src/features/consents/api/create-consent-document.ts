import {
  consentDocumentAdminSchema,
  type ConsentDocumentAdmin,
  type CreateConsentDocumentRequest,
} from '@telemedicina/shared/consents';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /admin/consent-documents` → 201 the new document at version 1. */
export async function createConsentDocument(
  body: CreateConsentDocumentRequest,
): Promise<ConsentDocumentAdmin> {
  const answer = await api.post<unknown>('/admin/consent-documents', body, { alertOnError: false });
  return parseAnswer(consentDocumentAdminSchema, answer);
}

export function useCreateConsentDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConsentDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.consents.admin() }),
  });
}
