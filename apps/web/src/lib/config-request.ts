import { api } from './api-client';

let pending: Promise<unknown> | null = null;
let bootAnswer: Promise<unknown> | null = null;

/**
 * `GET /config`, one request for concurrent readers: at page start the public settings (clinic
 * name, logo, upload limits) and the real-time connection (its address) both ask for it, and each
 * would otherwise download it. Quiet (no spinner, no alert: both work without it). Once the answer
 * has arrived, the next call asks the server again (a refresh after an administrator's change) —
 * except for the answer asked for at boot ({@link requestBootConfig}), which the page's first
 * readers share.
 */
export function requestClientConfig(): Promise<unknown> {
  if (bootAnswer) {
    const answer = bootAnswer;
    bootAnswer = null;
    return answer;
  }
  pending ??= api.get<unknown>('/config', { showSpinner: false, alertOnError: false }).finally(() => {
    pending = null;
  });
  return pending;
}

/**
 * Asks for `GET /config` as the page boots, beside `GET /me`, so the signed-in frame's first render
 * already has the clinic's settings instead of drawing again when they arrive (`main.tsx` hands
 * the answer to the application). The next {@link requestClientConfig} call (the real-time
 * connection's) gets this same answer; the one after asks the server again.
 */
export function requestBootConfig(): Promise<unknown> {
  const answer = requestClientConfig();
  // A failed boot answer is not kept: the reader that was to share it asks again.
  const shared: Promise<unknown> = answer.catch(() => {
    if (bootAnswer === shared) {
      bootAnswer = null;
    }
    return requestClientConfig();
  });
  bootAnswer = shared;
  return answer;
}
