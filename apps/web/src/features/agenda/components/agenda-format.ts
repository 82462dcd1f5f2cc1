const utcDate = (day: string) => new Date(`${day}T12:00:00Z`);

/** The heading of the visible days: "lunes, 23 de noviembre de 2026" or "23–29 nov 2026". */
export function formatRangeLabel(days: readonly string[], language: string): string {
  const first = days[0] ?? '1970-01-01';
  const last = days.at(-1) ?? first;
  if (first === last) {
    return new Intl.DateTimeFormat(language, { timeZone: 'UTC', dateStyle: 'full' }).format(utcDate(first));
  }
  const format = new Intl.DateTimeFormat(language, {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  return format.formatRange(utcDate(first), utcDate(last));
}

/** A day column's heading, weekday first in both languages: "lun 23" / "Mon 23". */
export function formatDayHeading(day: string, language: string): string {
  const parts = new Intl.DateTimeFormat(language, {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
  }).formatToParts(utcDate(day));
  const weekday = parts.find((part) => part.type === 'weekday')?.value ?? '';
  const number = parts.find((part) => part.type === 'day')?.value ?? '';
  return `${weekday.replace(/\.$/, '')} ${number}`;
}

/** A day's heading in the phone list: "lunes, 23 de noviembre". */
export function formatLongDay(day: string, language: string): string {
  return new Intl.DateTimeFormat(language, {
    timeZone: 'UTC',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
  }).format(utcDate(day));
}

/** A wall-clock time (minutes since midnight) in the reader's style: "09:00" / "9:00 AM". */
export function formatMinutes(minutes: number, language: string): string {
  const at = new Date(Date.UTC(2000, 0, 1, 0, minutes));
  return new Intl.DateTimeFormat(language, { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' }).format(
    at,
  );
}

/** An hour of the grid's axis: "09:00" in Spanish, "9 AM" in English (short enough for the column). */
export function formatHourLabel(hour: number, language: string): string {
  const at = new Date(Date.UTC(2000, 0, 1, hour));
  const options: Intl.DateTimeFormatOptions =
    language === 'en'
      ? { timeZone: 'UTC', hour: 'numeric' }
      : { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' };
  return new Intl.DateTimeFormat(language, options).format(at);
}
