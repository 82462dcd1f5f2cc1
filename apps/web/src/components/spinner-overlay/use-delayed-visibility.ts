import { useEffect, useRef, useState } from 'react';

export interface DelayedVisibilityOptions {
  /** Wait this long after the flag turns on before showing anything. */
  delayMs: number;
  /** Once shown, stay visible at least this long. */
  minVisibleMs: number;
}

/** The spinner's timing: fast requests (< 150 ms) show nothing; a shown spinner never blinks. */
export const spinnerTiming: DelayedVisibilityOptions = { delayMs: 150, minVisibleMs: 300 };

/**
 * Follows a boolean flag without flicker: becomes true only when the flag has stayed on for
 * `delayMs`, and once true stays true for at least `minVisibleMs` even if the flag turns off sooner.
 */
export function useDelayedVisibility(
  isOn: boolean,
  { delayMs, minVisibleMs }: DelayedVisibilityOptions,
): boolean {
  const [isVisible, setIsVisible] = useState(false);
  const shownAtRef = useRef(0);

  useEffect(() => {
    if (isOn && !isVisible) {
      const timer = setTimeout(() => {
        shownAtRef.current = Date.now();
        setIsVisible(true);
      }, delayMs);
      return () => clearTimeout(timer);
    }
    if (!isOn && isVisible) {
      const remaining = Math.max(0, minVisibleMs - (Date.now() - shownAtRef.current));
      const timer = setTimeout(() => setIsVisible(false), remaining);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [isOn, isVisible, delayMs, minVisibleMs]);

  return isVisible;
}
