import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import type { CroppedImage } from '../image-cropper';
import type { UploadProgress } from '../uploader/upload-request';
import type { ImageUploadRequest } from './send-image-upload';

/** Where the pick → crop → upload flow stands. */
export type ImageUploadStage =
  | { kind: 'idle' }
  | { kind: 'cropping'; file: File }
  | { kind: 'uploading'; percent: number }
  | { kind: 'done' }
  | { kind: 'failed'; error: unknown };

export interface ImageUploadOptions<Body> {
  /** Largest cropped file sent; a larger one fails at once with PAYLOAD_TOO_LARGE. */
  maxBytes: number;
  upload: (file: File, onProgress: (progress: UploadProgress) => void) => ImageUploadRequest<Body>;
  /** After the server took the image (refresh what shows it); the flow says "saved" once it settles. */
  onUploaded: (body: Body) => unknown;
  /** Removes the current image; its errors are shown by the API client. */
  remove: () => Promise<unknown>;
}

/**
 * One image chosen, cropped and uploaded with progress — the clinic's logo and the profile photo.
 * An upload still running when the screen goes away is aborted.
 */
export function useImageUpload<Body>({ maxBytes, upload, onUploaded, remove }: ImageUploadOptions<Body>) {
  const [stage, setStage] = useState<ImageUploadStage>({ kind: 'idle' });
  const abortRef = useRef<(() => void) | null>(null);
  useEffect(() => () => abortRef.current?.(), []);

  const choose = (file: File | null) => setStage(file ? { kind: 'cropping', file } : { kind: 'idle' });
  const cancel = () => setStage({ kind: 'idle' });

  const handleCropped = async (result: CroppedImage) => {
    if (result.file.size > maxBytes) {
      setStage({ kind: 'failed', error: new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Too large') });
      return;
    }
    setStage({ kind: 'uploading', percent: 0 });
    const request = upload(result.file, ({ loaded, total }) =>
      setStage({ kind: 'uploading', percent: total > 0 ? Math.round((loaded / total) * 100) : 0 }),
    );
    abortRef.current = request.abort;
    try {
      await onUploaded(await request.promise);
      setStage({ kind: 'done' });
    } catch (error) {
      setStage({ kind: 'failed', error });
    } finally {
      abortRef.current = null;
    }
  };

  const handleRemove = async () => {
    setStage({ kind: 'idle' });
    try {
      await remove();
    } catch {
      // The API client has shown the error.
    }
  };

  return { stage, isUploading: stage.kind === 'uploading', choose, cancel, handleCropped, handleRemove };
}

export type ImageUpload = ReturnType<typeof useImageUpload>;
