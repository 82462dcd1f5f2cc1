import type { VisitSignalDelivery } from '@telemedicina/shared/visits';
import { useCallback, useEffect, useReducer } from 'react';
import type { PreparedCall } from './call-handoff';
import { useLiveIceServers } from './use-live-ice-servers';
import type { PeerMeshHandle } from './use-peer-mesh';

/**
 * The call's peer connections when the waiting-room page made them ahead (see `call-handoff.ts`):
 * the same handle as `usePeerMesh`, over the handed mesh, which this page owns from now on (closed
 * when it unmounts). The connections prepared for the waiting person keep their offer until that
 * person is in the call; renewed ICE servers go to each new connection and, for their next ICE
 * restart, to the open ones when {@link shouldRefreshIceServers} says so (as in `usePeerMesh`:
 * handing every freshly issued TURN credential to an open connection would restart its ICE).
 */
export function usePreparedPeerMesh(
  prepared: PreparedCall | null,
  iceServers: RTCIceServer[],
  localStream: MediaStream | null,
  /** How long issued TURN credentials in `iceServers` last (seconds); null when none expire. */
  iceServersTtlSeconds: number | null = null,
): PeerMeshHandle {
  const [, bump] = useReducer((value: number) => value + 1, 0);
  const { latest: iceRef, connections } = useLiveIceServers(iceServers, iceServersTtlSeconds);
  const mesh = prepared?.mesh ?? null;

  useEffect(() => {
    if (!prepared) {
      return;
    }
    prepared.attach({
      onChange: bump,
      iceServers: () => iceRef.current,
      onConnection: (pc) => connections.add(pc),
    });
    // Whatever changed before this page listened is drawn now.
    bump();
    return () => prepared.mesh.closeAll();
  }, [prepared, connections, iceRef]);

  useEffect(() => {
    // The handed stream is the one the prepared connections already send: only a new one changes them.
    if (localStream) {
      mesh?.setLocalStream(localStream);
    }
  }, [mesh, localStream]);

  const connect = useCallback((key: string) => mesh?.connect(key), [mesh]);
  const close = useCallback((key: string) => mesh?.close(key), [mesh]);
  const rebuild = useCallback((key: string) => mesh?.rebuild(key, true), [mesh]);
  const handleSignal = useCallback((signal: VisitSignalDelivery) => mesh?.handleSignal(signal), [mesh]);

  return { peers: mesh?.views() ?? [], mesh, connect, close, rebuild, handleSignal };
}
