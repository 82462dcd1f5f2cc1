/**
 * Wall-clock arithmetic in explicit IANA zones, with nothing but `Intl` (the agenda, the schedule
 * editor and date filters work in a zone that is not the browser's). Dates are `YYYY-MM-DD`,
 * times minutes since midnight.
 */

const minuteMs = 60_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of an instant in a zone: its calendar date and minutes since that midnight. */
export function wallClockOf(instant: Date | string, timeZone: string): { date: string; minutes: number } {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  const parts = partsFormatter(timeZone).formatToParts(at);
  const value = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((part) => part.type === type)?.value ?? '00';
  return {
    date: `${value('year')}-${value('month')}-${value('day')}`,
    minutes: Number(value('hour')) * 60 + Number(value('minute')),
  };
}

/** How far a zone's wall clock is ahead of UTC at an instant, in milliseconds. */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const { date, minutes } = wallClockOf(instant, timeZone);
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * minuteMs;
  return wall - Math.floor(instant.getTime() / minuteMs) * minuteMs;
}

/**
 * The instant a wall-clock time (`minutes` after midnight of `date`, 1440 = the next midnight)
 * happens in `timeZone`. A time in a spring-forward gap moves forward by the gap; a repeated time
 * (autumn) means its first occurrence — the same rules as the server's slot generator.
 */
export function zonedInstant(date: string, minutes: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutes * minuteMs;
  const before = zoneOffsetMs(new Date(wall - 36 * 60 * minuteMs), timeZone);
  const after = zoneOffsetMs(new Date(wall + 36 * 60 * minuteMs), timeZone);
  // Try both offsets around the time: the earlier instant that reads back as this wall time wins.
  const candidates = [wall - before, wall - after].sort((a, b) => a - b);
  for (const candidate of candidates) {
    if (zoneOffsetMs(new Date(candidate), timeZone) === wall - candidate) {
      return new Date(candidate);
    }
  }
  // In a gap no instant reads back: keep the offset in force before it (moves forward by the gap).
  return new Date(wall - before);
}

/** Adds whole days to a calendar date `YYYY-MM-DD`. */
export function addCalendarDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** ISO weekday of a calendar date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** The Monday of the week holding a calendar date. */
export function mondayOfWeek(date: string): string {
  return addCalendarDays(date, 1 - isoWeekday(date));
}

/** True for a real calendar date written `YYYY-MM-DD`. */
export function isCalendarDate(value: string | null | undefined): value is string {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return false;
  }
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

/** Today's date in a zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  return wallClockOf(now, timeZone).date;
}

/** Minutes since midnight as `HH:MM` (1440 → `24:00`). */
export function formatWallTime(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
