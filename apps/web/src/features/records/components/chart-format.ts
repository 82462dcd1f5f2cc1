/** A `YYYY-MM-DD` calendar date in the reader's language (no time zone shift: it is a date, not an instant). */
export function formatCalendarDate(value: string, language: string): string {
  const [year, month, day] = value.split('-').map(Number);
  if (year === undefined || month === undefined || day === undefined || Number.isNaN(year)) {
    return value;
  }
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}
