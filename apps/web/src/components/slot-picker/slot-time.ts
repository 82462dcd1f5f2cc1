import { formatCalendarDate } from '../../lib/clock';

// The slot picker's formatters are the app's one clock (`lib/clock`).
export {
  dateInZone,
  formatLongDateTime,
  formatShortDateTime,
  formatTime,
  zonesDiffer,
} from '../../lib/clock';

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

/** A calendar date `YYYY-MM-DD` as "lun 2 mar" / "Mon, Mar 2". */
export function formatDay(day: string, language: string): string {
  return formatCalendarDate(day, language, { weekday: 'short', day: 'numeric', month: 'short' });
}
