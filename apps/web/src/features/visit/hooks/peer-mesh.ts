import { isPoliteTowards, type VisitSignal, type VisitSignalDelivery } from '@telemedicina/shared/visits';
import { putLocalTracks, transceiverOf, withVideoLevel } from './peer-tracks';

/** What the mesh sends to one other participant (the caller adds the appointment). */
export type OutgoingSignal = Omit<VisitSignal, 'appointmentId'>;

/** One other participant's connection, as the call screen sees it. */
export interface PeerView {
  key: string;
  stream: MediaStream | null;
  connectionState: RTCPeerConnectionState;
}

interface Peer {
  key: string;
  pc: RTCPeerConnection;
  polite: boolean;
  makingOffer: boolean;
  ignoreOffer: boolean;
  isSettingRemoteAnswerPending: boolean;
  /** Candidates that arrived before the remote description. */
  pendingCandidates: RTCIceCandidateInit[];
  /** Signals are handled one after another per peer. */
  queue: Promise<void>;
  stream: MediaStream | null;
  disconnectedTimer: ReturnType<typeof setTimeout> | null;
  /** Runs while the connection is negotiated but not connected yet (see {@link PeerMesh.watchConnecting}). */
  connectingTimer: ReturnType<typeof setTimeout> | null;
  closed: boolean;
  /** Opened by their offer: our tracks join its transceivers before we answer (no second round). */
  tracksDeferred: boolean;
  /**
   * Prepared ahead (see {@link PeerMesh.prepare}): what it would send (its offer, its candidates)
   * is kept here until they are in the call; null once it signals directly.
   */
  held: OutgoingSignal[] | null;
}

export interface PeerMeshOptions {
  selfKey: string;
  iceServers: RTCIceServer[];
  send: (signal: OutgoingSignal) => void;
  onChange: () => void;
  /** How long "disconnected" may last before an ICE restart (ms). */
  disconnectedRestartMs?: number;
  /**
   * How long a negotiated connection may stay without a single candidate pair (ICE "new") before
   * an ICE restart (ms); and how long it may keep checking pairs without connecting.
   */
  noPairRestartMs?: number;
  checkingRestartMs?: number;
  createPeerConnection?: (configuration: RTCConfiguration) => RTCPeerConnection;
}

/**
 * A mesh of RTCPeerConnections, one per other participant, negotiated with the "perfect
 * negotiation" pattern (MDN): either side may offer whenever its tracks change; on a collision
 * the impolite side ignores the incoming offer and the polite side rolls back and answers.
 * Politeness is `isPoliteTowards(ownKey, otherKey)`, the same answer on both sides.
 */
export class PeerMesh {
  private readonly peers = new Map<string, Peer>();
  /** Connections made ahead to people waiting to be admitted (not shown, not measured). */
  private readonly prepared = new Map<string, Peer>();
  private localStream: MediaStream | null = null;
  /** Replaces the camera track in every sender (screen share, camera switch, audio only). */
  private videoOverride: { track: MediaStreamTrack | null } | null = null;
  private readonly restartMs: number;
  private readonly noPairRestartMs: number;
  private readonly checkingRestartMs: number;
  /** The chat-only level: no microphone is sent (see {@link setAudioSending}). */
  private isAudioOff = false;

  constructor(private readonly options: PeerMeshOptions) {
    this.restartMs = options.disconnectedRestartMs ?? 5_000;
    this.noPairRestartMs = options.noPairRestartMs ?? 2_500;
    this.checkingRestartMs = options.checkingRestartMs ?? 8_000;
  }

  /** The other participants' connections, in join order. */
  views(): PeerView[] {
    return [...this.peers.values()].map((peer) => ({
      key: peer.key,
      stream: peer.stream,
      connectionState: peer.pc.connectionState,
    }));
  }

  connections(): RTCPeerConnection[] {
    return [...this.peers.values()].map((peer) => peer.pc);
  }

  /** Each other participant's key with their live connection. */
  connectionsByKey(): [string, RTCPeerConnection][] {
    return [...this.peers.values()].map((peer) => [peer.key, peer.pc]);
  }

  has(key: string): boolean {
    return this.peers.has(key);
  }

  /**
   * Opens a connection to `key` (no-op when one exists); adding the tracks starts negotiation.
   * With `answering`, their offer is on its way: the tracks are added once it is applied.
   */
  connect(key: string, answering = false): void {
    if (key === this.options.selfKey || this.peers.has(key)) {
      return;
    }
    if (!answering && this.activatePrepared(key, false)) {
      return;
    }
    this.dropPrepared(key);
    this.peers.set(key, this.createPeer(key, answering, false));
    this.options.onChange();
  }

  /**
   * Prepares connections to the people in `keys` who wait to be admitted (the host's side): each
   * creates its offer and gathers its candidates now and keeps them, so once they are admitted
   * (`rebuild` after `visit.participantJoined`) the offer goes out at once instead of being made
   * only then. Prepared connections of anyone no longer in `keys` are closed.
   */
  prepare(keys: readonly string[]): void {
    const wanted = new Set(keys);
    for (const key of [...this.prepared.keys()]) {
      if (!wanted.has(key)) {
        this.dropPrepared(key);
      }
    }
    for (const key of wanted) {
      if (key !== this.options.selfKey && !this.peers.has(key) && !this.prepared.has(key)) {
        this.prepared.set(key, this.createPeer(key, false, true));
      }
    }
  }

  /** Whether a connection to `key` is prepared ahead (see {@link prepare}). */
  isPrepared(key: string): boolean {
    return this.prepared.has(key);
  }

  /** Makes the prepared connection to `key` the live one and sends what it kept; false when none. */
  private activatePrepared(key: string, notify: boolean): boolean {
    const peer = this.prepared.get(key);
    if (!peer) {
      return false;
    }
    this.prepared.delete(key);
    this.peers.set(key, peer);
    if (notify) {
      this.options.send({ to: key, restart: true });
    }
    const held = peer.held ?? [];
    peer.held = null;
    for (const signal of held) {
      this.options.send(signal);
    }
    this.options.onChange();
    return true;
  }

  private dropPrepared(key: string): void {
    const peer = this.prepared.get(key);
    if (peer) {
      this.prepared.delete(key);
      peer.closed = true;
      peer.pc.close();
    }
  }

  /** Sends a signal of this peer's connection, or keeps it while the connection is only prepared. */
  private sendFor(peer: Peer, signal: OutgoingSignal): void {
    if (peer.closed) {
      return;
    }
    if (peer.held) {
      peer.held.push(signal);
    } else {
      this.options.send(signal);
    }
  }

  private createPeer(key: string, answering: boolean, isPrepared: boolean): Peer {
    const create =
      this.options.createPeerConnection ?? ((configuration) => new RTCPeerConnection(configuration));
    const pc = create({ iceServers: this.options.iceServers });
    const peer: Peer = {
      key,
      pc,
      polite: isPoliteTowards(this.options.selfKey, key),
      makingOffer: false,
      ignoreOffer: false,
      isSettingRemoteAnswerPending: false,
      pendingCandidates: [],
      queue: Promise.resolve(),
      stream: null,
      disconnectedTimer: null,
      connectingTimer: null,
      closed: false,
      tracksDeferred: answering,
      held: isPrepared ? [] : null,
    };

    pc.onnegotiationneeded = async () => {
      try {
        peer.makingOffer = true;
        await pc.setLocalDescription();
        if (pc.localDescription && !peer.closed) {
          this.sendDescription(peer, pc.localDescription);
        }
      } catch {
        // A newer negotiation replaces this one.
      } finally {
        peer.makingOffer = false;
      }
    };
    pc.onicecandidate = ({ candidate }) => {
      if (candidate && !peer.closed) {
        const json = candidate.toJSON();
        this.sendFor(peer, {
          to: key,
          candidate: {
            candidate: json.candidate ?? '',
            sdpMid: json.sdpMid ?? null,
            sdpMLineIndex: json.sdpMLineIndex ?? null,
            usernameFragment: json.usernameFragment ?? null,
          },
        });
      }
    };
    pc.ontrack = ({ track, streams }) => {
      const stream = streams[0] ?? peer.stream ?? new MediaStream();
      if (!stream.getTracks().includes(track)) {
        stream.addTrack(track);
      }
      peer.stream = stream;
      this.options.onChange();
    };
    pc.oniceconnectionstatechange = () => {
      const state = pc.iceConnectionState;
      if (state === 'failed') {
        pc.restartIce();
      } else if (state === 'disconnected') {
        if (peer.disconnectedTimer === null) {
          peer.disconnectedTimer = setTimeout(() => {
            peer.disconnectedTimer = null;
            if (!peer.closed && pc.iceConnectionState === 'disconnected') {
              pc.restartIce();
            }
          }, this.restartMs);
        }
      } else if (peer.disconnectedTimer !== null) {
        clearTimeout(peer.disconnectedTimer);
        peer.disconnectedTimer = null;
      }
      this.watchConnecting(peer);
    };
    pc.onsignalingstatechange = () => this.watchConnecting(peer);
    pc.onconnectionstatechange = () => this.options.onChange();

    if (!answering) {
      this.addLocalTracks(peer);
    }
    return peer;
  }

  /**
   * A connection negotiated (both descriptions, signalling stable) that does not connect is
   * restarted: with no candidate pair at all after {@link noPairRestartMs} — seen when the network
   * has just come back: the browser had not yet noticed its interfaces again and gathered no
   * candidate, and it never gathers again by itself — or still checking after
   * {@link checkingRestartMs}. Every change of state is progress and starts the wait again.
   */
  private watchConnecting(peer: Peer): void {
    if (peer.connectingTimer !== null) {
      clearTimeout(peer.connectingTimer);
      peer.connectingTimer = null;
    }
    const { pc } = peer;
    const isWaiting = () =>
      !peer.closed &&
      pc.signalingState === 'stable' &&
      pc.remoteDescription !== null &&
      (pc.iceConnectionState === 'new' || pc.iceConnectionState === 'checking');
    if (!isWaiting()) {
      return;
    }
    const waitMs = pc.iceConnectionState === 'new' ? this.noPairRestartMs : this.checkingRestartMs;
    peer.connectingTimer = setTimeout(() => {
      peer.connectingTimer = null;
      if (isWaiting()) {
        pc.restartIce();
      }
    }, waitMs);
  }

  /** Closes the connection to `key` (they left, or their connection was replaced). */
  close(key: string): void {
    const peer = this.peers.get(key);
    if (!peer) {
      return;
    }
    peer.closed = true;
    if (peer.disconnectedTimer !== null) {
      clearTimeout(peer.disconnectedTimer);
    }
    if (peer.connectingTimer !== null) {
      clearTimeout(peer.connectingTimer);
    }
    peer.pc.close();
    this.peers.delete(key);
    this.options.onChange();
  }

  closeAll(): void {
    for (const key of [...this.prepared.keys()]) {
      this.dropPrepared(key);
    }
    for (const key of [...this.peers.keys()]) {
      this.close(key);
    }
  }

  /**
   * Closes and reopens the connection to `key`. With `notify`, first asks them to do the same
   * (they joined again: whatever connection they had to us belongs to their old page).
   */
  rebuild(key: string, notify = false): void {
    this.close(key);
    if (this.activatePrepared(key, notify)) {
      return;
    }
    if (notify) {
      this.options.send({ to: key, restart: true });
    }
    this.connect(key);
  }

  /** An incoming `visit.signal`: opens the connection on first contact, then negotiates in order. */
  handleSignal(signal: VisitSignalDelivery): void {
    if (signal.restart) {
      // They start over with us: drop what we had (with no connection yet, their offer follows).
      if (this.peers.has(signal.from)) {
        this.rebuild(signal.from);
      }
      if (!signal.description && !signal.candidate) {
        return;
      }
    }
    if (!this.peers.has(signal.from)) {
      this.connect(signal.from, signal.description?.type === 'offer');
    }
    const peer = this.peers.get(signal.from);
    if (!peer) {
      return;
    }
    peer.queue = peer.queue.then(() => this.applySignal(peer, signal)).catch(() => undefined);
  }

  private async applySignal(peer: Peer, signal: VisitSignalDelivery): Promise<void> {
    const { pc } = peer;
    if (peer.closed) {
      return;
    }
    const description = signal.description;
    if (description) {
      const readyForOffer =
        !peer.makingOffer && (pc.signalingState === 'stable' || peer.isSettingRemoteAnswerPending);
      const offerCollision = description.type === 'offer' && !readyForOffer;
      peer.ignoreOffer = !peer.polite && offerCollision;
      if (peer.ignoreOffer) {
        return;
      }
      peer.isSettingRemoteAnswerPending = description.type === 'answer';
      try {
        await pc.setRemoteDescription(description);
      } finally {
        peer.isSettingRemoteAnswerPending = false;
      }
      for (const candidate of peer.pendingCandidates.splice(0)) {
        await pc.addIceCandidate(candidate).catch(() => undefined);
      }
      if (peer.tracksDeferred) {
        peer.tracksDeferred = false;
        this.addLocalTracks(peer);
      }
      if (description.type === 'offer') {
        await pc.setLocalDescription();
        if (pc.localDescription && !peer.closed) {
          this.sendDescription(peer, pc.localDescription);
        }
      }
      return;
    }
    const candidate = signal.candidate;
    if (candidate) {
      const init: RTCIceCandidateInit = {
        candidate: candidate.candidate,
        sdpMid: candidate.sdpMid ?? null,
        sdpMLineIndex: candidate.sdpMLineIndex ?? null,
        usernameFragment: candidate.usernameFragment ?? null,
      };
      if (!pc.remoteDescription) {
        peer.pendingCandidates.push(init);
        return;
      }
      try {
        await pc.addIceCandidate(init);
      } catch (error) {
        if (!peer.ignoreOffer) {
          throw error;
        }
      }
    }
  }

  private sendDescription(peer: Peer, description: RTCSessionDescription): void {
    this.sendFor(peer, {
      to: peer.key,
      description: { type: description.type, sdp: description.sdp },
    });
  }

  /** The camera and microphone to send (replaces the tracks of every connection). */
  setLocalStream(stream: MediaStream | null): void {
    this.localStream = stream;
    for (const peer of [...this.peers.values(), ...this.prepared.values()]) {
      if (!peer.tracksDeferred) {
        this.addLocalTracks(peer);
      }
    }
  }

  /**
   * Sends another video track instead of the camera's (a shared screen), or none (audio only);
   * `undefined` goes back to the camera.
   */
  overrideVideo(track: MediaStreamTrack | null | undefined): void {
    this.videoOverride = track === undefined ? null : { track };
    const video = this.currentVideoTrack();
    for (const peer of [...this.peers.values(), ...this.prepared.values()]) {
      if (peer.tracksDeferred) {
        continue;
      }
      const sender = transceiverOf(peer.pc, 'video')?.sender;
      if (sender) {
        void sender.replaceTrack(video).catch(() => undefined);
      } else if (video && this.localStream) {
        peer.pc.addTrack(video, this.localStream);
      }
    }
  }

  private currentVideoTrack(): MediaStreamTrack | null {
    if (this.videoOverride) {
      return this.videoOverride.track;
    }
    return this.localStream?.getVideoTracks()[0] ?? null;
  }

  /** Puts the local tracks on the connection (see {@link putLocalTracks}). */
  private addLocalTracks(peer: Peer): void {
    const stream = this.localStream;
    if (!stream) {
      return;
    }
    const audio = this.isAudioOff ? null : (stream.getAudioTracks()[0] ?? null);
    putLocalTracks(peer.pc, stream, { audio, video: this.currentVideoTrack() });
  }

  /** The network changed or came back: new candidates and a new pair on every live connection. */
  restartIce(): void {
    for (const peer of this.peers.values()) {
      peer.pc.restartIce();
    }
  }

  /** Stops (false) or resumes sending the microphone to everyone: the chat-only level sends no sound. */
  setAudioSending(isSending: boolean): void {
    if (this.isAudioOff === isSending) {
      this.isAudioOff = !isSending;
      this.setLocalStream(this.localStream);
    }
  }

  /** Applies the video level to every video sender (bitrate cap and resolution scale). */
  async applyVideoLevel(level: 'high' | 'low' | 'audio_only' | 'chat_only'): Promise<void> {
    for (const peer of this.peers.values()) {
      const sender = transceiverOf(peer.pc, 'video')?.sender;
      if (!sender) {
        continue;
      }
      await sender.setParameters(withVideoLevel(sender.getParameters(), level)).catch(() => undefined);
    }
  }
}
