import { useCallback, useEffect, useRef, useState } from 'react';
import { mediaProblemOf, type MediaProblem } from '../device-check-result';

export interface LocalMedia {
  stream: MediaStream | null;
  cameraProblem: MediaProblem | null;
  microphoneProblem: MediaProblem | null;
  /** Devices of each kind (labels appear once permission was given). */
  cameras: MediaDeviceInfo[];
  microphones: MediaDeviceInfo[];
  speakers: MediaDeviceInfo[];
  cameraId: string | null;
  microphoneId: string | null;
  isStarting: boolean;
  /** Microphone and camera switched off by the person (kept from the waiting room into the call). */
  isMuted: boolean;
  isCameraOff: boolean;
  setMuted: (muted: boolean) => void;
  setCameraOff: (off: boolean) => void;
  setCameraId: (id: string) => void;
  setMicrophoneId: (id: string) => void;
  /** Next camera in the list (front/back on a phone). */
  switchCamera: () => void;
}

/** What the page owning the camera gets besides {@link LocalMedia}. */
export interface OwnedLocalMedia extends LocalMedia {
  /**
   * Lets go of the stream without stopping it (it is handed to another page, which stops it):
   * this hook no longer turns it off when it is unmounted.
   */
  release: () => MediaStream | null;
}

export interface LocalMediaOptions {
  /** A live stream handed over by the page before (the waiting room's preview), used instead of asking again. */
  initial?: { stream: MediaStream; isMuted: boolean; isCameraOff: boolean } | null;
}

const isLive = (stream: MediaStream) => stream.getTracks().some((track) => track.readyState === 'live');

async function open(
  constraints: MediaStreamConstraints,
): Promise<{ stream: MediaStream | null; problem: MediaProblem | null }> {
  try {
    return { stream: await navigator.mediaDevices.getUserMedia(constraints), problem: null };
  } catch (error) {
    return { stream: null, problem: mediaProblemOf(error) };
  }
}

const videoConstraints = (deviceId: string | null): MediaTrackConstraints => ({
  ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
  width: { ideal: 1280 },
  height: { ideal: 720 },
});

/**
 * The camera and microphone of this page: asks for both, and when that fails asks for each alone
 * so the person learns which one is the problem; lists the devices and follows a chosen one.
 * Disabled, the camera and microphone are off. A stream handed over (`initial`) is used as it is
 * until another device is chosen.
 */
export function useLocalMedia(enabled = true, options: LocalMediaOptions = {}): OwnedLocalMedia {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameraProblem, setCameraProblem] = useState<MediaProblem | null>(null);
  const [microphoneProblem, setMicrophoneProblem] = useState<MediaProblem | null>(null);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(null);
  const [microphoneId, setMicrophoneId] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(true);
  const [isMuted, setMuted] = useState(options.initial?.isMuted ?? false);
  const [isCameraOff, setCameraOff] = useState(options.initial?.isCameraOff ?? false);
  const streamRef = useRef<MediaStream | null>(null);
  /** The handed-over stream until this hook takes it (or lets it go, unused, when unmounted). */
  const handedRef = useRef<MediaStream | null>(options.initial?.stream ?? null);

  useEffect(() => {
    if (!enabled) {
      // Switched off: the camera light goes out (and `stream` reads null while disabled).
      streamRef.current?.getTracks().forEach((track) => track.stop());
      streamRef.current = null;
      return;
    }
    let active = true;
    const handed = handedRef.current;
    if (handed && cameraId === null && microphoneId === null && isLive(handed)) {
      handedRef.current = null;
      streamRef.current = handed;
      void (async () => {
        setStream(handed);
        setIsStarting(false);
        const listed = (await navigator.mediaDevices?.enumerateDevices().catch(() => [])) ?? [];
        if (active) {
          setDevices(listed);
        }
      })();
      return () => {
        active = false;
      };
    }
    void (async () => {
      if (streamRef.current === null) {
        // Switched on again: the stream from before was stopped.
        setIsStarting(true);
      }
      if (!window.isSecureContext || typeof navigator.mediaDevices?.getUserMedia !== 'function') {
        setCameraProblem(window.isSecureContext ? 'unknown' : 'insecure');
        setMicrophoneProblem(window.isSecureContext ? 'unknown' : 'insecure');
        setIsStarting(false);
        return;
      }
      const audio: MediaTrackConstraints | boolean = microphoneId
        ? { deviceId: { exact: microphoneId } }
        : true;
      let result = await open({ audio, video: videoConstraints(cameraId) });
      let camera: MediaProblem | null = null;
      let microphone: MediaProblem | null = null;
      if (result.stream === null) {
        const videoOnly = await open({ video: videoConstraints(cameraId) });
        const audioOnly = await open({ audio });
        camera = videoOnly.problem;
        microphone = audioOnly.problem;
        const tracks = [...(videoOnly.stream?.getTracks() ?? []), ...(audioOnly.stream?.getTracks() ?? [])];
        result = { stream: tracks.length > 0 ? new MediaStream(tracks) : null, problem: null };
      }
      if (!active) {
        result.stream?.getTracks().forEach((track) => track.stop());
        return;
      }
      streamRef.current?.getTracks().forEach((track) => track.stop());
      streamRef.current = result.stream;
      setStream(result.stream);
      setCameraProblem(camera);
      setMicrophoneProblem(microphone);
      setIsStarting(false);
      const listed = await navigator.mediaDevices.enumerateDevices().catch(() => []);
      if (active) {
        setDevices(listed);
      }
    })();
    return () => {
      active = false;
    };
  }, [enabled, cameraId, microphoneId]);

  useEffect(
    () => () => {
      for (const owned of [streamRef.current, handedRef.current]) {
        owned?.getTracks().forEach((track) => track.stop());
      }
      streamRef.current = null;
      handedRef.current = null;
    },
    [],
  );

  const release = useCallback((): MediaStream | null => {
    const owned = streamRef.current;
    streamRef.current = null;
    return owned;
  }, []);

  useEffect(() => {
    stream?.getAudioTracks().forEach((track) => {
      track.enabled = !isMuted;
    });
    stream?.getVideoTracks().forEach((track) => {
      track.enabled = !isCameraOff;
    });
  }, [stream, isMuted, isCameraOff]);

  const cameras = devices.filter((device) => device.kind === 'videoinput');
  const microphones = devices.filter((device) => device.kind === 'audioinput');
  const speakers = devices.filter((device) => device.kind === 'audiooutput');
  const liveStream = enabled ? stream : null;
  const currentCameraId = liveStream?.getVideoTracks()[0]?.getSettings().deviceId ?? cameraId;
  const currentMicrophoneId = liveStream?.getAudioTracks()[0]?.getSettings().deviceId ?? microphoneId;

  const switchCamera = useCallback(() => {
    if (cameras.length < 2) {
      return;
    }
    const index = cameras.findIndex((device) => device.deviceId === currentCameraId);
    setIsStarting(true);
    setCameraId(cameras[(index + 1) % cameras.length]!.deviceId);
  }, [cameras, currentCameraId]);

  return {
    stream: liveStream,
    cameraProblem,
    microphoneProblem,
    cameras,
    microphones,
    speakers,
    cameraId: currentCameraId ?? null,
    microphoneId: currentMicrophoneId ?? null,
    isStarting,
    isMuted,
    isCameraOff,
    setMuted,
    setCameraOff,
    setCameraId: (id) => {
      setIsStarting(true);
      setCameraId(id);
    },
    setMicrophoneId: (id) => {
      setIsStarting(true);
      setMicrophoneId(id);
    },
    switchCamera,
    release,
  };
}
