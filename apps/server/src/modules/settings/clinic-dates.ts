import { appError } from '../../lib/app-error.js';

/**
 * Calendar dates (`YYYY-MM-DD`) as the clinic counts them. Ranges in the
 * admin area (audit log, dashboard) are inclusive days in the clinic's time
 * zone; SQL turns a date into the instant its day starts there with
 * `date::timestamp AT TIME ZONE zone`, so a 23- or 25-hour day (DST) is one day.
 */

const dayMs = 24 * 60 * 60 * 1000;

/** The calendar date `instant` falls on in `timeZone`. */
export function calendarDateIn(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** `date` moved by `days` calendar days (negative goes back). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (1 when equal; 0 or less when `from` is after `to`). */
export function inclusiveDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs) + 1;
}

/** The longest range the admin area reads at once. */
export const maxRangeDays = 366;

/**
 * Refuses `from` after `to`, or more than {@link maxRangeDays} days, with 400
 * VALIDATION_FAILED on the query's `from` (message `validation.dateRange`).
 * An open end (one date missing) is not limited.
 */
export function assertDateRange(from: string | undefined, to: string | undefined): void {
  if (from === undefined || to === undefined) {
    return;
  }
  const days = inclusiveDays(from, to);
  if (days < 1 || days > maxRangeDays) {
    throw appError('VALIDATION_FAILED', 'The request is not valid.', {
      issues: [{ location: 'querystring', path: 'from', code: 'custom', message: 'validation.dateRange' }],
    });
  }
}
