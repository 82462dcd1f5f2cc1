/**
 * A small stand-in for RTCPeerConnection for tests of what is built on PeerMesh: tracks become
 * transceivers, `negotiate()` runs the offer the browser would make, descriptions and candidates
 * are recorded. (peer-mesh.test.ts has a fuller one for the negotiation itself.)
 */
export class FakePeerConnection {
  static created: FakePeerConnection[] = [];
  signalingState: RTCSignalingState = 'stable';
  connectionState: RTCPeerConnectionState = 'new';
  iceConnectionState: RTCIceConnectionState = 'new';
  localDescription: { type: RTCSdpType; sdp: string } | null = null;
  remoteDescription: { type: RTCSdpType; sdp: string } | null = null;
  transceivers: RTCRtpTransceiver[] = [];
  closed = false;
  onnegotiationneeded: (() => Promise<void>) | null = null;
  onicecandidate: ((event: { candidate: { toJSON: () => RTCIceCandidateInit } | null }) => void) | null =
    null;
  ontrack: unknown = null;
  oniceconnectionstatechange: unknown = null;
  onconnectionstatechange: unknown = null;

  constructor(readonly configuration: RTCConfiguration = {}) {
    FakePeerConnection.created.push(this);
  }

  setLocalDescription(): Promise<void> {
    this.localDescription = { type: 'offer', sdp: 'offer-sdp' };
    this.signalingState = 'have-local-offer';
    return Promise.resolve();
  }

  setRemoteDescription(description: { type: RTCSdpType; sdp: string }): Promise<void> {
    this.remoteDescription = description;
    this.signalingState = 'stable';
    return Promise.resolve();
  }

  addIceCandidate(): Promise<void> {
    return Promise.resolve();
  }

  addTrack(track: MediaStreamTrack): RTCRtpSender {
    const sender = { track, replaceTrack: () => Promise.resolve(), setStreams: () => undefined };
    this.transceivers.push({
      sender,
      receiver: { track: { kind: track.kind } },
      direction: 'sendrecv',
      currentDirection: null,
    } as unknown as RTCRtpTransceiver);
    return sender as unknown as RTCRtpSender;
  }

  getTransceivers(): RTCRtpTransceiver[] {
    return this.transceivers;
  }

  /** What the browser does once tracks are added: the offer, then a gathered candidate. */
  async negotiate(): Promise<void> {
    await this.onnegotiationneeded?.();
    this.onicecandidate?.({
      candidate: {
        toJSON: () => ({ candidate: 'candidate:1 1 udp 1 192.0.2.2 5000 typ host', sdpMid: '0' }),
      },
    });
  }

  getConfiguration(): RTCConfiguration {
    return this.configuration;
  }

  setConfiguration(configuration: RTCConfiguration): void {
    Object.assign(this.configuration, configuration);
  }

  restartIce(): void {}

  close(): void {
    this.closed = true;
    this.signalingState = 'closed';
  }
}

/** A camera-and-microphone stream whose tracks can be stopped (and say so). */
export function fakeStream(): MediaStream {
  const tracks = ['audio', 'video'].map((kind) => {
    const track = {
      kind,
      enabled: true,
      readyState: 'live' as MediaStreamTrackState,
      stop: () => {
        track.readyState = 'ended';
      },
      getSettings: () => ({ deviceId: `${kind}-1` }),
    };
    return track as unknown as MediaStreamTrack;
  });
  return {
    getTracks: () => tracks,
    getAudioTracks: () => tracks.filter((track) => track.kind === 'audio'),
    getVideoTracks: () => tracks.filter((track) => track.kind === 'video'),
  } as unknown as MediaStream;
}
