/**
 * Idle logout, as pure timing rules plus a small controller around them.
 *
 * The server ends a session after `idleTimeoutSeconds` without an authenticated request, and at
 * its absolute end (`expiresAt`) whatever happens. The page mirrors that clock from the last time
 * the server answered (`lastServerContactAt`, shared between tabs), so the warning shows when the
 * server is really about to end the session — not when this tab merely had no requests.
 *
 * Activity without requests (reading, scrolling, typing a long note) must keep the session alive
 * too, so: when the person was active since the last server contact and that contact is at least
 * `keepAliveIntervalMs` (60 s) old, the page pings the server (`GET /me`). The server's clock
 * therefore trails real activity by at most a minute, and a busy page costs at most one request
 * a minute. Once the warning is showing, activity no longer counts: only "Stay signed in" (which
 * pings) or "Sign out" close it, so a mouse nudge over the dialog cannot silently dismiss it.
 */

export const defaultWarningMs = 60_000;
export const defaultKeepAliveIntervalMs = 60_000;

export interface IdleTimingInput {
  now: number;
  /** When the server last answered a request of this session. */
  lastServerContactAt: number;
  /** The person's last pointer, key, scroll or visibility activity on the page. */
  lastActivityAt: number;
  idleTimeoutMs: number;
  /** The session's absolute end, or null if unknown. */
  absoluteExpiresAt: number | null;
  isWarningShown: boolean;
  warningMs?: number;
  keepAliveIntervalMs?: number;
}

export type IdleEndReason = 'idle' | 'absolute';

export type IdleDecision =
  | { phase: 'active'; shouldPing: boolean; msUntilWarning: number }
  | { phase: 'warning'; reason: IdleEndReason; secondsLeft: number }
  | { phase: 'expired'; reason: IdleEndReason };

/**
 * How long before the end the warning shows: a minute, but never more than half the timeout
 * (with a one-minute timeout the warning would otherwise appear the moment someone signs in).
 */
export function warningLeadMs(idleTimeoutMs: number, warningMs = defaultWarningMs): number {
  return Math.max(0, Math.min(warningMs, Math.floor(idleTimeoutMs / 2)));
}

/** Where the session stands at `now`, and whether to ping the server to record activity. */
export function evaluateIdle(input: IdleTimingInput): IdleDecision {
  const idleDeadline = input.lastServerContactAt + input.idleTimeoutMs;
  const isAbsoluteFirst = input.absoluteExpiresAt !== null && input.absoluteExpiresAt <= idleDeadline;
  const deadline = isAbsoluteFirst ? (input.absoluteExpiresAt ?? idleDeadline) : idleDeadline;
  const reason: IdleEndReason = isAbsoluteFirst ? 'absolute' : 'idle';
  const msLeft = deadline - input.now;
  if (msLeft <= 0) {
    return { phase: 'expired', reason };
  }
  const lead = warningLeadMs(input.idleTimeoutMs, input.warningMs);
  const keepAlive = input.keepAliveIntervalMs ?? defaultKeepAliveIntervalMs;
  const wasActiveSinceContact = input.lastActivityAt > input.lastServerContactAt;
  const isContactOld = input.now - input.lastServerContactAt >= keepAlive;
  // Activity seen before the warning counts even if the tick that notices it falls inside the window.
  const canPing = !input.isWarningShown && reason === 'idle' && wasActiveSinceContact && isContactOld;
  if (msLeft <= lead && !canPing) {
    return { phase: 'warning', reason, secondsLeft: Math.ceil(msLeft / 1000) };
  }
  return { phase: 'active', shouldPing: canPing, msUntilWarning: Math.max(0, msLeft - lead) };
}

export type IdleView = { phase: 'active' } | { phase: 'warning'; reason: IdleEndReason; secondsLeft: number };

export interface IdleControllerOptions {
  idleTimeoutMs: number;
  absoluteExpiresAt: number | null;
  getLastServerContactAt: () => number;
  /** Tells the server the person is here (`GET /me`); the contact time is then updated by the caller. */
  ping: () => Promise<unknown>;
  onViewChange: (view: IdleView) => void;
  onExpire: (reason: IdleEndReason) => void;
  now?: () => number;
  tickMs?: number;
  warningMs?: number;
  keepAliveIntervalMs?: number;
}

/**
 * Runs `evaluateIdle` once a second (wall-clock based, so a sleeping laptop or a throttled
 * background tab is judged correctly when it wakes) and acts on the decision.
 */
export function createIdleController(options: IdleControllerOptions) {
  const now = options.now ?? (() => Date.now());
  // Loading the page was itself a request; only activity after it asks for a keep-alive ping.
  let lastActivityAt = options.getLastServerContactAt();
  let isWarningShown = false;
  let isPinging = false;
  let isExpired = false;
  let timer: ReturnType<typeof setInterval> | null = null;
  let lastView: IdleView = { phase: 'active' };

  const publish = (view: IdleView) => {
    const isSame =
      view.phase === lastView.phase &&
      (view.phase === 'active' ||
        (lastView.phase === 'warning' &&
          view.secondsLeft === lastView.secondsLeft &&
          view.reason === lastView.reason));
    if (!isSame) {
      lastView = view;
      options.onViewChange(view);
    }
  };

  const ping = async () => {
    if (isPinging) {
      return;
    }
    isPinging = true;
    try {
      await options.ping();
    } catch {
      // A failed ping changes nothing here; a 401 ends the session through the API layer.
    } finally {
      isPinging = false;
    }
  };

  const evaluate = () => {
    if (isExpired) {
      return;
    }
    const decision = evaluateIdle({
      now: now(),
      lastServerContactAt: options.getLastServerContactAt(),
      lastActivityAt,
      idleTimeoutMs: options.idleTimeoutMs,
      absoluteExpiresAt: options.absoluteExpiresAt,
      isWarningShown,
      warningMs: options.warningMs,
      keepAliveIntervalMs: options.keepAliveIntervalMs,
    });
    switch (decision.phase) {
      case 'expired':
        isExpired = true;
        stop();
        options.onExpire(decision.reason);
        return;
      case 'warning':
        isWarningShown = true;
        publish({ phase: 'warning', reason: decision.reason, secondsLeft: decision.secondsLeft });
        return;
      case 'active':
        isWarningShown = false;
        publish({ phase: 'active' });
        if (decision.shouldPing) {
          void ping().then(evaluate);
        }
        return;
    }
  };

  function stop() {
    if (timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  }

  return {
    start() {
      stop();
      isExpired = false;
      timer = setInterval(evaluate, options.tickMs ?? 1000);
      evaluate();
    },
    stop,
    evaluate,
    /** Pointer, key, scroll, or the tab becoming visible again. */
    recordActivity() {
      lastActivityAt = now();
    },
    /** "Stay signed in": ping now, then the warning closes once the server has answered. */
    async stayConnected() {
      lastActivityAt = now();
      await ping();
      isWarningShown = false;
      evaluate();
    },
  };
}

export type IdleController = ReturnType<typeof createIdleController>;
