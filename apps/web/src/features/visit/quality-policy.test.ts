import { describe, expect, it } from 'vitest';
import {
  indicatorOf,
  initialQualityState,
  isConnectionLost,
  nextQuality,
  readingReportEveryMs,
  shouldReportReading,
  stepDownAfterMs,
  stepUpAfterMs,
  type QualityPolicyState,
  type QualitySample,
} from './quality-policy';

const bad: QualitySample = { rttMs: 900, packetLoss: 0.15, outgoingKbps: 300 };
const good: QualitySample = { rttMs: 40, packetLoss: 0, outgoingKbps: 1200 };
const middling: QualitySample = { rttMs: 400, packetLoss: 0.04, outgoingKbps: 600 };

function run(state: QualityPolicyState, sample: QualitySample, from: number, to: number, step = 2_000) {
  let current = state;
  for (let now = from; now <= to; now += step) {
    current = nextQuality(current, sample, now);
  }
  return current;
}

describe('step-down policy', () => {
  it('steps down one level at a time while the network stays bad, not on a single bad sample', () => {
    let state = nextQuality(initialQualityState, bad, 0);
    expect(state.level).toBe('high');
    state = nextQuality(state, good, 2_000);
    state = nextQuality(state, bad, 4_000);
    expect(state.level).toBe('high');
    state = run(state, bad, 6_000, 4_000 + stepDownAfterMs);
    expect(state.level).toBe('low');
    state = run(state, bad, 10_000, 10_000 + stepDownAfterMs);
    expect(state.level).toBe('audio_only');
    // Even sound does not get through: the chat only, and no lower.
    state = run(state, bad, 16_000, 16_000 + stepDownAfterMs);
    expect(state.level).toBe('chat_only');
    state = run(state, bad, 22_000, 60_000);
    expect(state.level).toBe('chat_only');
  });

  it('climbs back from the chat only to sound when the connection recovers', () => {
    // With nothing sent there is no loss to read: the round trip alone says it recovered.
    const quiet: QualitySample = { rttMs: 60, packetLoss: null, outgoingKbps: 0 };
    let state: QualityPolicyState = { level: 'chat_only', badSince: null, goodSince: null };
    state = run(state, quiet, 0, stepUpAfterMs - 2_000);
    expect(state.level).toBe('chat_only');
    state = nextQuality(state, quiet, stepUpAfterMs);
    expect(state.level).toBe('audio_only');
  });

  it('climbs back one level after a stable good period', () => {
    let state: QualityPolicyState = { level: 'audio_only', badSince: null, goodSince: null };
    state = run(state, good, 0, stepUpAfterMs - 2_000);
    expect(state.level).toBe('audio_only');
    state = nextQuality(state, good, stepUpAfterMs);
    expect(state.level).toBe('low');
    state = run(state, good, stepUpAfterMs + 2_000, 2 * stepUpAfterMs + 2_000);
    expect(state.level).toBe('high');
  });

  it('a middling sample restarts the clocks', () => {
    let state: QualityPolicyState = { level: 'low', badSince: null, goodSince: null };
    state = run(state, good, 0, stepUpAfterMs - 2_000);
    state = nextQuality(state, middling, stepUpAfterMs);
    state = nextQuality(state, good, stepUpAfterMs + 2_000);
    expect(state.level).toBe('low');
  });

  it('describes the connection in three plain states', () => {
    expect(indicatorOf(null)).toBe('unknown');
    expect(indicatorOf({ rttMs: null, packetLoss: null, outgoingKbps: 10 })).toBe('unknown');
    expect(indicatorOf(good)).toBe('good');
    // In between is still good enough to talk: "weak" is what makes the call step down.
    expect(indicatorOf(middling)).toBe('good');
    expect(indicatorOf(bad)).toBe('weak');
    expect(indicatorOf({ rttMs: 700, packetLoss: 0, outgoingKbps: 500 })).toBe('weak');
    expect(indicatorOf({ rttMs: 50, packetLoss: 0.09, outgoingKbps: 500 })).toBe('weak');
    expect(indicatorOf(good, true)).toBe('lost');
    expect(indicatorOf(null, true)).toBe('lost');
  });

  it('counts a connection that is down, or being restored, as lost', () => {
    expect(isConnectionLost({ connectionState: 'connected', iceConnectionState: 'connected' })).toBe(false);
    expect(isConnectionLost({ connectionState: 'connecting', iceConnectionState: 'checking' })).toBe(false);
    expect(isConnectionLost({ connectionState: 'connected', iceConnectionState: 'disconnected' })).toBe(true);
    expect(isConnectionLost({ connectionState: 'disconnected' })).toBe(true);
    expect(isConnectionLost({ connectionState: 'failed', iceConnectionState: 'failed' })).toBe(true);
  });

  it('reports a reading when it changes, else every few seconds at most', () => {
    expect(shouldReportReading(null, 'good', 0)).toBe(true);
    const last = { indicator: 'good' as const, at: 10_000 };
    expect(shouldReportReading(last, 'good', 12_000)).toBe(false);
    expect(shouldReportReading(last, 'good', 10_000 + readingReportEveryMs - 1)).toBe(false);
    expect(shouldReportReading(last, 'good', 10_000 + readingReportEveryMs)).toBe(true);
    expect(shouldReportReading(last, 'weak', 12_000)).toBe(true);
  });
});
