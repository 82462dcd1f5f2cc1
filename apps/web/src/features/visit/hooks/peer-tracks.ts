/** The live (not stopped) transceiver of one kind on a connection, if any. */
export function transceiverOf(pc: RTCPeerConnection, kind: 'audio' | 'video'): RTCRtpTransceiver | undefined {
  return pc
    .getTransceivers()
    .find(
      (transceiver) =>
        transceiver.currentDirection !== 'stopped' &&
        (transceiver.sender.track?.kind ?? transceiver.receiver.track.kind) === kind,
    );
}

/**
 * Puts the local tracks on the connection: a new sender when there is none of that kind, else
 * the track replaces the sender's. A transceiver created by the other side's offer before our
 * camera was on only receives: it is turned to send as well (which renegotiates).
 */
export function putLocalTracks(
  pc: RTCPeerConnection,
  stream: MediaStream,
  tracks: { audio: MediaStreamTrack | null; video: MediaStreamTrack | null },
): void {
  for (const [kind, track] of [
    ['audio', tracks.audio],
    ['video', tracks.video],
  ] as const) {
    const transceiver = transceiverOf(pc, kind);
    if (!transceiver) {
      if (track) {
        pc.addTrack(track, stream);
      }
      continue;
    }
    if (transceiver.sender.track !== track) {
      void transceiver.sender.replaceTrack(track).catch(() => undefined);
    }
    if (track && (transceiver.direction === 'recvonly' || transceiver.direction === 'inactive')) {
      transceiver.sender.setStreams?.(stream);
      transceiver.direction = 'sendrecv';
    }
  }
}

/** A video sender's parameters at a level: capped bitrate and a quarter resolution when low. */
export function withVideoLevel(
  parameters: RTCRtpSendParameters,
  level: 'high' | 'low' | 'audio_only' | 'chat_only',
): RTCRtpSendParameters {
  if (!parameters.encodings || parameters.encodings.length === 0) {
    parameters.encodings = [{}];
  }
  for (const encoding of parameters.encodings) {
    if (level === 'low') {
      encoding.maxBitrate = 150_000;
      encoding.scaleResolutionDownBy = 4;
    } else {
      delete encoding.maxBitrate;
      encoding.scaleResolutionDownBy = 1;
    }
  }
  return parameters;
}
