/** Specification §9: crash limit 3, minimum non-error period 5000 ms. */
export interface CrashPolicy {
  crashLimit: number;
  minimumNonErrorPeriodMs: number;
}

export const editorCrashPolicy: CrashPolicy = { crashLimit: 3, minimumNonErrorPeriodMs: 5000 };

/**
 * Whether the editor should stop restarting itself: once `crashLimit` crashes have come less than
 * `minimumNonErrorPeriodMs` apart on average. Only the latest `crashLimit` crashes count, so an
 * editor that crashes now and then (minutes apart) keeps being restarted; with the defaults, three
 * crashes within ten seconds (two gaps averaging under five seconds) make it give up.
 * `crashTimes` are instants in milliseconds, oldest first.
 */
export function shouldGiveUp(
  crashTimes: readonly number[],
  policy: CrashPolicy = editorCrashPolicy,
): boolean {
  const limit = Math.max(1, Math.floor(policy.crashLimit));
  if (crashTimes.length < limit) {
    return false;
  }
  if (limit === 1) {
    return true;
  }
  const recent = crashTimes.slice(-limit);
  const first = recent[0] ?? 0;
  const last = recent[recent.length - 1] ?? 0;
  const averageGap = (last - first) / (limit - 1);
  return averageGap < policy.minimumNonErrorPeriodMs;
}
