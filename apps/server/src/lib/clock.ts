import type { Language } from '@telemedicina/shared/i18n';
import { timeZoneName } from '@telemedicina/shared/time-zone-names';

/**
 * The one place the server turns an instant into text a person reads — emails, PDFs, the record
 * export, calendar descriptions — always in an explicit zone (the reader's account zone) and with
 * the zone named in words ("hora de Ciudad de México", "Mexico City time"), never an IANA id. The
 * locales are the web client's ('es', 'en'), so an email says a visit's time as the screens do.
 */

export type InstantStyle = 'dateTime' | 'longDateTime' | 'fullDateTime' | 'date' | 'longDate' | 'time';

const styles: Record<InstantStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  longDateTime: { dateStyle: 'long', timeStyle: 'short' },
  fullDateTime: { dateStyle: 'full', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  longDate: { dateStyle: 'long' },
  time: { hour: 'numeric', minute: '2-digit' },
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([language, options]);
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, options);
    formatters.set(key, format);
  }
  return format;
}

/** An instant in `timeZone` (UTC when the zone is unknown), in the reader's language. */
export function formatInstant(at: Date, language: Language, timeZone: string, style: InstantStyle): string {
  try {
    return formatter(language, { ...styles[style], timeZone }).format(at);
  } catch {
    return formatter(language, { ...styles[style], timeZone: 'UTC' }).format(at);
  }
}

/** The zone in words in the reader's language ("hora de Ciudad de México"). */
export function formatZoneName(timeZone: string, language: Language): string {
  return timeZoneName(timeZone, language);
}

/**
 * An instant with its zone named: "viernes, 27 de noviembre de 2026, 16:00 (hora de Ciudad de
 * México)" / "Friday, November 27, 2026 at 4:00 PM (Mexico City time)".
 */
export function formatInstantWithZone(
  at: Date,
  language: Language,
  timeZone: string,
  style: InstantStyle = 'fullDateTime',
): string {
  return `${formatInstant(at, language, timeZone, style)} (${formatZoneName(timeZone, language)})`;
}

/** A calendar date `YYYY-MM-DD` (a birth date: no zone) as written, in the reader's language. */
export function formatCalendarDate(
  day: string,
  language: Language,
  style: 'date' | 'longDate' = 'longDate',
): string {
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) {
    return day;
  }
  return formatter(language, { ...styles[style], timeZone: 'UTC' }).format(at);
}
