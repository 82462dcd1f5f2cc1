/**
 * Wraps a task so that only one run is in flight. A call made while a run is under way does not
 * share that run's result (it may have read its inputs — the clock, the connected sockets — before
 * the caller's reason to call existed): it gets the next run, started as soon as the current one
 * ends. Calls made meanwhile share that next run, so at most one waits.
 */
export function oneRunAtATime<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let waiting: Promise<T> | null = null;
  const call = (): Promise<T> => {
    if (running === null) {
      running = task().finally(() => {
        running = null;
      });
      return running;
    }
    waiting ??= running.then(
      () => next(),
      () => next(),
    );
    return waiting;
  };
  const next = (): Promise<T> => {
    waiting = null;
    return call();
  };
  return call;
}
