import { dateTimeFormat } from '../../lib/intl-cache';

/** Calendar date `YYYY-MM-DD` of an instant in an IANA zone (UTC when the zone is unknown). */
export function dateInZone(instant: Date | string, timeZone: string): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

/** Adds whole days to a calendar date `YYYY-MM-DD`. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The Monday of the week holding a calendar date. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** The seven dates (Monday first) of the week `offset` weeks after the one holding `today`. */
export function weekDays(today: string, offset: number): string[] {
  const monday = addDays(mondayOf(today), offset * 7);
  return Array.from({ length: 7 }, (_, index) => addDays(monday, index));
}

/**
 * The window asked of `GET /doctors/:id/slots` for a week: from the UTC midnight a day before its
 * Monday to two days after its Sunday, wide enough for any zone; the slots are then grouped by
 * their date in the viewer's zone and those outside the week dropped.
 */
export function weekWindow(days: readonly string[]): { from: string; to: string } {
  const first = days[0] ?? '1970-01-01';
  const last = days.at(-1) ?? first;
  return {
    from: `${addDays(first, -1)}T00:00:00.000Z`,
    to: `${addDays(last, 2)}T00:00:00.000Z`,
  };
}

/** Time of day ("09:30", "9:30 AM") of an instant in a zone, in the reader's language. */
export function formatTime(iso: string, language: string, timeZone: string): string {
  try {
    return dateTimeFormat(language, { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
  } catch {
    return dateTimeFormat(language, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
  }
}

/** A calendar date `YYYY-MM-DD` as "lun 2 mar" / "Mon, Mar 2". */
export function formatDay(day: string, language: string): string {
  return dateTimeFormat(language, {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** Full date and time of an instant in a zone ("lunes, 2 de marzo de 2026, 10:30"). */
export function formatLongDateTime(iso: string, language: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'short' };
  try {
    return dateTimeFormat(language, { ...options, timeZone }).format(new Date(iso));
  } catch {
    return dateTimeFormat(language, options).format(new Date(iso));
  }
}

/** A slot as a short label in a zone: "lun 2 mar, 10:30". */
export function formatShortDateTime(iso: string, language: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  };
  try {
    return dateTimeFormat(language, { ...options, timeZone }).format(new Date(iso));
  } catch {
    return dateTimeFormat(language, options).format(new Date(iso));
  }
}

/** True when two IANA zones show different wall-clock times at an instant (labels are needed then). */
export function zonesDiffer(first: string, second: string, at: Date = new Date()): boolean {
  if (first === second) {
    return false;
  }
  try {
    const format = (timeZone: string) =>
      new Intl.DateTimeFormat('en', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(at);
    return format(first) !== format(second);
  } catch {
    return true;
  }
}
