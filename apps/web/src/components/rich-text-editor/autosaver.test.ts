import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { autosaveIntervalMs, createAutosaver } from './autosaver';

describe('createAutosaver (every 5000 ms when changed)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const setup = (initialContent = '<p>a</p>') => {
    let content = initialContent;
    const save = vi.fn<(html: string) => void | Promise<void>>();
    const autosaver = createAutosaver({ read: () => content, save, initialContent });
    return { autosaver, save, type: (next: string) => (content = next) };
  };

  it('uses the specification interval', () => {
    expect(autosaveIntervalMs).toBe(5000);
  });

  it('saves every 5000 ms only when the content changed', () => {
    const { autosaver, save, type } = setup();
    autosaver.start();
    vi.advanceTimersByTime(5000);
    expect(save).not.toHaveBeenCalled();
    type('<p>ab</p>');
    vi.advanceTimersByTime(4999);
    expect(save).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(save).toHaveBeenCalledWith('<p>ab</p>');
    vi.advanceTimersByTime(15000);
    expect(save).toHaveBeenCalledTimes(1);
    type('<p>abc</p>');
    vi.advanceTimersByTime(5000);
    expect(save).toHaveBeenLastCalledWith('<p>abc</p>');
    expect(save).toHaveBeenCalledTimes(2);
    autosaver.stop();
  });

  it('saves pending changes when stopped (leaving the page), and can stop without saving', () => {
    const { autosaver, save, type } = setup();
    autosaver.start();
    type('<p>changed</p>');
    autosaver.stop();
    expect(save).toHaveBeenCalledWith('<p>changed</p>');
    type('<p>again</p>');
    autosaver.stop({ flush: false });
    vi.advanceTimersByTime(20000);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('tries again on the next tick after a failed save', async () => {
    const { autosaver, save, type } = setup();
    save.mockRejectedValueOnce(new Error('offline'));
    autosaver.start();
    type('<p>x</p>');
    vi.advanceTimersByTime(5000);
    await Promise.resolve();
    expect(autosaver.lastSavedContent()).toBeNull();
    vi.advanceTimersByTime(5000);
    expect(save).toHaveBeenCalledTimes(2);
    expect(autosaver.lastSavedContent()).toBe('<p>x</p>');
    autosaver.stop();
  });

  it('flush reports whether it saved', () => {
    const { autosaver, type } = setup();
    expect(autosaver.flush()).toBe(false);
    type('<p>y</p>');
    expect(autosaver.flush()).toBe(true);
    expect(autosaver.flush()).toBe(false);
  });
});
