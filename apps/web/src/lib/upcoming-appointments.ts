import { api } from './api-client';

/**
 * The "upcoming" list the staff home and the patient's portal both draw: visits that start from a
 * little before now, soonest first. A visit that began up to `upcomingLookbackMinutes` ago may still
 * be running, so it is still listed (and can still be joined). No schemas here: the boot requests
 * that use it are part of the first download (`main.tsx`).
 */
export const upcomingLookbackMinutes = 120;

/** The `from` instant of the window, `upcomingLookbackMinutes` before `now`. */
export function upcomingWindowStart(now: Date): string {
  return new Date(now.getTime() - upcomingLookbackMinutes * 60_000).toISOString();
}

/** `GET /appointments` for the window starting at `from`: the first 20, soonest first. */
export function requestUpcomingAppointments(from: string, signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>('/appointments', {
    query: { page: 1, pageSize: 20, from, sort: 'startsAt', order: 'asc' },
    signal,
    alertOnError: false,
  });
}
