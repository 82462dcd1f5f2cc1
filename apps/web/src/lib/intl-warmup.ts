/**
 * The browser loads its locale data (ICU) the first time a page builds a number or date formatter:
 * 20–90 ms on this project's test machine, four times that on Lighthouse's phone, in one piece that
 * cannot be split — inside whichever render first shows a date (the home page's appointments), or
 * as a long task of its own wherever it is moved on the main thread. That data is kept per
 * process, not per thread, so a worker builds the first formatters instead (`intl-warmup.worker`)
 * while the page waits for the network: the screens' own formatters then cost well under a
 * millisecond (measured in Chromium: the first `Intl.NumberFormat` 19–32 ms → 0.1–0.5 ms, the
 * first dated `Intl.DateTimeFormat` 4–6 ms → 0.2–0.3 ms).
 *
 * Best effort: without workers, or when the worker cannot start, nothing changes (each screen pays
 * the cost itself, as before).
 */
export function warmIntl(language: string, createWorker: () => Worker | null = startWarmupWorker): void {
  let worker: Worker | null;
  try {
    worker = createWorker();
  } catch {
    return;
  }
  if (!worker) {
    return;
  }
  const started = worker;
  const stop = () => started.terminate();
  started.addEventListener('message', stop, { once: true });
  started.addEventListener('error', stop, { once: true });
  // The worker formats in its own (the browser's) time zone: asking for it here would itself load
  // the data on this thread.
  started.postMessage({ language });
}

function startWarmupWorker(): Worker | null {
  if (typeof Worker !== 'function') {
    return null;
  }
  return new Worker(new URL('./intl-warmup.worker.ts', import.meta.url), { type: 'module' });
}
