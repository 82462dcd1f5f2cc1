import { describe, expect, it } from 'vitest';
import { oneRunAtATime } from './one-run-at-a-time.js';

/** A task whose runs are ended by the test, each resolving with its run number. */
function controlledTask() {
  const ends: Array<(error?: Error) => void> = [];
  let runs = 0;
  const task = () =>
    new Promise<number>((resolve, reject) => {
      runs += 1;
      const run = runs;
      ends.push((error) => (error ? reject(error) : resolve(run)));
    });
  return { task, ends, runs: () => runs };
}

describe('oneRunAtATime', () => {
  it('gives a call made during a run the next run, not the one already under way', async () => {
    const { task, ends, runs } = controlledTask();
    const sweep = oneRunAtATime(task);
    const first = sweep();
    const second = sweep();
    const third = sweep();
    expect(runs()).toBe(1);
    ends[0]!();
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs()).toBe(2);
    ends[1]!();
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    // Idle again: the next call starts at once.
    const fourth = sweep();
    expect(runs()).toBe(3);
    ends[2]!();
    expect(await fourth).toBe(3);
  });

  it('runs again after a failed run, and reports the failure only to its own callers', async () => {
    const { task, ends } = controlledTask();
    const sweep = oneRunAtATime(task);
    const failing = sweep();
    const after = sweep();
    ends[0]!(new Error('database unreachable'));
    await expect(failing).rejects.toThrow('database unreachable');
    await new Promise((resolve) => setImmediate(resolve));
    ends[1]!();
    expect(await after).toBe(2);
  });
});
