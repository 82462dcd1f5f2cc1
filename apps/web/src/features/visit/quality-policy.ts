import type { CallQualityLevel, ConnectionIndicator } from '@telemedicina/shared/visits';

/** The sender's level: full video, reduced video, sound only, or the chat only. */
export type QualityLevel = CallQualityLevel;
export type { ConnectionIndicator };

/** One look at the connection (getStats every 2 s, worst over the peers). */
export interface QualitySample {
  /** Round trip of the selected candidate pair, in ms. */
  rttMs: number | null;
  /** Fraction of packets the others report lost since the last sample (0…1). */
  packetLoss: number | null;
  /** What this page sends, in kbit/s. */
  outgoingKbps: number | null;
}

export interface QualityPolicyState {
  level: QualityLevel;
  /** Since when the samples have been bad / good without interruption (ms), or null. */
  badSince: number | null;
  goodSince: number | null;
}

/** Loss or delay that make video hurt the conversation. */
export const badLoss = 0.08;
export const badRttMs = 600;
/** Loss and delay under which the connection is comfortably good. */
export const goodLoss = 0.02;
export const goodRttMs = 300;
/** How long a problem must last before stepping down (ms): two samples. */
export const stepDownAfterMs = 4_000;
/** How long the connection must stay good before stepping back up (ms). */
export const stepUpAfterMs = 20_000;

const order: readonly QualityLevel[] = ['high', 'low', 'audio_only', 'chat_only'];

export const initialQualityState: QualityPolicyState = { level: 'high', badSince: null, goodSince: null };

export function isBadSample(sample: QualitySample): boolean {
  return (sample.packetLoss ?? 0) > badLoss || (sample.rttMs ?? 0) > badRttMs;
}

export function isGoodSample(sample: QualitySample): boolean {
  return (sample.packetLoss ?? 0) < goodLoss && (sample.rttMs ?? 0) < goodRttMs;
}

/**
 * The step-down policy: high → low → audio only → chat only, one level at a time when loss or delay
 * stay bad for `stepDownAfterMs`, and back up one level after `stepUpAfterMs` of good samples. A
 * sample in between (neither bad nor good) keeps the level and restarts both clocks; a level
 * change restarts them too, so every step needs its own stretch of evidence.
 */
export function nextQuality(
  state: QualityPolicyState,
  sample: QualitySample,
  now: number,
): QualityPolicyState {
  const index = order.indexOf(state.level);
  if (isBadSample(sample)) {
    const badSince = state.badSince ?? now;
    if (now - badSince >= stepDownAfterMs && index < order.length - 1) {
      return { level: order[index + 1]!, badSince: null, goodSince: null };
    }
    return { level: state.level, badSince, goodSince: null };
  }
  if (isGoodSample(sample)) {
    const goodSince = state.goodSince ?? now;
    if (now - goodSince >= stepUpAfterMs && index > 0) {
      return { level: order[index - 1]!, badSince: null, goodSince: null };
    }
    return { level: state.level, badSince: null, goodSince };
  }
  return { level: state.level, badSince: null, goodSince: null };
}

/**
 * The plain indicator each side sees: `lost` while a connection of the call is down (or this page's
 * own link to the server is), `weak` when loss or delay hurt the conversation (the samples that make
 * the call step down), `good` otherwise; `unknown` before anything was measured.
 */
export function indicatorOf(sample: QualitySample | null, isLost = false): ConnectionIndicator {
  if (isLost) {
    return 'lost';
  }
  if (sample === null || (sample.rttMs === null && sample.packetLoss === null)) {
    return 'unknown';
  }
  return isBadSample(sample) ? 'weak' : 'good';
}

/** Whether a connection's state means the media path is down (or being restored after it was). */
export function isConnectionLost(state: { connectionState: string; iceConnectionState?: string }): boolean {
  return (
    state.connectionState === 'disconnected' ||
    state.connectionState === 'failed' ||
    state.iceConnectionState === 'disconnected' ||
    state.iceConnectionState === 'failed'
  );
}

/** How often a page reports its reading to the others (and the visit's record) at most, unless it changes. */
export const readingReportEveryMs = 6_000;

/**
 * Whether to report a new reading now: the first one, an indicator that changed, or the regular
 * report after {@link readingReportEveryMs}. Never more often than the sampling itself (2 s).
 */
export function shouldReportReading(
  last: { indicator: ConnectionIndicator; at: number } | null,
  indicator: ConnectionIndicator,
  now: number,
): boolean {
  return last === null || last.indicator !== indicator || now - last.at >= readingReportEveryMs;
}
