import type { VisitMediaState } from '@telemedicina/shared';

/** The sender's video level: full video, reduced video, or sound only. */
export type QualityLevel = VisitMediaState['quality'];

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

const order: readonly QualityLevel[] = ['high', 'low', 'audio_only'];

export const initialQualityState: QualityPolicyState = { level: 'high', badSince: null, goodSince: null };

export function isBadSample(sample: QualitySample): boolean {
  return (sample.packetLoss ?? 0) > badLoss || (sample.rttMs ?? 0) > badRttMs;
}

export function isGoodSample(sample: QualitySample): boolean {
  return (sample.packetLoss ?? 0) < goodLoss && (sample.rttMs ?? 0) < goodRttMs;
}

/**
 * The step-down policy: video goes high → low → audio only one level at a time when loss or delay
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

/** The three-bar indicator shown in the call. */
export type ConnectionIndicator = 'good' | 'fair' | 'poor' | 'unknown';

export function indicatorOf(sample: QualitySample | null): ConnectionIndicator {
  if (sample === null || (sample.rttMs === null && sample.packetLoss === null)) {
    return 'unknown';
  }
  if (isBadSample(sample)) {
    return 'poor';
  }
  return isGoodSample(sample) ? 'good' : 'fair';
}
