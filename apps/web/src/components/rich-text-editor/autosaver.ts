/** Specification §9: autosave every 5000 ms. */
export const autosaveIntervalMs = 5000;

export interface AutosaverOptions {
  /** Reads the current content. */
  read: () => string;
  /** Stores content; may be async. A rejected save is retried on the next tick. */
  save: (content: string) => void | Promise<void>;
  /** Content already stored (the starting content), so an untouched document is never saved. */
  initialContent: string;
  intervalMs?: number;
  /** Told synchronously each time content is handed to `save`. */
  onHandedOver?: (content: string) => void;
}

export interface Autosaver {
  /** Saves now if the content changed since the last save. Returns whether it saved. */
  flush: () => boolean;
  start: () => void;
  /** Stops the timer, saving first unless told not to. */
  stop: (options?: { flush?: boolean }) => void;
  /** The content last handed to `save`, or null after a failed save (it will be retried). */
  lastSavedContent: () => string | null;
}

/**
 * Saves content every `intervalMs` when it changed since the last save. Independent of React and
 * of the editor so the timing is unit-tested with fake timers.
 */
export function createAutosaver({
  read,
  save,
  initialContent,
  intervalMs = autosaveIntervalMs,
  onHandedOver,
}: AutosaverOptions): Autosaver {
  let lastSaved: string | null = initialContent;
  let timer: ReturnType<typeof setInterval> | null = null;

  const flush = () => {
    const content = read();
    if (content === lastSaved) {
      return false;
    }
    lastSaved = content;
    onHandedOver?.(content);
    const markUnsaved = () => {
      // Try again on the next tick, unless newer content has been saved meanwhile.
      if (lastSaved === content) {
        lastSaved = null;
      }
    };
    try {
      const result = save(content);
      if (result instanceof Promise) {
        result.catch(markUnsaved);
      }
    } catch {
      markUnsaved();
    }
    return true;
  };

  return {
    flush,
    start: () => {
      if (timer === null) {
        timer = setInterval(flush, intervalMs);
      }
    },
    stop: ({ flush: shouldFlush = true } = {}) => {
      if (timer !== null) {
        clearInterval(timer);
        timer = null;
      }
      if (shouldFlush) {
        flush();
      }
    },
    lastSavedContent: () => lastSaved,
  };
}
