import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendUpload, UploadError, type UploadProgress } from '../../../components/uploader/upload-request';
import { api, ApiError } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { refreshPublicConfig } from '../../../lib/public-config';
import { sessionState } from '../../../lib/session-state';
import { queryKeys } from '../../../lib/query-keys';

/** Largest logo the screen sends (the server's own limit for images is the same). */
export const maxLogoBytes = 2 * 1024 * 1024;

/**
 * `PUT /settings/logo` (multipart, field `file`) through the uploader's XMLHttpRequest core, for
 * its progress events. The server checks the image by content; errors come back as ApiError.
 */
export function uploadLogo(file: File, onProgress?: (progress: UploadProgress) => void) {
  const upload = sendUpload(
    file,
    { url: `${appConfig.apiBaseUrl}/settings/logo`, method: 'PUT', fieldName: 'file' },
    onProgress,
  );
  const promise = upload.promise.then(
    () => {
      sessionState.getState().recordServerContact();
    },
    (error: unknown) => {
      throw toApiError(error);
    },
  );
  return { promise, abort: upload.abort };
}

function toApiError(error: unknown): ApiError {
  if (!(error instanceof UploadError)) {
    return new ApiError(0, 'UNEXPECTED_RESPONSE', String(error));
  }
  const { failure } = error;
  if (failure.kind !== 'http') {
    return new ApiError(0, 'NETWORK_ERROR', failure.kind);
  }
  const body = failure.body as
    { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined;
  const code =
    typeof body?.error?.code === 'string'
      ? body.error.code
      : failure.status === 413
        ? 'PAYLOAD_TOO_LARGE'
        : failure.status === 415
          ? 'UNSUPPORTED_MEDIA_TYPE'
          : 'UNEXPECTED_RESPONSE';
  return new ApiError(
    failure.status,
    code,
    typeof body?.error?.message === 'string' ? body.error.message : `HTTP ${failure.status}`,
    body?.error?.details,
  );
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
