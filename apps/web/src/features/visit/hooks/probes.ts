import { emitWithAck } from '../../../lib/realtime';
import { connectivityOf } from '../device-check-result';

/**
 * Gathers ICE candidates against the visit's STUN/TURN servers (a data channel gives the offer
 * something to gather for) and says which kinds of path exist; stops at `timeoutMs`.
 */
export async function checkConnectivity(
  iceServers: RTCIceServer[],
  timeoutMs = 5_000,
): Promise<'direct' | 'relay' | 'failed'> {
  if (typeof RTCPeerConnection !== 'function') {
    return 'failed';
  }
  const pc = new RTCPeerConnection({ iceServers });
  const types = new Set<string>();
  try {
    pc.createDataChannel('probe');
    const done = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      pc.onicecandidate = ({ candidate }) => {
        if (candidate === null) {
          clearTimeout(timer);
          resolve();
          return;
        }
        const type = candidate.type ?? /\btyp (\w+)/.exec(candidate.candidate)?.[1];
        if (type) {
          types.add(type);
        }
      };
    });
    await pc.setLocalDescription(await pc.createOffer());
    await done;
    return connectivityOf([...types]);
  } catch {
    return 'failed';
  } finally {
    pc.close();
  }
}

/** Round trip of the real-time channel (`system.ping`), or null when it does not answer. */
export async function measureRealtimeRtt(): Promise<number | null> {
  try {
    const started = performance.now();
    await emitWithAck('system.ping', { nonce: crypto.randomUUID() }, 5_000);
    return performance.now() - started;
  } catch {
    return null;
  }
}

/** Plays a short two-note chime on the chosen speaker (where the browser lets a page choose). */
export async function playTestTone(sinkId: string | null): Promise<void> {
  const context = new AudioContext();
  const withSink = context as AudioContext & { setSinkId?: (id: string) => Promise<void> };
  if (sinkId && typeof withSink.setSinkId === 'function') {
    await withSink.setSinkId(sinkId).catch(() => undefined);
  }
  const gain = context.createGain();
  gain.connect(context.destination);
  gain.gain.setValueAtTime(0.0001, context.currentTime);
  for (const [index, frequency] of [660, 880].entries()) {
    const oscillator = context.createOscillator();
    oscillator.frequency.value = frequency;
    oscillator.connect(gain);
    const start = context.currentTime + index * 0.35;
    gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    oscillator.start(start);
    oscillator.stop(start + 0.32);
  }
  await new Promise((resolve) => setTimeout(resolve, 800));
  await context.close();
}

/** Whether the page may choose the speaker (setSinkId). */
export function canChooseSpeaker(): boolean {
  return typeof AudioContext !== 'undefined' && 'setSinkId' in AudioContext.prototype;
}
