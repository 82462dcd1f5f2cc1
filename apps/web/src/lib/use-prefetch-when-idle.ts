import { useEffect } from 'react';

/**
 * Starts `load` (a lazy chunk's `import()`) once the browser is idle after the first screen, at the
 * latest after `timeoutMs`, so what it holds (a dialog, a panel) opens at once later — even after the
 * network has gone away — without weighing on the page's first download.
 */
export function usePrefetchWhenIdle(load: () => Promise<unknown>, timeoutMs = 3000): void {
  useEffect(() => {
    const prefetch = () => void load().catch(() => undefined);
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(prefetch, { timeout: timeoutMs });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(prefetch, Math.min(timeoutMs, 500));
    return () => window.clearTimeout(timer);
  }, [load, timeoutMs]);
}
