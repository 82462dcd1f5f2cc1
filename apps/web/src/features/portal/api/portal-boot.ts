import type { Appointment } from '@telemedicina/shared/appointment';
import type { MeResponse } from '@telemedicina/shared/auth';
import { isPortalUser } from '@telemedicina/shared/portal';
import { api } from '../../../lib/api-client';
import { requestUpcomingAppointments, upcomingWindowStart } from '../../../lib/upcoming-appointments';
import { pickOpenVisits } from '../next-visit';

/**
 * The patient's home (`/portal`) asks for what it shows as the page boots — beside the code, not
 * once the page has rendered — and its first render waits for the answers (`portal-seed.ts`): the
 * page is drawn once, with the visits, instead of a placeholder then five re-renders as the
 * answers arrive one by one, each a long task on a phone. This file holds only the requests (no
 * schemas): it is part of the page's first download (`main.tsx`).
 */

/** How many completed visits the home lists. */
export const portalPastLimit = 5;
/** How long a boot's window and answers are used: after that the page asks again the usual way. */
const bootLifetimeMs = 60_000;

/** The time window the home's lists ask for, fixed when the page boots (its query keys carry it). */
export interface PortalWindow {
  /** Upcoming visits start after this instant (`upcomingLookbackMinutes` before now). */
  from: string;
  /** Past visits started before this instant (now). */
  to: string;
}

export function portalWindow(now: Date): PortalWindow {
  return {
    from: upcomingWindowStart(now),
    to: now.toISOString(),
  };
}

export function requestPortalPast(to: string, limit: number, signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>('/appointments', {
    query: { page: 1, pageSize: limit, to, status: 'completed', sort: 'startsAt', order: 'desc' },
    signal,
    alertOnError: false,
  });
}

export function requestPortalPrescriptions(patientId: string, signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/prescriptions`, {
    signal,
    alertOnError: false,
  });
}

export function requestPortalNotes(patientId: string, signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/notes`, {
    signal,
    alertOnError: false,
  });
}

export function requestPortalDoctor(doctorId: string, signal?: AbortSignal): Promise<unknown> {
  return api.get<unknown>(`/doctors/${encodeURIComponent(doctorId)}`, { signal, alertOnError: false });
}

/** The boot's requests (each settles to its answer, or to null when it failed). */
export interface PortalBoot {
  patientId: string;
  window: PortalWindow;
  startedAt: number;
  upcoming: Promise<unknown>;
  past: Promise<unknown>;
  prescriptions: Promise<unknown>;
  notes: Promise<unknown>;
  /** The next visit's doctor (asked as soon as the upcoming visits are known), or null without one. */
  doctor: Promise<{ id: string; body: unknown } | null>;
}

let boot: PortalBoot | null = null;

/**
 * Starts the home's requests for a patient (not for staff, whom the portal sends to their own
 * area). A failed request settles to null: the page's own query asks again and shows its error.
 */
export function startPortalBoot(me: MeResponse, now = new Date()): void {
  if (!isPortalUser(me.permissions)) {
    return;
  }
  const window = portalWindow(now);
  const settle = (request: Promise<unknown>) => request.catch(() => null);
  const upcoming = settle(requestUpcomingAppointments(window.from));
  boot = {
    patientId: me.user.id,
    window,
    startedAt: Date.now(),
    upcoming,
    past: settle(requestPortalPast(window.to, portalPastLimit)),
    prescriptions: settle(requestPortalPrescriptions(me.user.id)),
    notes: settle(requestPortalNotes(me.user.id)),
    doctor: upcoming.then(async (body) => {
      const next = pickOpenVisits(appointmentsIn(body), now)[0];
      if (!next) {
        return null;
      }
      const answer = await settle(requestPortalDoctor(next.doctor.id));
      return answer === null ? null : { id: next.doctor.id, body: answer };
    }),
  };
}

/** The boot under way, while it is recent enough to stand for the page's first answers. */
export function currentPortalBoot(now = Date.now()): PortalBoot | null {
  return boot && now - boot.startedAt <= bootLifetimeMs ? boot : null;
}

/** The boot's time window while it stands, else one from `now`: the home's queries use it in their keys. */
export function portalWindowNow(now = new Date()): PortalWindow {
  return currentPortalBoot(now.getTime())?.window ?? portalWindow(now);
}

/** The visits of an answer not yet checked against its schema (only to pick whose doctor to ask for). */
function appointmentsIn(body: unknown): Appointment[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) {
    return [];
  }
  return data.filter(
    (item): item is Appointment =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as Appointment).status === 'string' &&
      typeof (item as Appointment).startsAt === 'string' &&
      typeof (item as Appointment).endsAt === 'string' &&
      typeof (item as Appointment).doctor?.id === 'string',
  );
}

/** Forgets the boot (tests). */
export function resetPortalBoot(): void {
  boot = null;
}
