import type { VisitSignalDelivery } from '@telemedicina/shared/visits';
import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { emitWithAck } from '../../../lib/realtime';
import { useLiveIceServers } from './use-live-ice-servers';
import { PeerMesh, type PeerView } from './peer-mesh';

export interface PeerMeshHandle {
  peers: PeerView[];
  mesh: PeerMesh | null;
  connect: (key: string) => void;
  close: (key: string) => void;
  /** They joined (again): a fresh connection on both sides. */
  rebuild: (key: string) => void;
  handleSignal: (signal: VisitSignalDelivery) => void;
}

/**
 * The call's peer connections for one page: one RTCPeerConnection per other participant
 * (see {@link PeerMesh}), signalling through `visit.signal`, the local camera and microphone
 * attached to each. Signals that arrive before the mesh exists are kept and applied once it does.
 *
 * The ICE servers are not part of the mesh's identity: their TURN credentials are renewed while a
 * call goes on (see `useIceServerRenewal`), and renewing must not tear the call down. A new
 * connection takes the latest servers; an open one gets them through `setConfiguration` only when
 * {@link shouldRefreshIceServers} says so, ready for its next ICE restart (a relay already
 * allocated keeps working on its own credentials).
 */
export function usePeerMesh(options: {
  appointmentId: string;
  selfKey: string | null;
  iceServers: RTCIceServer[];
  /** How long issued TURN credentials in `iceServers` last (seconds); null when none expire. */
  iceServersTtlSeconds?: number | null;
  localStream: MediaStream | null;
}): PeerMeshHandle {
  const { appointmentId, selfKey, iceServers, localStream } = options;
  const ttlSeconds = options.iceServersTtlSeconds ?? null;
  const [, bump] = useReducer((value: number) => value + 1, 0);
  const [early] = useState<{ signals: VisitSignalDelivery[]; connects: string[] }>(() => ({
    signals: [],
    connects: [],
  }));
  const { latest: iceRef, connections } = useLiveIceServers(iceServers, ttlSeconds);
  const mesh = useMemo(
    () =>
      selfKey === null
        ? null
        : new PeerMesh({
            selfKey,
            // Read when each connection is made: always the latest servers.
            get iceServers() {
              return iceRef.current;
            },
            createPeerConnection: (configuration) => {
              for (const open of connections) {
                if (open.signalingState === 'closed') {
                  connections.delete(open);
                }
              }
              const pc = new RTCPeerConnection(configuration);
              connections.add(pc);
              return pc;
            },
            send: (signal) => {
              void emitWithAck('visit.signal', { ...signal, appointmentId }).catch(() => undefined);
            },
            onChange: bump,
          }),
    [selfKey, appointmentId, connections, iceRef],
  );

  useEffect(() => {
    if (!mesh) {
      return;
    }
    for (const key of early.connects.splice(0)) {
      mesh.connect(key);
    }
    for (const signal of early.signals.splice(0)) {
      mesh.handleSignal(signal);
    }
    return () => mesh.closeAll();
  }, [mesh, early]);

  useEffect(() => {
    mesh?.setLocalStream(localStream);
  }, [mesh, localStream]);

  const connect = useCallback(
    (key: string) => {
      if (mesh) {
        mesh.connect(key);
      } else {
        early.connects.push(key);
      }
    },
    [mesh, early],
  );
  const close = useCallback((key: string) => mesh?.close(key), [mesh]);
  const rebuild = useCallback(
    (key: string) => {
      if (mesh) {
        mesh.rebuild(key, true);
      } else {
        early.connects.push(key);
      }
    },
    [mesh, early],
  );
  const handleSignal = useCallback(
    (signal: VisitSignalDelivery) => {
      if (mesh) {
        mesh.handleSignal(signal);
      } else {
        early.signals.push(signal);
      }
    },
    [mesh, early],
  );

  return { peers: mesh?.views() ?? [], mesh, connect, close, rebuild, handleSignal };
}
