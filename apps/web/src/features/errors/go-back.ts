export interface GoBackEnvironment {
  history: Pick<History, 'length' | 'back'>;
  location: Pick<Location, 'href'>;
  goHome: () => void;
  /** Listens for the page being left, so a back step that leaves the app is not second-guessed. */
  onPageHide: (listener: () => void) => () => void;
  setTimeout: (callback: () => void, ms: number) => unknown;
}

/** How long a back step may take before the start page is chosen instead. */
export const backStepTimeoutMs = 400;

/**
 * The error pages' button: one step back in the browser history, as the specification says. When
 * there is nothing to go back to — a tab opened directly on the page (history length 1), or a back
 * step that does not move (the entry is the first one) — it goes to the start page instead, so the
 * button never does nothing.
 */
export function goBackOrHome(environment: GoBackEnvironment): void {
  if (environment.history.length <= 1) {
    environment.goHome();
    return;
  }
  const before = environment.location.href;
  let hasLeftPage = false;
  const stopListening = environment.onPageHide(() => {
    hasLeftPage = true;
  });
  environment.history.back();
  environment.setTimeout(() => {
    stopListening();
    if (!hasLeftPage && environment.location.href === before) {
      environment.goHome();
    }
  }, backStepTimeoutMs);
}

/** The browser's environment for `goBackOrHome`. */
export function browserGoBackEnvironment(goHome: () => void): GoBackEnvironment {
  return {
    history: window.history,
    location: window.location,
    goHome,
    onPageHide: (listener) => {
      window.addEventListener('pagehide', listener);
      return () => window.removeEventListener('pagehide', listener);
    },
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
  };
}
