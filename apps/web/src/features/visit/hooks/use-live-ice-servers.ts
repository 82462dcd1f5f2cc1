import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { shouldRefreshIceServers } from './ice-refresh';

/**
 * The ICE servers a page's peer connections use while TURN credentials are renewed during a call:
 * `latest` always holds the newest servers (read when each connection is made), and the open
 * connections registered in `connections` get them through `setConfiguration` only when
 * {@link shouldRefreshIceServers} says so (handing every freshly issued credential to an open
 * connection would restart its ICE).
 */
export function useLiveIceServers(
  iceServers: RTCIceServer[],
  /** How long issued TURN credentials in `iceServers` last (seconds); null when none expire. */
  ttlSeconds: number | null,
): { latest: RefObject<RTCIceServer[]>; connections: Set<RTCPeerConnection> } {
  const iceKey = JSON.stringify(iceServers);
  const latest = useRef<RTCIceServer[]>(iceServers);
  const [connections] = useState(() => new Set<RTCPeerConnection>());
  useLayoutEffect(() => {
    const fresh = JSON.parse(iceKey) as RTCIceServer[];
    latest.current = fresh;
    for (const pc of connections) {
      if (pc.signalingState === 'closed') {
        connections.delete(pc);
        continue;
      }
      const configuration = pc.getConfiguration();
      if (!shouldRefreshIceServers(configuration.iceServers ?? [], fresh, ttlSeconds)) {
        continue;
      }
      try {
        pc.setConfiguration({ ...configuration, iceServers: fresh });
      } catch {
        // A browser refusing the change keeps the servers the connection has.
      }
    }
  }, [iceKey, ttlSeconds, connections]);
  return { latest, connections };
}
