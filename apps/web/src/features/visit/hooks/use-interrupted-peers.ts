import { useEffect, useState } from 'react';
import type { PeerMesh } from './peer-mesh';
import {
  bytesReceivedOf,
  isInterrupted,
  nextReceiving,
  receivingCheckEveryMs,
  type ReceivingState,
} from './receiving-watch';

const none: ReadonlySet<string> = new Set();

/**
 * The participants whose connection is up by its state but has received nothing for a while (see
 * `receiving-watch.ts`): their picture is frozen, so the call shows them as reconnecting. Only
 * connected connections are read; the others are shown as reconnecting by their state already.
 */
export function useInterruptedPeers(mesh: PeerMesh | null): ReadonlySet<string> {
  const [interrupted, setInterrupted] = useState<ReadonlySet<string>>(none);

  useEffect(() => {
    if (!mesh) {
      return;
    }
    let active = true;
    const states = new WeakMap<RTCPeerConnection, ReceivingState>();
    const timer = setInterval(() => {
      void (async () => {
        const found = new Set<string>();
        for (const [key, pc] of mesh.connectionsByKey()) {
          if (pc.connectionState !== 'connected') {
            states.delete(pc);
            continue;
          }
          const report = await pc.getStats().catch(() => null);
          const bytes = report === null ? null : bytesReceivedOf(report);
          if (bytes === null) {
            continue;
          }
          const now = Date.now();
          const state = nextReceiving(states.get(pc), bytes, now);
          states.set(pc, state);
          if (isInterrupted(state, now)) {
            found.add(key);
          }
        }
        if (active) {
          setInterrupted((previous) =>
            previous.size === found.size && [...found].every((key) => previous.has(key)) ? previous : found,
          );
        }
      })();
    }, receivingCheckEveryMs);
    return () => {
      active = false;
      clearInterval(timer);
      setInterrupted(none);
    };
  }, [mesh]);

  return interrupted;
}
