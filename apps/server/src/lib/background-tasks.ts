import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for: it runs after the answer has
 * gone out, so the answer's timing cannot tell what the work found (a
 * password reset for a registered address costs the same to answer as one for
 * an unknown address). A failure is logged, never thrown at anyone.
 */
export interface BackgroundTasks {
  /**
   * Runs `task` on a later turn of the event loop (after the current answer is
   * written), one at a time per `name`: checks such as "at most three reset
   * emails per address" then see the work of the tasks before them.
   */
  run(name: string, task: () => Promise<void>): void;
  /** Resolves once every task started so far has finished (tests, shutdown). */
  idle(): Promise<void>;
}

export function createBackgroundTasks(logger: FastifyBaseLogger): BackgroundTasks {
  const pending = new Set<Promise<void>>();
  const queues = new Map<string, Promise<void>>();
  return {
    run: (name, task) => {
      const previous = queues.get(name) ?? new Promise<void>((resolve) => setImmediate(resolve));
      const running = previous
        .then(task)
        .catch((error: unknown) => logger.error({ err: error, task: name }, 'background task failed'))
        .finally(() => {
          pending.delete(running);
          if (queues.get(name) === running) {
            queues.delete(name);
          }
        });
      queues.set(name, running);
      pending.add(running);
    },
    idle: async () => {
      while (pending.size > 0) {
        await Promise.all([...pending]);
      }
    },
  };
}
