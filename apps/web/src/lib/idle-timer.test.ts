import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIdleController, evaluateIdle, warningLeadMs, type IdleView } from './idle-timer';

const minute = 60_000;
const base = Date.UTC(2026, 0, 1, 9, 0, 0);

const input = (overrides: Partial<Parameters<typeof evaluateIdle>[0]> = {}) => ({
  now: base,
  lastServerContactAt: base,
  lastActivityAt: base,
  idleTimeoutMs: 15 * minute,
  absoluteExpiresAt: null,
  isWarningShown: false,
  ...overrides,
});

describe('evaluateIdle', () => {
  it('is active until a minute before the server would end the session', () => {
    expect(evaluateIdle(input({ now: base + 13 * minute }))).toEqual({
      phase: 'active',
      shouldPing: false,
      msUntilWarning: minute,
    });
    expect(evaluateIdle(input({ now: base + 14 * minute }))).toEqual({
      phase: 'warning',
      reason: 'idle',
      secondsLeft: 60,
    });
    expect(evaluateIdle(input({ now: base + 14 * minute + 59_500 }))).toEqual({
      phase: 'warning',
      reason: 'idle',
      secondsLeft: 1,
    });
    expect(evaluateIdle(input({ now: base + 15 * minute }))).toEqual({ phase: 'expired', reason: 'idle' });
  });

  it('pings when the person was active since the last contact and it is a minute old', () => {
    const active = input({ lastActivityAt: base + 30_000 });
    expect(evaluateIdle({ ...active, now: base + 59_999 })).toMatchObject({
      phase: 'active',
      shouldPing: false,
    });
    expect(evaluateIdle({ ...active, now: base + minute })).toMatchObject({
      phase: 'active',
      shouldPing: true,
    });
    // No activity since the contact: no ping, however old the contact.
    expect(evaluateIdle(input({ now: base + 10 * minute }))).toMatchObject({ shouldPing: false });
  });

  it('pings instead of warning when activity happened before the warning window was noticed', () => {
    expect(
      evaluateIdle(input({ now: base + 14 * minute + 5_000, lastActivityAt: base + 14 * minute })),
    ).toMatchObject({ phase: 'active', shouldPing: true });
  });

  it('ignores activity while the warning is showing: only "stay signed in" continues', () => {
    expect(
      evaluateIdle(
        input({
          now: base + 14 * minute + 10_000,
          lastActivityAt: base + 14 * minute + 9_000,
          isWarningShown: true,
        }),
      ),
    ).toMatchObject({ phase: 'warning', secondsLeft: 50 });
  });

  it('expires whatever the activity once the deadline has passed (a tab that slept)', () => {
    expect(evaluateIdle(input({ now: base + 40 * minute, lastActivityAt: base + 40 * minute }))).toEqual({
      phase: 'expired',
      reason: 'idle',
    });
  });

  it('warns for the absolute end of the session without offering a ping', () => {
    const absolute = input({
      absoluteExpiresAt: base + 5 * minute,
      lastActivityAt: base + 4 * minute + 30_000,
      now: base + 4 * minute + 30_000,
    });
    expect(evaluateIdle(absolute)).toEqual({ phase: 'warning', reason: 'absolute', secondsLeft: 30 });
    expect(evaluateIdle({ ...absolute, now: base + 5 * minute })).toEqual({
      phase: 'expired',
      reason: 'absolute',
    });
  });

  it('warns at most half the timeout ahead, so short timeouts do not warn at sign-in', () => {
    expect(warningLeadMs(15 * minute)).toBe(minute);
    expect(warningLeadMs(minute)).toBe(30_000);
    expect(evaluateIdle(input({ idleTimeoutMs: minute, now: base + 10_000 }))).toMatchObject({
      phase: 'active',
    });
    expect(evaluateIdle(input({ idleTimeoutMs: minute, now: base + 30_000 }))).toMatchObject({
      phase: 'warning',
      secondsLeft: 30,
    });
  });
});

describe('createIdleController', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(base);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function setup(idleTimeoutMs = 15 * minute) {
    let lastContact = base;
    const views: IdleView[] = [];
    const expired: string[] = [];
    const ping = vi.fn(() => {
      lastContact = Date.now();
      return Promise.resolve();
    });
    const controller = createIdleController({
      idleTimeoutMs,
      absoluteExpiresAt: null,
      getLastServerContactAt: () => lastContact,
      ping,
      onViewChange: (view) => views.push(view),
      onExpire: (reason) => expired.push(reason),
    });
    return { controller, views, expired, ping, setContact: (at: number) => (lastContact = at) };
  }

  it('shows a counting-down warning a minute before the end and expires at zero', () => {
    const { controller, views, expired, ping } = setup();
    controller.start();
    vi.advanceTimersByTime(14 * minute - 1000);
    expect(views).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(views.at(-1)).toEqual({ phase: 'warning', reason: 'idle', secondsLeft: 60 });
    vi.advanceTimersByTime(30_000);
    expect(views.at(-1)).toEqual({ phase: 'warning', reason: 'idle', secondsLeft: 30 });
    // Moving the mouse over the warning does not dismiss it.
    controller.recordActivity();
    vi.advanceTimersByTime(29_000);
    expect(views.at(-1)).toEqual({ phase: 'warning', reason: 'idle', secondsLeft: 1 });
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1000);
    expect(expired).toEqual(['idle']);
    expect(ping).not.toHaveBeenCalled();
    // Stopped after expiring: nothing more happens.
    vi.advanceTimersByTime(10 * minute);
    expect(expired).toEqual(['idle']);
    controller.stop();
  });

  it('keeps the server session alive while the person is active, at most once a minute', async () => {
    const { controller, views, expired, ping } = setup();
    controller.start();
    for (let second = 0; second < 20 * 60; second += 5) {
      controller.recordActivity();
      await vi.advanceTimersByTimeAsync(5000);
    }
    expect(expired).toEqual([]);
    expect(views.some((view) => view.phase === 'warning')).toBe(false);
    expect(ping.mock.calls.length).toBeGreaterThanOrEqual(18);
    expect(ping.mock.calls.length).toBeLessThanOrEqual(21);
    controller.stop();
  });

  it('"stay signed in" pings the server and closes the warning', async () => {
    const { controller, views, ping } = setup();
    controller.start();
    vi.advanceTimersByTime(14 * minute + 20_000);
    expect(views.at(-1)).toMatchObject({ phase: 'warning' });
    await controller.stayConnected();
    expect(ping).toHaveBeenCalledTimes(1);
    expect(views.at(-1)).toEqual({ phase: 'active' });
    // The clock restarts from the ping.
    vi.advanceTimersByTime(13 * minute);
    expect(views.at(-1)).toEqual({ phase: 'active' });
    controller.stop();
  });

  it('follows contact made elsewhere (another request, another tab)', () => {
    const { controller, views, setContact } = setup();
    controller.start();
    vi.advanceTimersByTime(10 * minute);
    setContact(Date.now());
    vi.advanceTimersByTime(10 * minute);
    expect(views.some((view) => view.phase === 'warning')).toBe(false);
    vi.advanceTimersByTime(4 * minute);
    expect(views.at(-1)).toMatchObject({ phase: 'warning' });
    controller.stop();
  });
});
