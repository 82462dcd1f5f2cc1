import { describe, expect, it } from 'vitest';
import {
  indicatorOf,
  initialQualityState,
  nextQuality,
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
    state = run(state, bad, 20_000, 60_000);
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

  it('describes the connection for the indicator', () => {
    expect(indicatorOf(null)).toBe('unknown');
    expect(indicatorOf(good)).toBe('good');
    expect(indicatorOf(middling)).toBe('fair');
    expect(indicatorOf(bad)).toBe('poor');
  });
});
