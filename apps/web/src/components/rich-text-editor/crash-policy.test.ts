import { describe, expect, it } from 'vitest';
import { editorCrashPolicy, shouldGiveUp } from './crash-policy';

describe('shouldGiveUp (crash limit 3, minimum non-error period 5000 ms)', () => {
  it('uses the specification constants', () => {
    expect(editorCrashPolicy).toEqual({ crashLimit: 3, minimumNonErrorPeriodMs: 5000 });
  });

  it.each([
    ['no crash', [], false],
    ['one crash', [1_000], false],
    ['two crashes at once', [1_000, 1_001], false],
    ['three crashes at once', [1_000, 1_000, 1_000], true],
    ['three crashes 1 s apart', [0, 1_000, 2_000], true],
    ['three crashes averaging 4 999 ms apart', [0, 4_999, 9_998], true],
    ['three crashes averaging exactly 5 000 ms apart', [0, 5_000, 10_000], false],
    ['three crashes 6 s apart', [0, 6_000, 12_000], false],
    ['uneven gaps averaging under 5 s (1 s then 8 s)', [0, 1_000, 9_000], true],
    ['uneven gaps averaging over 5 s (1 s then 9.5 s)', [0, 1_000, 10_500], false],
    ['old crashes do not count: two quick ones after a long calm', [0, 60_000, 61_000], false],
    ['the latest three decide: calm start, then a burst', [0, 60_000, 61_000, 62_000], true],
    ['the latest three decide: burst long ago, calm since', [0, 100, 200, 60_000], false],
  ])('%s → %s', (_label, times, expected) => {
    expect(shouldGiveUp(times)).toBe(expected);
  });

  it('follows another policy', () => {
    expect(shouldGiveUp([0, 100], { crashLimit: 2, minimumNonErrorPeriodMs: 1_000 })).toBe(true);
    expect(shouldGiveUp([0, 2_000], { crashLimit: 2, minimumNonErrorPeriodMs: 1_000 })).toBe(false);
    expect(shouldGiveUp([5], { crashLimit: 1, minimumNonErrorPeriodMs: 1_000 })).toBe(true);
  });
});
