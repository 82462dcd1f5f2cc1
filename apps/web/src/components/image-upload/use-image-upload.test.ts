import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import type { UploadProgress } from '../uploader/upload-request';
import { useImageUpload } from './use-image-upload';

const cropped = (size: number) => ({
  file: new File([new Uint8Array(size)], 'c.webp', { type: 'image/webp' }),
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useImageUpload (the logo and the profile photo)', () => {
  it('goes from the chosen file to cropping, shows progress, hands the answer over, then says done', async () => {
    const answer = deferred<{ id: string }>();
    let report: ((progress: UploadProgress) => void) | undefined;
    const onUploaded = vi.fn();
    const { result } = renderHook(() =>
      useImageUpload({
        maxBytes: 100,
        upload: (_file, onProgress) => {
          report = onProgress;
          return { promise: answer.promise, abort: vi.fn() };
        },
        onUploaded,
        remove: () => Promise.resolve(),
      }),
    );
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    act(() => result.current.choose(file));
    expect(result.current.stage).toEqual({ kind: 'cropping', file });

    let settled!: Promise<void>;
    act(() => {
      settled = result.current.handleCropped(cropped(10) as never);
    });
    expect(result.current.isUploading).toBe(true);
    act(() => report!({ loaded: 1, total: 4 }));
    expect(result.current.stage).toEqual({ kind: 'uploading', percent: 25 });
    await act(async () => {
      answer.resolve({ id: 'new' });
      await settled;
    });
    expect(onUploaded).toHaveBeenCalledWith({ id: 'new' });
    expect(result.current.stage).toEqual({ kind: 'done' });
  });

  it('refuses a cropped file over the limit without sending it, and shows a failed upload', async () => {
    const upload = vi.fn(() => ({
      promise: Promise.reject(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'no')),
      abort: vi.fn(),
    }));
    const { result } = renderHook(() =>
      useImageUpload({ maxBytes: 5, upload, onUploaded: vi.fn(), remove: () => Promise.resolve() }),
    );
    await act(() => result.current.handleCropped(cropped(6) as never));
    expect(upload).not.toHaveBeenCalled();
    expect(result.current.stage).toMatchObject({ kind: 'failed', error: { code: 'PAYLOAD_TOO_LARGE' } });

    await act(() => result.current.handleCropped(cropped(5) as never));
    expect(upload).toHaveBeenCalledTimes(1);
    expect(result.current.stage).toMatchObject({ kind: 'failed', error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('aborts an upload still running when the screen goes away; removing goes back to idle', async () => {
    const abort = vi.fn();
    const remove = vi.fn(() => Promise.reject(new Error('shown by the API client')));
    const { result, unmount } = renderHook(() =>
      useImageUpload({
        maxBytes: 100,
        upload: () => ({ promise: new Promise<never>(() => undefined), abort }),
        onUploaded: vi.fn(),
        remove,
      }),
    );
    act(() => result.current.choose(new File(['x'], 'a.png')));
    await act(() => result.current.handleRemove());
    expect(remove).toHaveBeenCalledTimes(1);
    expect(result.current.stage).toEqual({ kind: 'idle' });
    act(() => {
      void result.current.handleCropped(cropped(1) as never);
    });
    unmount();
    expect(abort).toHaveBeenCalledTimes(1);
  });
});
