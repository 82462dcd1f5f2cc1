import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendImageUpload } from '../../../components/image-upload';
import type { UploadProgress } from '../../../components/uploader/upload-request';
import { api } from '../../../lib/api-client';
import { refreshPublicConfig } from '../../../lib/public-config';
import { queryKeys } from '../../../lib/query-keys';

/** Largest logo the screen sends (the server's own limit for images is the same). */
export const maxLogoBytes = 2 * 1024 * 1024;

/** `PUT /settings/logo` (multipart, field `file`), with progress; errors come back as ApiError. */
export function uploadLogo(file: File, onProgress?: (progress: UploadProgress) => void) {
  return sendImageUpload('/settings/logo', file, onProgress);
}

/** After the logo changed: the settings and the public configuration (header logo) are read again. */
export function useRefreshAfterLogo() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.clinicSettings.all() }),
      refreshPublicConfig(queryClient),
    ]);
}

/** `DELETE /settings/logo`: back to the product's mark. */
export function useDeleteLogo() {
  const refresh = useRefreshAfterLogo();
  return useMutation({
    mutationFn: () => api.delete<unknown>('/settings/logo'),
    onSuccess: refresh,
  });
}
