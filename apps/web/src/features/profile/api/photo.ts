import type { MeResponse } from '@telemedicina/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendUpload, UploadError, type UploadProgress } from '../../../components/uploader/upload-request';
import { api, ApiError } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { isMeResponse, storeMe } from '../../../lib/session';
import { sessionState } from '../../../lib/session-state';

/** Largest photo the server accepts (5 MB); checked before sending. */
export const maxPhotoBytes = 5 * 1024 * 1024;

/**
 * `PUT /me/photo` (multipart, field `file`) through the uploader's XMLHttpRequest core, for its
 * progress events. The server checks the type by content; errors come back as ApiError.
 */
export function uploadPhoto(file: File, onProgress?: (progress: UploadProgress) => void) {
  const upload = sendUpload(
    file,
    { url: `${appConfig.apiBaseUrl}/me/photo`, method: 'PUT', fieldName: 'file' },
    onProgress,
  );
  const promise = upload.promise.then(
    ({ body }) => {
      sessionState.getState().recordServerContact();
      if (!isMeResponse(body)) {
        throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', body);
      }
      return body;
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

/** `DELETE /me/photo` → the user without a photo. */
export async function deletePhoto(): Promise<MeResponse> {
  const me = await api.delete<unknown>('/me/photo');
  if (!isMeResponse(me)) {
    throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', me);
  }
  return me;
}

export function useDeletePhoto() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deletePhoto, onSuccess: (me) => storeMe(queryClient, me) });
}
