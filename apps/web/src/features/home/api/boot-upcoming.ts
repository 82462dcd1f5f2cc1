import type { MeResponse } from '@telemedicina/shared/auth';
import { hasAnyPermission } from '@telemedicina/shared/permission-check';
import { requestUpcomingAppointments, upcomingWindowStart } from '../../../lib/upcoming-appointments';

/** The home page's list asked for as the page boots: its window, and its answer once it has come. */
export interface BootUpcoming {
  from: string;
  settled: { body: unknown; receivedAt: number } | null;
  /** The request while its answer has not come, once (null after that, or once taken). */
  takePending: () => Promise<unknown> | null;
}

let boot: BootUpcoming | null = null;

/**
 * Asks for the home page's appointments as soon as the session is known, beside the page's code
 * (`main.tsx`, on `/admin`), instead of once the page has rendered: the list is then drawn with the
 * page, not as a placeholder replaced a moment later (a second render and layout of the page). Only
 * for the people the home page lists appointments for (not a clinic administrator's dashboard).
 */
export function startBootUpcoming(me: MeResponse, now = new Date()): void {
  if (
    hasAnyPermission(me.permissions, ['dashboard.admin']) ||
    !hasAnyPermission(me.permissions, ['appointments.read.own', 'appointments.read.any'])
  ) {
    return;
  }
  const from = upcomingWindowStart(now);
  let pending: Promise<unknown> | null = null;
  const started: BootUpcoming = {
    from,
    settled: null,
    takePending: () => {
      const taken = started.settled ? null : pending;
      pending = null;
      return taken;
    },
  };
  pending = requestUpcomingAppointments(from).then((body) => {
    started.settled = { body, receivedAt: Date.now() };
    return body;
  });
  // A failure is the home page's to handle (it asks again).
  pending.catch(() => undefined);
  boot = started;
}

/** The boot request, once: the first home page to render takes it; later ones ask as usual. */
export function takeBootUpcoming(): BootUpcoming | null {
  const taken = boot;
  boot = null;
  return taken;
}
