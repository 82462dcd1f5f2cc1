/**
 * Whether a connection still receives anything. A network that is cut without the browser being
 * told (the phone's radio drops, a router in between goes away) leaves the connection "connected"
 * for several seconds — Chromium declares it disconnected only after about 8 s without an answer —
 * and the other person's picture simply freezes. A live connection always receives something:
 * media, RTCP reports about what we send, connectivity checks. So a connection whose received bytes
 * have not moved for {@link interruptedAfterMs} is shown as interrupted (reconnecting) at once.
 */

/** How long a connection may receive nothing before it counts as interrupted (ms). */
export const interruptedAfterMs = 2_000;

/** How often the connections are read for it (ms). */
export const receivingCheckEveryMs = 500;

/** What is kept per connection between two readings. */
export interface ReceivingState {
  bytes: number;
  /** When `bytes` last changed (or was first read). */
  changedAt: number;
}

/**
 * Bytes the connection has received so far, over every transport (RTP, RTCP, ICE checks); the
 * selected candidate pairs' when the report has no transport entries. Null when neither is there.
 */
export function bytesReceivedOf(report: RTCStatsReport): number | null {
  let transports: number | null = null;
  let pairs: number | null = null;
  report.forEach((entry: Record<string, unknown>) => {
    if (typeof entry.bytesReceived !== 'number') {
      return;
    }
    if (entry.type === 'transport') {
      transports = (transports ?? 0) + entry.bytesReceived;
    } else if (entry.type === 'candidate-pair' && (entry.nominated === true || entry.selected === true)) {
      pairs = (pairs ?? 0) + entry.bytesReceived;
    }
  });
  return transports ?? pairs;
}

/** The state after a reading of `bytes` at `now`. */
export function nextReceiving(
  previous: ReceivingState | undefined,
  bytes: number,
  now: number,
): ReceivingState {
  return previous === undefined || previous.bytes !== bytes ? { bytes, changedAt: now } : previous;
}

/** Whether the connection received nothing for {@link interruptedAfterMs} up to `now`. */
export function isInterrupted(state: ReceivingState, now: number): boolean {
  return now - state.changedAt >= interruptedAfterMs;
}
