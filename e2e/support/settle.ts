import type { Page } from 'playwright-core';

/**
 * Waits until the page has settled: every finite CSS animation and transition has finished (a
 * Mantine modal or menu fading in or out, a notification sliding), then two frames more are drawn.
 *
 * Use it where a journey used to sleep "a moment" — before a screenshot, or before asserting that
 * something did NOT happen (a dialog that must stay open after Escape): what it waits for is the
 * page's own state, so a slow or busy machine only makes it take longer, never makes it pass early
 * or fail. Endless animations (spinners, skeletons) are not waited for.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A page behind other windows draws no frames (requestAnimationFrame never fires) and runs no
    // animations: there, the tasks queued so far are all there is to wait for.
    if (document.visibilityState === 'hidden') {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      return;
    }
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const isFinite = (animation: Animation) => {
      const iterations = animation.effect?.getComputedTiming().iterations;
      return iterations !== Infinity;
    };
    // A transition may start one frame after the event that causes it: look again until two frames
    // in a row have nothing running.
    for (let round = 0; round < 50; round += 1) {
      await frame();
      await frame();
      const running = document
        .getAnimations()
        .filter((animation) => animation.playState === 'running' && isFinite(animation));
      if (running.length === 0) {
        return;
      }
      await Promise.all(running.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/**
 * Lets the page handle what was just done to it (a key press, a click outside, a message posted)
 * and draw the outcome: two frames after every task queued so far, then `settle`. Negative checks
 * ("the dialog is still open") read the page after this, not after a fixed sleep.
 */
export async function afterInput(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        // A macrotask after the input's own handlers, then a frame for React's commit.
        setTimeout(() => {
          if (document.visibilityState === 'hidden') {
            resolve();
          } else {
            requestAnimationFrame(() => resolve());
          }
        }, 0);
      }),
  );
  await settle(page);
}
