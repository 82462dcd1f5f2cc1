import type { MeResponse } from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendImageUpload } from '../../../components/image-upload';
import type { UploadProgress } from '../../../components/uploader/upload-request';
import { api, ApiError } from '../../../lib/api-client';
import { isMeResponse, storeMe } from '../../../lib/session';

/** Largest photo the server accepts (5 MB); checked before sending. */
export const maxPhotoBytes = 5 * 1024 * 1024;

/** `PUT /me/photo` (multipart, field `file`), with progress → the user with the new photo (ApiError otherwise). */
export function uploadPhoto(file: File, onProgress?: (progress: UploadProgress) => void) {
  const upload = sendImageUpload('/me/photo', file, onProgress);
  const promise = upload.promise.then((body) => {
    if (!isMeResponse(body)) {
      throw new ApiError(200, 'UNEXPECTED_RESPONSE', 'Unexpected answer', body);
    }
    return body;
  });
  return { promise, abort: upload.abort };
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
