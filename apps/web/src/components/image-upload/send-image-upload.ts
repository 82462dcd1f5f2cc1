import { ApiError } from '../../lib/api-client';
import { appConfig } from '../../lib/config';
import { sessionState } from '../../lib/session-state';
import { sendUpload, UploadError, type UploadProgress } from '../uploader/upload-request';

/** An upload under way: its answer's body (or an ApiError) and a way to stop it. */
export interface ImageUploadRequest<Body = unknown> {
  promise: Promise<Body>;
  abort: () => void;
}

/**
 * `PUT <path>` (multipart, field `file`) through the uploader's XMLHttpRequest core, for its
 * progress events. The server checks the image by content; errors come back as ApiError, as from
 * the API client.
 */
export function sendImageUpload(
  path: string,
  file: File,
  onProgress?: (progress: UploadProgress) => void,
): ImageUploadRequest {
  const upload = sendUpload(
    file,
    { url: `${appConfig.apiBaseUrl}${path}`, method: 'PUT', fieldName: 'file' },
    onProgress,
  );
  const promise = upload.promise.then(
    ({ body }) => {
      sessionState.getState().recordServerContact();
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
