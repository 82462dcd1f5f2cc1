import { describe, expect, it, vi } from 'vitest';
import { PeerMesh, type OutgoingSignal } from './peer-mesh';

/** A stand-in for RTCPeerConnection with the signalling state machine the mesh relies on. */
class FakePeerConnection {
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  iceConnectionState: RTCIceConnectionState = 'new';
  localDescription: { type: RTCSdpType; sdp: string } | null = null;
  remoteDescription: { type: RTCSdpType; sdp: string } | null = null;
  transceivers: RTCRtpTransceiver[] = [];
  candidates: RTCIceCandidateInit[] = [];
  log: string[] = [];
  closed = false;
  onnegotiationneeded: (() => Promise<void>) | null = null;
  onicecandidate: unknown = null;
  ontrack: unknown = null;
  oniceconnectionstatechange: (() => void) | null = null;
  onsignalingstatechange: (() => void) | null = null;
  onconnectionstatechange: unknown = null;

  setLocalDescription(): Promise<void> {
    if (this.signalingState === 'have-remote-offer') {
      this.localDescription = { type: 'answer', sdp: 'answer-sdp' };
      this.signalingState = 'stable';
    } else {
      this.localDescription = { type: 'offer', sdp: 'offer-sdp' };
      this.signalingState = 'have-local-offer';
    }
    this.log.push(`local ${this.localDescription.type}`);
    return Promise.resolve();
  }

  setRemoteDescription(description: { type: RTCSdpType; sdp: string }): Promise<void> {
    this.remoteDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-remote-offer' : 'stable';
    if (description.type === 'offer' && this.transceivers.length === 0) {
      // The offer's media sections become receive-only transceivers.
      for (const kind of ['audio', 'video']) {
        this.transceivers.push(this.transceiver(kind, null, 'recvonly'));
      }
    }
    this.log.push(`remote ${description.type}`);
    return Promise.resolve();
  }

  addIceCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    if (!this.remoteDescription) {
      return Promise.reject(new Error('no remote description'));
    }
    this.candidates.push(candidate);
    return Promise.resolve();
  }

  addTrack(track: MediaStreamTrack): RTCRtpSender {
    const transceiver = this.transceiver(track.kind, track, 'sendrecv');
    this.transceivers.push(transceiver);
    this.log.push(`addTrack ${track.kind}`);
    return transceiver.sender;
  }

  private transceiver(kind: string, track: MediaStreamTrack | null, direction: RTCRtpTransceiverDirection) {
    const log = this.log;
    const sender = {
      track,
      replaceTrack(next: MediaStreamTrack | null) {
        sender.track = next;
        log.push(`replaceTrack ${kind}`);
        return Promise.resolve();
      },
      setStreams: () => undefined,
    };
    return {
      sender,
      receiver: { track: { kind } },
      direction,
      currentDirection: null,
    } as unknown as RTCRtpTransceiver;
  }

  getTransceivers() {
    return this.transceivers;
  }

  getSenders() {
    return this.transceivers.map((transceiver) => transceiver.sender);
  }

  restartIce() {
    this.log.push('restartIce');
  }

  close() {
    this.closed = true;
  }
}

const track = (kind: string) => ({ kind }) as MediaStreamTrack;
const localStream = {
  getAudioTracks: () => [track('audio')],
  getVideoTracks: () => [track('video')],
} as unknown as MediaStream;

function createMesh(selfKey: string) {
  const sent: OutgoingSignal[] = [];
  const created: FakePeerConnection[] = [];
  const mesh = new PeerMesh({
    selfKey,
    iceServers: [],
    send: (signal) => sent.push(signal),
    onChange: () => undefined,
    createPeerConnection: () => {
      const pc = new FakePeerConnection();
      created.push(pc);
      return pc as unknown as RTCPeerConnection;
    },
  });
  mesh.setLocalStream(localStream);
  return { mesh, sent, created };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const candidate = { candidate: 'candidate:1 1 udp 1 192.0.2.2 5000 typ host', sdpMid: '0', sdpMLineIndex: 0 };

describe('peer mesh (perfect negotiation)', () => {
  it('answers an offer from someone new: applies it first, then sends its own tracks in the answer', async () => {
    const { mesh, sent, created } = createMesh('user:a');
    mesh.handleSignal({ appointmentId: 'v', from: 'user:b', candidate });
    expect(created).toHaveLength(1);
    // That first contact was a candidate: a connection that offers as usual.
    expect(created[0]!.log).toEqual(['addTrack audio', 'addTrack video']);

    const answering = createMesh('user:a');
    answering.mesh.handleSignal({
      appointmentId: 'v',
      from: 'user:b',
      description: { type: 'offer', sdp: 'o' },
    });
    answering.mesh.handleSignal({ appointmentId: 'v', from: 'user:b', candidate });
    await settle();
    const pc = answering.created[0]!;
    expect(pc.log).toEqual(['remote offer', 'replaceTrack audio', 'replaceTrack video', 'local answer']);
    expect(pc.transceivers.map((transceiver) => transceiver.direction)).toEqual(['sendrecv', 'sendrecv']);
    expect(pc.candidates).toEqual([{ ...candidate, usernameFragment: null }]);
    expect(answering.sent).toEqual([{ to: 'user:b', description: { type: 'answer', sdp: 'answer-sdp' } }]);
    expect(sent).toEqual([]);
  });

  it('keeps candidates that come before the description and adds them after it', async () => {
    const { mesh, created } = createMesh('user:a');
    mesh.connect('user:b');
    mesh.handleSignal({ appointmentId: 'v', from: 'user:b', candidate });
    await settle();
    expect(created[0]!.candidates).toEqual([]);
    mesh.handleSignal({ appointmentId: 'v', from: 'user:b', description: { type: 'offer', sdp: 'o' } });
    await settle();
    expect(created[0]!.candidates).toHaveLength(1);
  });

  it('on an offer collision the impolite side ignores the offer and the polite side answers it', async () => {
    // 'user:a' < 'user:b': a is impolite towards b, b is polite towards a.
    const impolite = createMesh('user:a');
    impolite.mesh.connect('user:b');
    await impolite.created[0]!.onnegotiationneeded!();
    impolite.mesh.handleSignal({
      appointmentId: 'v',
      from: 'user:b',
      description: { type: 'offer', sdp: 'o' },
    });
    await settle();
    expect(impolite.created[0]!.signalingState).toBe('have-local-offer');
    expect(impolite.sent.filter((signal) => signal.description?.type === 'answer')).toEqual([]);

    const polite = createMesh('user:b');
    polite.mesh.connect('user:a');
    await polite.created[0]!.onnegotiationneeded!();
    polite.mesh.handleSignal({
      appointmentId: 'v',
      from: 'user:a',
      description: { type: 'offer', sdp: 'o' },
    });
    await settle();
    expect(polite.sent.at(-1)).toEqual({ to: 'user:a', description: { type: 'answer', sdp: 'answer-sdp' } });
  });

  it('a restart rebuilds an existing connection, and opens none by itself', () => {
    const { mesh, created } = createMesh('user:a');
    mesh.handleSignal({ appointmentId: 'v', from: 'user:b', restart: true });
    expect(created).toHaveLength(0);
    expect(mesh.views()).toEqual([]);
    mesh.connect('user:b');
    mesh.handleSignal({ appointmentId: 'v', from: 'user:b', restart: true });
    expect(created).toHaveLength(2);
    expect(created[0]!.closed).toBe(true);
    expect(mesh.views().map((view) => view.key)).toEqual(['user:b']);
  });

  it('asks the other side to start over when it rebuilds after they joined again', () => {
    const { mesh, sent, created } = createMesh('user:a');
    mesh.connect('user:b');
    mesh.rebuild('user:b', true);
    expect(sent).toEqual([{ to: 'user:b', restart: true }]);
    expect(created[0]!.closed).toBe(true);
    mesh.close('user:b');
    expect(mesh.views()).toEqual([]);
  });

  it('prepares the offer to someone waiting and sends it, after the restart, once they are admitted', async () => {
    const { mesh, sent, created } = createMesh('user:a');
    mesh.prepare(['user:b']);
    expect(created).toHaveLength(1);
    expect(mesh.isPrepared('user:b')).toBe(true);
    expect(mesh.views()).toEqual([]);
    expect(mesh.connections()).toEqual([]);
    await created[0]!.onnegotiationneeded!();
    expect(created[0]!.signalingState).toBe('have-local-offer');
    expect(sent).toEqual([]);

    mesh.rebuild('user:b', true);
    expect(created).toHaveLength(1);
    expect(created[0]!.closed).toBe(false);
    expect(mesh.isPrepared('user:b')).toBe(false);
    expect(mesh.views().map((view) => view.key)).toEqual(['user:b']);
    expect(sent).toEqual([
      { to: 'user:b', restart: true },
      { to: 'user:b', description: { type: 'offer', sdp: 'offer-sdp' } },
    ]);

    mesh.handleSignal({ appointmentId: 'v', from: 'user:b', description: { type: 'answer', sdp: 'a' } });
    await settle();
    expect(created[0]!.signalingState).toBe('stable');
  });

  it('closes a prepared connection when they no longer wait, or when their own offer comes first', async () => {
    const { mesh, sent, created } = createMesh('user:a');
    mesh.prepare(['user:b', 'user:c']);
    expect(created).toHaveLength(2);
    mesh.prepare(['user:c']);
    expect(created[0]!.closed).toBe(true);
    expect(mesh.isPrepared('user:b')).toBe(false);

    mesh.handleSignal({ appointmentId: 'v', from: 'user:c', description: { type: 'offer', sdp: 'o' } });
    await settle();
    expect(created[1]!.closed).toBe(true);
    expect(created).toHaveLength(3);
    expect(created[2]!.log).toContain('local answer');
    expect(sent).toEqual([{ to: 'user:c', description: { type: 'answer', sdp: 'answer-sdp' } }]);

    mesh.prepare(['user:d']);
    mesh.closeAll();
    expect(created[3]!.closed).toBe(true);
  });
});

describe('peer mesh (recovery and chat only)', () => {
  it('restarts ICE on every connection when the network comes back or changes', () => {
    const { mesh, created } = createMesh('user:a');
    mesh.connect('user:b');
    mesh.connect('user:c');
    mesh.restartIce();
    expect(created.map((pc) => pc.log.filter((entry) => entry === 'restartIce').length)).toEqual([1, 1]);
  });

  it('restarts ICE on a negotiated connection that gathers no candidate pair, or keeps checking', async () => {
    vi.useFakeTimers();
    try {
      const { mesh, created } = createMesh('user:a');
      mesh.connect('user:b');
      const pc = created[0]!;
      const restarts = () => pc.log.filter((entry) => entry === 'restartIce').length;
      await pc.onnegotiationneeded?.();
      // Not negotiated yet (our offer is out): nothing to wait for.
      vi.advanceTimersByTime(10_000);
      expect(restarts()).toBe(0);
      mesh.handleSignal({ appointmentId: 'v', from: 'user:b', description: { type: 'answer', sdp: 'a' } });
      await vi.advanceTimersByTimeAsync(0);
      pc.onsignalingstatechange?.();
      // Negotiated, and no candidate pair at all (the network had just come back, say).
      vi.advanceTimersByTime(2_499);
      expect(restarts()).toBe(0);
      vi.advanceTimersByTime(1);
      expect(restarts()).toBe(1);
      // Checking is progress: the longer wait starts again, and a connection that connects is left alone.
      pc.iceConnectionState = 'checking';
      pc.oniceconnectionstatechange?.();
      vi.advanceTimersByTime(7_999);
      expect(restarts()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(restarts()).toBe(2);
      pc.iceConnectionState = 'connected';
      pc.oniceconnectionstatechange?.();
      vi.advanceTimersByTime(60_000);
      expect(restarts()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends no sound at the chat-only level, and sound again once it steps back up', () => {
    const { mesh, created } = createMesh('user:a');
    mesh.connect('user:b');
    const pc = created[0]!;
    const audioSender = () =>
      pc.getTransceivers().find((transceiver) => transceiver.receiver.track.kind === 'audio')!.sender;
    expect(audioSender().track?.kind).toBe('audio');
    mesh.setAudioSending(false);
    expect(audioSender().track).toBeNull();
    // Someone who joins meanwhile gets no sound either.
    mesh.connect('user:c');
    expect(created[1]!.log).toEqual(['addTrack video']);
    mesh.setAudioSending(true);
    expect(audioSender().track?.kind).toBe('audio');
    expect(created[1]!.log).toContain('addTrack audio');
  });
});
