import { dateInZone, formatCalendarDate } from '../../lib/clock';

/** The ranges offered as one click; anything else is "custom". */
export const presetRangeDays = [7, 30, 90] as const;
export type PresetRangeDays = (typeof presetRangeDays)[number];

/** The server's longest range. */
export const maxRangeDays = 366;

/** Today's calendar date (`YYYY-MM-DD`) in an IANA zone (UTC when it is unknown). */
export function todayIn(timeZone: string | undefined, now: Date = new Date()): string {
  return dateInZone(now, timeZone ?? 'UTC');
}

/** A calendar date moved by whole days (`2026-03-01` − 1 → `2026-02-28`). */
export function addDays(date: string, days: number): string {
  const value = new Date(`${date}T00:00:00Z`);
  value.setUTCDate(value.getUTCDate() + days);
  return value.toISOString().slice(0, 10);
}

/** Days from one date to another, both counted (`2026-03-01`…`2026-03-07` → 7). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The last `days` days up to today (today included). */
export function presetRange(days: number, today: string): { from: string; to: string } {
  return { from: addDays(today, -(days - 1)), to: today };
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The range the address asks for: `?range=7|30|90`, or `?from=&to=` (custom, at most 366 days,
 * from ≤ to). Anything else falls back to the last 30 days.
 */
export function readRange(
  params: URLSearchParams,
  today: string,
): { preset: PresetRangeDays | 'custom'; from: string; to: string } {
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  if (
    isoDate.test(from) &&
    isoDate.test(to) &&
    !Number.isNaN(Date.parse(from)) &&
    !Number.isNaN(Date.parse(to)) &&
    from <= to &&
    daysBetween(from, to) <= maxRangeDays
  ) {
    return { preset: 'custom', from, to };
  }
  const days = Number(params.get('range'));
  const preset = presetRangeDays.find((candidate) => candidate === days) ?? 30;
  return { preset, ...presetRange(preset, today) };
}

/** A `YYYY-MM-DD` date as a short day label in the reader's language ("3 mar" / "Mar 3"). */
export function formatDay(date: string, language: string, withYear = false): string {
  return formatCalendarDate(date, language, {
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
  });
}

/** Seconds as `m:ss` (or `h:mm:ss` from an hour up). */
export function formatWait(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}
