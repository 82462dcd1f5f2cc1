import { formatCalendarDate as formatDay } from '../../../lib/clock';

/** A `YYYY-MM-DD` calendar date in the reader's language (no time zone shift: it is a date, not an instant). */
export function formatCalendarDate(value: string, language: string): string {
  return formatDay(value, language, { dateStyle: 'medium' });
}
