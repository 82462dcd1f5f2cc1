import { consentSignatureSchema, type ConsentSignature } from '@telemedicina/shared/consents';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /consent-signatures/:id/withdraw {reason}` (the patient; 409 when already withdrawn). */
export async function withdrawConsent(signatureId: string, reason: string): Promise<ConsentSignature> {
  const body = await api.post<unknown>(
    `/consent-signatures/${encodeURIComponent(signatureId)}/withdraw`,
    { reason },
    { alertOnError: false },
  );
  return parseAnswer(consentSignatureSchema, body);
}

export function useWithdrawConsent(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ signatureId, reason }: { signatureId: string; reason: string }) =>
      withdrawConsent(signatureId, reason),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.consents.ofPatient(patientId) }),
  });
}
