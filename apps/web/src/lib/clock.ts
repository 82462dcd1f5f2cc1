import { isLanguage, type Language } from '@telemedicina/shared/i18n';
import { timeZoneName as zoneNameIn } from '@telemedicina/shared/time-zone-names';
import { dateTimeFormat } from './intl-cache';

/**
 * The one place the client turns an instant into text. Every time a person reads — screens,
 * chat, waiting rooms, notes, prescriptions, the chart, notifications — goes through these, in the
 * viewer's account zone (`useClock` binds both), never the device's. The lint forbids
 * `Intl.DateTimeFormat`, `toLocale*String` and local-clock getters outside `src/lib`, so a
 * component cannot format on its own again.
 *
 * Instants are ISO strings or `Date`s; calendar dates (`YYYY-MM-DD`, a birth date, a day of the
 * agenda) have no zone and are formatted as written.
 */

export type Instant = string | Date;

function toDate(instant: Instant): Date {
  return typeof instant === 'string' ? new Date(instant) : instant;
}

/**
 * Formats an instant with `options` in `timeZone`. An unknown zone falls back to UTC — stated,
 * the same for everyone — rather than to the device's zone; an invalid instant is returned as is.
 */
export function formatInZone(
  instant: Instant,
  language: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): string {
  const date = toDate(instant);
  if (Number.isNaN(date.getTime())) {
    return typeof instant === 'string' ? instant : '';
  }
  try {
    return dateTimeFormat(language, { ...options, timeZone }).format(date);
  } catch {
    return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** "27 nov 2026, 16:00" / "Nov 27, 2026, 4:00 PM". */
export function formatDateTime(instant: Instant, language: string, timeZone: string): string {
  return formatInZone(instant, language, timeZone, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "viernes, 27 de noviembre de 2026, 16:00": an appointment's time where it is the subject. */
export function formatLongDateTime(instant: Instant, language: string, timeZone: string): string {
  return formatInZone(instant, language, timeZone, { dateStyle: 'full', timeStyle: 'short' });
}

/** "vie, 27 nov, 16:00": a slot or a visit in a list. */
export function formatShortDateTime(instant: Instant, language: string, timeZone: string): string {
  return formatInZone(instant, language, timeZone, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
  });
}

/** "16:00" / "4:00 PM". */
export function formatTime(instant: Instant, language: string, timeZone: string): string {
  return formatInZone(instant, language, timeZone, { hour: 'numeric', minute: '2-digit' });
}

/**
 * "16:00–16:30" / "4:00 PM–4:30 PM": each end written as `formatTime` writes it, so a visit's
 * start reads the same here as on its page.
 */
export function formatTimeRange(start: Instant, end: Instant, language: string, timeZone: string): string {
  return `${formatTime(start, language, timeZone)}–${formatTime(end, language, timeZone)}`;
}

/** "27 nov 2026": the day of an instant in the zone. */
export function formatDate(instant: Instant, language: string, timeZone: string): string {
  return formatInZone(instant, language, timeZone, { dateStyle: 'medium' });
}

/** Calendar date `YYYY-MM-DD` of an instant in a zone (UTC when the zone is unknown). */
export function dateInZone(instant: Instant, timeZone: string): string {
  const parts = formatInZone(instant, 'en-CA', timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  return /^\d{4}-\d{2}-\d{2}$/u.test(parts) ? parts : toDate(instant).toISOString().slice(0, 10);
}

/**
 * A calendar date `YYYY-MM-DD` (no zone: a birth date, an agenda's day) with `options`
 * ("lun 2 mar", "2 de marzo de 2026"). Read at UTC midnight so every device shows the date written.
 */
export function formatCalendarDate(
  day: string,
  language: string,
  options: Intl.DateTimeFormatOptions,
): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) {
    return day;
  }
  return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(date);
}

/** `formatCalendarDate`'s parts, to compose a heading ("lun 23"). */
export function calendarDateParts(
  day: string,
  language: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormatPart[] {
  return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).formatToParts(
    new Date(`${day}T00:00:00Z`),
  );
}

/**
 * A wall-clock time with no date or zone (minutes since midnight of a schedule's or the agenda's
 * day, already in the zone it belongs to) in the reader's style: "09:00" / "9:00 AM".
 */
export function formatWallClock(
  minutes: number,
  language: string,
  options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' },
): string {
  return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(
    new Date(Date.UTC(2000, 0, 1, 0, minutes)),
  );
}

/** A range of two calendar dates with `options` ("2–8 mar 2026"). */
export function formatCalendarRange(
  first: string,
  last: string,
  language: string,
  options: Intl.DateTimeFormatOptions,
): string {
  return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).formatRange(
    new Date(`${first}T00:00:00Z`),
    new Date(`${last}T00:00:00Z`),
  );
}

/** A range of two instants with `options` in a zone (an absence of the doctor, "2 mar, 9:00–13:00"). */
export function formatInstantRange(
  start: Instant,
  end: Instant,
  language: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): string {
  try {
    return dateTimeFormat(language, { ...options, timeZone }).formatRange(toDate(start), toDate(end));
  } catch {
    return dateTimeFormat(language, { ...options, timeZone: 'UTC' }).formatRange(toDate(start), toDate(end));
  }
}

/** True when two IANA zones show different wall-clock times at an instant (labels are needed then). */
export function zonesDiffer(first: string, second: string, at: Date = new Date()): boolean {
  if (first === second) {
    return false;
  }
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'short' };
  try {
    return (
      dateTimeFormat('en', { ...options, timeZone: first }).format(at) !==
      dateTimeFormat('en', { ...options, timeZone: second }).format(at)
    );
  } catch {
    return true;
  }
}

/** A zone in words in the reader's language ("hora de Ciudad de México", "Mexico City time"). */
export function formatTimeZoneName(timeZone: string, language: string): string {
  const base = language.split('-')[0];
  const known: Language = isLanguage(base) ? base : 'en';
  return zoneNameIn(timeZone, known);
}

/** The device's own IANA time zone (a default for registration; never used to show a time). */
export function deviceTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
