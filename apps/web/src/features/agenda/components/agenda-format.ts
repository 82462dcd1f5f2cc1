import {
  calendarDateParts,
  formatCalendarDate,
  formatCalendarRange,
  formatWallClock,
} from '../../../lib/clock';

/** The heading of the visible days: "lunes, 23 de noviembre de 2026" or "23–29 nov 2026". */
export function formatRangeLabel(days: readonly string[], language: string): string {
  const first = days[0] ?? '1970-01-01';
  const last = days.at(-1) ?? first;
  if (first === last) {
    return formatCalendarDate(first, language, { dateStyle: 'full' });
  }
  return formatCalendarRange(first, last, language, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** A day column's heading, weekday first in both languages: "lun 23" / "Mon 23". */
export function formatDayHeading(day: string, language: string): string {
  const parts = calendarDateParts(day, language, { weekday: 'short', day: 'numeric' });
  const weekday = parts.find((part) => part.type === 'weekday')?.value ?? '';
  const number = parts.find((part) => part.type === 'day')?.value ?? '';
  return `${weekday.replace(/\.$/, '')} ${number}`;
}

/** A day's heading in the phone list: "lunes, 23 de noviembre". */
export function formatLongDay(day: string, language: string): string {
  return formatCalendarDate(day, language, { weekday: 'long', day: 'numeric', month: 'long' });
}

/** A wall-clock time (minutes since midnight) in the reader's style: "09:00" / "9:00 AM". */
export function formatMinutes(minutes: number, language: string): string {
  return formatWallClock(minutes, language);
}

/** An hour of the grid's axis: "09:00" in Spanish, "9 AM" in English (short enough for the column). */
export function formatHourLabel(hour: number, language: string): string {
  return formatWallClock(
    hour * 60,
    language,
    language === 'en' ? { hour: 'numeric' } : { hour: '2-digit', minute: '2-digit' },
  );
}
