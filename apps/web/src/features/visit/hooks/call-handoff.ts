import type { ServerToClientEvents } from '@telemedicina/shared/realtime';
import { emitWithAck, getRealtimeSocket } from '../../../lib/realtime';
import { admit } from '../api/visit-actions';
import { PeerMesh, type OutgoingSignal } from './peer-mesh';

/**
 * What the page that takes over a prepared call points the mesh at: its own re-render, its ICE
 * servers (read whenever a connection is made) and its list of open connections.
 */
export interface PreparedCallBinding {
  onChange: () => void;
  iceServers: () => RTCIceServer[];
  onConnection?: (pc: RTCPeerConnection) => void;
}

/**
 * The host's connections to whoever waits in one visit, made ahead on the waiting-room page: each
 * has its offer made and its candidates gathered, and nothing is sent until the person is in the
 * call (see {@link PeerMesh.prepare}).
 */
export interface PreparedCall {
  appointmentId: string;
  selfKey: string;
  mesh: PeerMesh;
  /** Hands the mesh to the page that shows the call (see {@link PreparedCallBinding}); returns it. */
  attach: (binding: PreparedCallBinding) => PeerMesh;
}

/** Sends the mesh's signals of one visit through `visit.signal` (the server relays only inside the call). */
export function visitSignalSender(appointmentId: string): (signal: OutgoingSignal) => void {
  return (signal) => {
    void emitWithAck('visit.signal', { ...signal, appointmentId }).catch(() => undefined);
  };
}

/** A mesh for one visit whose change notices, ICE servers and connections can be re-pointed later. */
export function prepareCall(
  appointmentId: string,
  selfKey: string,
  iceServers: RTCIceServer[],
  options: {
    send?: (signal: OutgoingSignal) => void;
    createPeerConnection?: (configuration: RTCConfiguration) => RTCPeerConnection;
  } = {},
): PreparedCall {
  const create = options.createPeerConnection ?? ((configuration) => new RTCPeerConnection(configuration));
  const connections = new Set<RTCPeerConnection>();
  let binding: PreparedCallBinding = { onChange: () => undefined, iceServers: () => iceServers };
  const mesh = new PeerMesh({
    selfKey,
    get iceServers() {
      return binding.iceServers();
    },
    send: options.send ?? visitSignalSender(appointmentId),
    onChange: () => binding.onChange(),
    createPeerConnection: (configuration) => {
      const pc = create(configuration);
      connections.add(pc);
      binding.onConnection?.(pc);
      return pc;
    },
  });
  return {
    appointmentId,
    selfKey,
    mesh,
    attach: (next) => {
      if (binding !== next) {
        binding = next;
        for (const pc of connections) {
          if (pc.signalingState !== 'closed') {
            next.onConnection?.(pc);
          }
        }
      }
      return mesh;
    },
  };
}

/** The camera and microphone of the waiting room's preview, still live, with the person's choices. */
export interface HandedMedia {
  stream: MediaStream;
  isMuted: boolean;
  isCameraOff: boolean;
}

/**
 * What the waiting-room page hands to the call screen when the host admits someone: the live
 * camera and microphone (not asked for again), the connections prepared for that visit, and
 * whom to admit. The call screen admits once it is in the call itself, so the announcement of
 * the admitted person reaches it and its prepared offer goes out at once.
 */
export interface CallHandoff {
  appointmentId: string;
  /** Whom to admit: the patient (no key) or a waiting guest. */
  admit: { participantKey?: string };
  media: HandedMedia | null;
  prepared: PreparedCall | null;
  /**
   * Set once this page has started joining the call and admitting (see {@link admitAtOnce}): the
   * call screen does neither again and shows the failure, if any.
   */
  admission?: Promise<unknown>;
  /** Stops handing the call's events to the prepared mesh: the call screen listens from now on. */
  detach?: () => void;
}

/**
 * With a prepared call, joins it and admits at once, while the call screen is still being drawn:
 * until that screen takes over ({@link claimCallHandoff}), the announcement of the admitted person
 * opens the prepared connection (its held offer goes out) and their answer and candidates are
 * applied to it here. Without one, the call screen joins and admits itself.
 */
export function admitAtOnce(handoff: CallHandoff): void {
  const prepared = handoff.prepared;
  if (!prepared) {
    return;
  }
  const { appointmentId } = handoff;
  let isDetached = false;
  let stopListening = (): void => undefined;
  handoff.detach = () => {
    isDetached = true;
    stopListening();
  };
  const admission = getRealtimeSocket().then(async (socket) => {
    if (!isDetached) {
      const handleJoined: ServerToClientEvents['visit.participantJoined'] = ({
        appointmentId: id,
        participant,
      }) => {
        if (id === appointmentId) {
          prepared.mesh.rebuild(participant.key, true);
        }
      };
      const handleSignal: ServerToClientEvents['visit.signal'] = (signal) => {
        if (signal.appointmentId === appointmentId) {
          prepared.mesh.handleSignal(signal);
        }
      };
      socket.on('visit.participantJoined', handleJoined);
      socket.on('visit.signal', handleSignal);
      stopListening = () => {
        socket.off('visit.participantJoined', handleJoined);
        socket.off('visit.signal', handleSignal);
      };
    }
    await emitWithAck('visit.join', { appointmentId, lastSeq: 0 });
    await admit(appointmentId, handoff.admit);
  });
  // Whoever takes the call shows a failure; nobody else has to.
  admission.catch(() => undefined);
  handoff.admission = admission;
}

/** A handoff nobody took (the navigation went elsewhere) is let go: camera off, connections closed. */
export const unclaimedHandoffMs = 30_000;

let pending: { handoff: CallHandoff; timer: ReturnType<typeof setTimeout> } | null = null;

function release(handoff: CallHandoff): void {
  handoff.detach?.();
  handoff.media?.stream.getTracks().forEach((track) => track.stop());
  handoff.prepared?.mesh.closeAll();
}

function dropPending(): void {
  if (pending) {
    clearTimeout(pending.timer);
    release(pending.handoff);
    pending = null;
  }
}

/** Keeps `handoff` for the call screen of its visit (a previous one not taken is let go). */
export function handOffCall(handoff: CallHandoff): void {
  dropPending();
  const timer = setTimeout(() => {
    if (pending?.handoff === handoff) {
      dropPending();
    }
  }, unclaimedHandoffMs);
  pending = { handoff, timer };
}

/** The handoff waiting for this visit's call screen, if any (reading does not take it). */
export function peekCallHandoff(appointmentId: string): CallHandoff | null {
  return pending?.handoff.appointmentId === appointmentId ? pending.handoff : null;
}

/** The call screen took `handoff`: from now on it owns the stream and the connections. */
export function claimCallHandoff(handoff: CallHandoff): void {
  handoff.detach?.();
  if (pending?.handoff === handoff) {
    clearTimeout(pending.timer);
    pending = null;
  }
}
