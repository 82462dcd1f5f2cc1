import { api } from './api-client';

let pending: Promise<unknown> | null = null;

/**
 * `GET /config`, one request for concurrent readers: at page start the public settings (clinic
 * name, logo, upload limits) and the real-time connection (its address) both ask for it, and each
 * would otherwise download it. Quiet (no spinner, no alert): both work without it. Once the answer
 * has arrived, the next call asks the server again (a refresh after an administrator's change).
 */
export function requestClientConfig(): Promise<unknown> {
  pending ??= api.get<unknown>('/config', { showSpinner: false, alertOnError: false }).finally(() => {
    pending = null;
  });
  return pending;
}
