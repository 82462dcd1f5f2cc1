import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStream } from './peer-connection-test-fake';
import { useLocalMedia } from './use-local-media';

const getUserMedia = vi.fn(() => Promise.resolve(fakeStream()));
const isLive = (stream: MediaStream) => stream.getTracks().every((track) => track.readyState === 'live');

beforeEach(() => {
  getUserMedia.mockClear();
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  Object.defineProperty(navigator, 'mediaDevices', {
    value: { getUserMedia, enumerateDevices: () => Promise.resolve([]) },
    configurable: true,
  });
});

describe('the page’s camera and microphone', () => {
  it('uses a live stream handed over as it is, with the choices made before, and stops it when unmounted', async () => {
    const handed = fakeStream();
    const { result, unmount } = renderHook(() =>
      useLocalMedia(true, { initial: { stream: handed, isMuted: true, isCameraOff: false } }),
    );
    await waitFor(() => expect(result.current.stream).toBe(handed));
    expect(result.current.isStarting).toBe(false);
    expect(result.current.isMuted).toBe(true);
    expect(handed.getAudioTracks()[0]!.enabled).toBe(false);
    expect(getUserMedia).not.toHaveBeenCalled();
    unmount();
    expect(isLive(handed)).toBe(false);
  });

  it('asks again when the handed stream has already ended', async () => {
    const handed = fakeStream();
    handed.getTracks().forEach((track) => track.stop());
    const { result } = renderHook(() =>
      useLocalMedia(true, { initial: { stream: handed, isMuted: false, isCameraOff: false } }),
    );
    await waitFor(() => expect(result.current.stream).not.toBeNull());
    expect(result.current.stream).not.toBe(handed);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('a released stream is not stopped with the page; switched off, the camera goes out', async () => {
    const first = renderHook(() => useLocalMedia(true));
    await waitFor(() => expect(first.result.current.stream).not.toBeNull());
    const stream = first.result.current.stream!;
    let released: MediaStream | null = null;
    act(() => {
      released = first.result.current.release();
    });
    expect(released).toBe(stream);
    first.unmount();
    expect(isLive(stream)).toBe(true);

    const second = renderHook(({ enabled }) => useLocalMedia(enabled), { initialProps: { enabled: true } });
    await waitFor(() => expect(second.result.current.stream).not.toBeNull());
    const own = second.result.current.stream!;
    second.rerender({ enabled: false });
    expect(isLive(own)).toBe(false);
    expect(second.result.current.stream).toBeNull();
  });
});
