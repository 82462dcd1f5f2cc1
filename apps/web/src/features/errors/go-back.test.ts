import { describe, expect, it, vi } from 'vitest';
import { backStepTimeoutMs, goBackOrHome, type GoBackEnvironment } from './go-back';

function environment(historyLength: number, hrefAfterBack: string | null) {
  const location = { href: 'https://clinic.example/nope' };
  let pageHideListener: (() => void) | null = null;
  let timer: (() => void) | null = null;
  const back = vi.fn<() => void>();
  const goHome = vi.fn<() => void>();
  const env: GoBackEnvironment & { back: typeof back; goHome: typeof goHome } = {
    history: {
      length: historyLength,
      back: () => {
        env.back();
        if (hrefAfterBack === 'left') {
          pageHideListener?.();
        } else if (hrefAfterBack) {
          location.href = hrefAfterBack;
        }
      },
    },
    back,
    location,
    goHome,
    onPageHide: (listener) => {
      pageHideListener = listener;
      return () => {
        pageHideListener = null;
      };
    },
    setTimeout: (callback, ms) => {
      expect(ms).toBe(backStepTimeoutMs);
      timer = callback;
    },
  };
  return { env, runTimer: () => timer?.() };
}

describe('goBackOrHome', () => {
  it('goes one step back in history when there is one', () => {
    const { env, runTimer } = environment(3, 'https://clinic.example/admin');
    goBackOrHome(env);
    runTimer();
    expect(env.back).toHaveBeenCalledTimes(1);
    expect(env.goHome).not.toHaveBeenCalled();
  });

  it('goes to the start page when the tab has no history', () => {
    const { env } = environment(1, null);
    goBackOrHome(env);
    expect(env.back).not.toHaveBeenCalled();
    expect(env.goHome).toHaveBeenCalledTimes(1);
  });

  it('goes to the start page when the back step does not move (first entry of the tab)', () => {
    const { env, runTimer } = environment(2, null);
    goBackOrHome(env);
    runTimer();
    expect(env.back).toHaveBeenCalledTimes(1);
    expect(env.goHome).toHaveBeenCalledTimes(1);
  });

  it('does not second-guess a back step that leaves the application', () => {
    const { env, runTimer } = environment(2, 'left');
    goBackOrHome(env);
    runTimer();
    expect(env.goHome).not.toHaveBeenCalled();
  });
});
