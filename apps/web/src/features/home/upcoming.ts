import type { Appointment } from '@telemedicina/shared/appointment';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import { visitCheckInOpensMinutesBefore } from '@telemedicina/shared/visit-timing';

const minuteMs = 60_000;

/**
 * How far back the home page asks for appointments (`from` filters on the start): a visit that
 * began up to this long ago may still be running or waiting for the doctor, and must still show.
 * Defined beside the request the page's boot starts (api/boot-upcoming.ts).
 */
export { upcomingLookbackMinutes, upcomingWindowStart } from '../../lib/upcoming-appointments';

/** How many upcoming appointments the home page lists. */
export const upcomingLimit = 3;

/** The statuses of an appointment that is still ahead (or under way). */
const openStatuses: readonly AppointmentStatus[] = ['requested', 'confirmed', 'checked_in', 'in_progress'];

/** The open appointments that have not ended yet, soonest first, at most `limit`. */
export function pickUpcoming(
  appointments: readonly Appointment[],
  now: Date,
  limit: number = upcomingLimit,
): Appointment[] {
  return appointments
    .filter((item) => openStatuses.includes(item.status) && new Date(item.endsAt).getTime() > now.getTime())
    .sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime())
    .slice(0, limit);
}

/**
 * Whether the visit's room can be entered now: the appointment is open and check-in has opened
 * (`visitCheckInOpensMinutesBefore` minutes before the start, as the server decides) and it has
 * not ended. Earlier, the home page links to the appointment instead.
 */
export function canJoinNow(appointment: Appointment, now: Date): boolean {
  if (!openStatuses.includes(appointment.status)) {
    return false;
  }
  const opensAt = new Date(appointment.startsAt).getTime() - visitCheckInOpensMinutesBefore * minuteMs;
  return now.getTime() >= opensAt && now.getTime() < new Date(appointment.endsAt).getTime();
}

/**
 * "in 3 hours", "tomorrow", "in 5 days" (or "3 minutes ago" for a visit under way), in the
 * reader's language, from the browser's own wording.
 */
export function formatRelativeStart(startsAt: string, now: Date, language: string): string {
  const minutes = Math.round((new Date(startsAt).getTime() - now.getTime()) / minuteMs);
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  if (Math.abs(minutes) < 60) {
    return format.format(minutes, 'minute');
  }
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) {
    return format.format(hours, 'hour');
  }
  return format.format(Math.round(hours / 24), 'day');
}
