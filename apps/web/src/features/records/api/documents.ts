import { apiBasePath } from '@telemedicina/shared/api';
import { documentFileUrl } from '@telemedicina/shared/documents';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Where a chart document is uploaded (`POST`, multipart: `category` first, then `file`). */
export function documentsUploadUrl(patientId: string): string {
  return `${apiBasePath}/patients/${encodeURIComponent(patientId)}/documents`;
}

/** The bytes of a document: inline (viewer, PDF frame) or as a download. */
export function documentUrl(patientId: string, documentId: string, download = false): string {
  return documentFileUrl(apiBasePath, patientId, documentId, { download });
}

/** `DELETE /patients/:patientId/documents/:documentId` → 204 (kept as history). */
export async function removeDocument(patientId: string, documentId: string): Promise<void> {
  await api.delete<unknown>(
    `/patients/${encodeURIComponent(patientId)}/documents/${encodeURIComponent(documentId)}`,
    { alertOnError: false },
  );
}

export function useRemoveDocument(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (documentId: string) => removeDocument(patientId, documentId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
