import {
  consentDocumentAdminSchema,
  type ConsentDocumentAdmin,
  type PublishConsentVersionRequest,
} from '@telemedicina/shared/consents';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `POST /admin/consent-documents/:id/versions` → the document at its next version (422
 * `consents.unchanged` when nothing changed).
 */
export async function publishConsentVersion(
  id: string,
  body: PublishConsentVersionRequest,
): Promise<ConsentDocumentAdmin> {
  const answer = await api.post<unknown>(
    `/admin/consent-documents/${encodeURIComponent(id)}/versions`,
    body,
    {
      alertOnError: false,
    },
  );
  return parseAnswer(consentDocumentAdminSchema, answer);
}

export function usePublishConsentVersion(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PublishConsentVersionRequest) => publishConsentVersion(id, body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.consents.admin() });
      await queryClient.invalidateQueries({ queryKey: queryKeys.consents.document(id) });
    },
  });
}
