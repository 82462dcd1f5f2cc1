import {
  consentSignatureSchema,
  type ConsentSignature,
  type SignConsentRequest,
} from '@telemedicina/shared/consents';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /consent-documents/:id/signatures`: the patient signs the version they read. */
export async function signConsent(
  documentId: string,
  request: SignConsentRequest,
): Promise<ConsentSignature> {
  const body = await api.post<unknown>(
    `/consent-documents/${encodeURIComponent(documentId)}/signatures`,
    request,
    {
      alertOnError: false,
    },
  );
  return parseAnswer(consentSignatureSchema, body);
}

export function useSignConsent(documentId: string, patientId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SignConsentRequest) => signConsent(documentId, request),
    onSuccess: () => {
      if (patientId !== undefined) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.consents.ofPatient(patientId) });
      }
    },
  });
}
