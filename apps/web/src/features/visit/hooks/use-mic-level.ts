import { useEffect, useState } from 'react';

/** What ends the wait for a gesture: the first click, tap or key on the page. */
const gestureEvents = ['pointerdown', 'keydown', 'touchend'] as const;

/**
 * Browsers start an AudioContext made before the person touched the page suspended (autoplay
 * rules: Chrome on a page opened from a bookmark or reloaded, Safari): its analyser then reads
 * silence and the meter stays empty. It is asked to resume at once (allowed once the page was
 * used), and again on the first gesture. Returns what removes the listeners.
 */
export function resumeWhenAllowed(context: AudioContext, target: EventTarget = window): () => void {
  const resume = () => {
    if (context.state === 'suspended') {
      void context.resume().catch(() => undefined);
    }
  };
  const stop = () => {
    for (const name of gestureEvents) {
      target.removeEventListener(name, onGesture, true);
    }
  };
  const onGesture = () => {
    resume();
    stop();
  };
  if (context.state !== 'suspended') {
    return () => undefined;
  }
  resume();
  for (const name of gestureEvents) {
    target.addEventListener(name, onGesture, true);
  }
  return stop;
}

/**
 * The microphone's level (0…1) from a Web Audio analyser, read on every animation frame, for
 * the meter of the device check and the doctor's waiting-room preview.
 */
export function useMicLevel(stream: MediaStream | null): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    const track = stream?.getAudioTracks()[0];
    if (!stream || !track || typeof AudioContext === 'undefined') {
      return;
    }
    const context = new AudioContext();
    const stopWaiting = resumeWhenAllowed(context);
    const source = context.createMediaStreamSource(new MediaStream([track]));
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    source.connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let frame = 0;
    let last = 0;
    const tick = (time: number) => {
      frame = requestAnimationFrame(tick);
      if (time - last < 66) {
        return;
      }
      last = time;
      analyser.getByteTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) {
        const value = (sample - 128) / 128;
        sum += value * value;
      }
      setLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      stopWaiting();
      source.disconnect();
      void context.close();
    };
  }, [stream]);
  return stream ? level : 0;
}
