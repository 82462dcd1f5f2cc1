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
 */
export function useLocalMedia(enabled = true): LocalMedia {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [cameraProblem, setCameraProblem] = useState<MediaProblem | null>(null);
  const [microphoneProblem, setMicrophoneProblem] = useState<MediaProblem | null>(null);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [cameraId, setCameraId] = useState<string | null>(null);
  const [microphoneId, setMicrophoneId] = useState<string | null>(null);
  const [isStarting, setIsStarting] = useState(true);
  const [isMuted, setMuted] = useState(false);
  const [isCameraOff, setCameraOff] = useState(false);
  const streamRef = useRef<MediaStream | null>(null);

  useEffect(() => {
    if (!enabled) {
      return;
    }
    let active = true;
    void (async () => {
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
      streamRef.current?.getTracks().forEach((track) => track.stop());
      streamRef.current = null;
    },
    [],
  );

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
  const currentCameraId = stream?.getVideoTracks()[0]?.getSettings().deviceId ?? cameraId;
  const currentMicrophoneId = stream?.getAudioTracks()[0]?.getSettings().deviceId ?? microphoneId;

  const switchCamera = useCallback(() => {
    if (cameras.length < 2) {
      return;
    }
    const index = cameras.findIndex((device) => device.deviceId === currentCameraId);
    setIsStarting(true);
    setCameraId(cameras[(index + 1) % cameras.length]!.deviceId);
  }, [cameras, currentCameraId]);

  return {
    stream,
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
  };
}
