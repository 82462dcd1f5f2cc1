import type { Appointment } from '@telemedicina/shared/appointment';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import { visitCheckInOpensMinutesBefore, visitJoinGraceMinutes } from '@telemedicina/shared/visit-timing';
import { dateInZone } from '../../lib/clock';

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

/** Statuses of a visit still ahead of the patient (or under way). */
const openStatuses: readonly AppointmentStatus[] = ['requested', 'confirmed', 'checked_in', 'in_progress'];

/**
 * Where a visit stands for the patient right now, which decides the card's one main action:
 * - `ahead`: check-in has not opened → prepare (device check), add to calendar, change or cancel;
 * - `checkInOpen`: from `visitCheckInOpensMinutesBefore` minutes before the start (as the server
 *   decides) until the end → enter the video visit;
 * - `underWay`: the doctor has started it → enter the video visit (until the join grace ends).
 */
export type VisitMoment = 'ahead' | 'checkInOpen' | 'underWay';

/** When the visit's waiting room opens. */
export function checkInOpensAt(appointment: Pick<Appointment, 'startsAt'>): Date {
  return new Date(new Date(appointment.startsAt).getTime() - visitCheckInOpensMinutesBefore * minuteMs);
}

/** The last moment the visit is still the patient's next one (its end; with the join grace once it has begun). */
function stillOpenUntil(appointment: Appointment): number {
  const end = new Date(appointment.endsAt).getTime();
  return appointment.status === 'in_progress' || appointment.status === 'checked_in'
    ? end + visitJoinGraceMinutes * minuteMs
    : end;
}

/** The visit's moment at `now` (see `VisitMoment`). */
export function visitMoment(appointment: Appointment, now: Date): VisitMoment {
  if (appointment.status === 'in_progress') {
    return 'underWay';
  }
  return now.getTime() >= checkInOpensAt(appointment).getTime() ? 'checkInOpen' : 'ahead';
}

/** The patient's open visits that are not over, soonest first: the first is the next visit. */
export function pickOpenVisits(appointments: readonly Appointment[], now: Date): Appointment[] {
  return appointments
    .filter((item) => openStatuses.includes(item.status) && stillOpenUntil(item) > now.getTime())
    .sort((a, b) => new Date(a.startsAt).getTime() - new Date(b.startsAt).getTime());
}

/**
 * How long until the visit, in the reader's language from the browser's own wording: "dentro de
 * 25 minutos", "dentro de 3 horas", "mañana", "dentro de 3 días" ("in 25 minutes", "tomorrow",
 * "in 3 days"). Beyond a day the count is of calendar days in the viewer's account zone, so a visit
 * tomorrow morning reads "mañana" even when it is fewer than 24 hours away.
 */
export function formatCountdown(startsAt: string, now: Date, language: string, timeZone: string): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const minutes = Math.round((new Date(startsAt).getTime() - now.getTime()) / minuteMs);
  if (minutes === 0) {
    // "ahora" / "now" (the minute's own wording, "este minuto", reads oddly on a card).
    return format.format(0, 'second');
  }
  if (Math.abs(minutes) < 60) {
    return format.format(minutes, 'minute');
  }
  const sameDay = dateInZone(startsAt, timeZone) === dateInZone(now, timeZone);
  if (sameDay || minutes < 0) {
    return format.format(Math.round(minutes / 60), 'hour');
  }
  const days = Math.round(
    (Date.parse(`${dateInZone(startsAt, timeZone)}T00:00:00Z`) -
      Date.parse(`${dateInZone(now, timeZone)}T00:00:00Z`)) /
      dayMs,
  );
  return format.format(days, 'day');
}
