/**
 * Slot generation, pure (no database, no clock): weekly wall-clock rules in
 * their own zone, one-off exceptions and busy intervals in, free slots out.
 *
 * How a day's slots are made, for each rule zone and each calendar date in it:
 * 1. the date's rules (matching ISO weekday, valid on that date) turn into
 *    instant ranges with {@link zonedInstant}; extra-hours exceptions are
 *    added as they are (instants), and overlapping or touching ranges merge;
 * 2. each merged range is cut into back-to-back slots of `slotMinutes`,
 *    anchored at the range's start, and a slot must fit wholly in its range;
 * 3. slots overlapping time off or a busy interval are dropped — the grid is
 *    not re-anchored around them, so booked appointments keep lining up with
 *    the slots around them after time off is added;
 * 4. only slots starting in [from, to) and at or after `notBefore` remain.
 *
 * Daylight saving: a rule at 09:00 stays at 09:00 local on both sides of a
 * change (its UTC instant moves by the offset change). A wall time that does
 * not exist (spring-forward gap, 02:30 in Madrid on 2026-03-29) moves forward
 * by the gap's length (03:30), as Temporal's `disambiguation: 'compatible'`
 * does; a range starting at the gap's beginning therefore starts when the
 * clocks jump. A wall time that happens twice (fall-back, 02:30 in Madrid on
 * 2026-10-25) means its first occurrence.
 */

export interface WeeklyRule {
  /** ISO weekday, 1 = Monday … 7 = Sunday. */
  weekday: number;
  /** Minutes since local midnight, [0, 1440). */
  startMinute: number;
  /** Minutes since local midnight, (startMinute, 1440]. */
  endMinute: number;
  /** IANA zone the wall-clock times are in. */
  timeZone: string;
  /** First local date the rule applies (inclusive, `YYYY-MM-DD`), null = always. */
  validFrom: string | null;
  /** Last local date the rule applies (inclusive), null = always. */
  validUntil: string | null;
}

export interface Interval {
  start: Date;
  end: Date;
}

export interface AvailabilityExceptionInterval extends Interval {
  kind: 'time_off' | 'extra';
}

export interface SlotGenerationInput {
  rules: readonly WeeklyRule[];
  exceptions: readonly AvailabilityExceptionInterval[];
  /** Intervals already taken (live appointments). */
  busy: readonly Interval[];
  slotMinutes: number;
  /** Slots start at or after `from` and before `to`. */
  from: Date;
  to: Date;
  /** Earliest allowed start (now + minimum notice); null = no limit. */
  notBefore: Date | null;
  /** Stop after this many slots (the next free slots, the directory's preview). */
  limit?: number;
}

export interface GeneratedSlot {
  start: Date;
  end: Date;
}

const minuteMs = 60_000;
const dayMs = 24 * 60 * minuteMs;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
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

/** The wall clock of `timeZone` at `instant`, read as if it were UTC (milliseconds since the epoch). */
function wallClockMs(instant: number, timeZone: string): number {
  const parts = formatterFor(timeZone).formatToParts(new Date(instant));
  const value = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((part) => part.type === type)?.value ?? 0);
  return Date.UTC(
    value('year'),
    value('month') - 1,
    value('day'),
    value('hour'),
    value('minute'),
    value('second'),
  );
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in milliseconds. */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return wallClockMs(whole, timeZone) - whole;
}

/**
 * The instant at which the wall clock of `timeZone` reads `date` plus
 * `minuteOfDay` minutes (1440 = the next midnight). Gap → moved forward by the
 * gap's length; repeated time → the first occurrence (see the module comment).
 */
export function zonedInstant(date: string, minuteOfDay: number, timeZone: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`) + minuteOfDay * minuteMs;
  // The offsets in force a day either side cover any single transition near this wall time.
  const before = zoneOffsetMs(wall - dayMs, timeZone);
  const after = zoneOffsetMs(wall + dayMs, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => wallClockMs(instant, timeZone) === wall)
    .sort((a, b) => a - b);
  const first = candidates[0];
  if (first !== undefined) {
    return new Date(first);
  }
  // In a gap: read the wall time with the offset before the jump, which lands as far past it.
  return new Date(wall - Math.min(before, after));
}

/** The local calendar date (`YYYY-MM-DD`) of `instant` in `timeZone`. */
export function localDateOf(instant: Date, timeZone: string): string {
  return new Date(wallClockMs(instant.getTime(), timeZone)).toISOString().slice(0, 10);
}

/**
 * `YYYY-MM-DDTHH:MM±HH:MM`: the wall clock of `timeZone` at `instant` with the
 * offset in force, for labels that must say which zone they are in.
 */
export function formatLocalDateTime(instant: Date, timeZone: string): string {
  const wall = wallClockMs(instant.getTime(), timeZone);
  const offsetMinutes = Math.round((wall - Math.floor(instant.getTime() / 1000) * 1000) / minuteMs);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${new Date(wall).toISOString().slice(0, 16)}${sign}${pad(Math.floor(absolute / 60))}:${pad(absolute % 60)}`;
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar date. */
export function isoWeekdayOf(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

function isRuleValidOn(rule: WeeklyRule, date: string): boolean {
  return (
    (rule.validFrom === null || date >= rule.validFrom) &&
    (rule.validUntil === null || date <= rule.validUntil)
  );
}

/** Rule ranges (as instants) on every local date that can hold a slot starting in [from, to). */
function ruleRanges(rules: readonly WeeklyRule[], from: Date, to: Date): Interval[] {
  const ranges: Interval[] = [];
  const rulesByZone = new Map<string, WeeklyRule[]>();
  for (const rule of rules) {
    rulesByZone.set(rule.timeZone, [...(rulesByZone.get(rule.timeZone) ?? []), rule]);
  }
  for (const [timeZone, zoneRules] of rulesByZone) {
    // A day before and after: a range on a neighbouring local date can reach into the window.
    const last = addDays(localDateOf(to, timeZone), 1);
    for (let date = addDays(localDateOf(from, timeZone), -1); date <= last; date = addDays(date, 1)) {
      const weekday = isoWeekdayOf(date);
      for (const rule of zoneRules) {
        if (rule.weekday !== weekday || !isRuleValidOn(rule, date)) {
          continue;
        }
        const start = zonedInstant(date, rule.startMinute, timeZone);
        const end = zonedInstant(date, rule.endMinute, timeZone);
        if (end > start) {
          ranges.push({ start, end });
        }
      }
    }
  }
  return ranges;
}

/** Sorted, with overlapping or touching intervals merged. */
function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a.start.getTime() - b.start.getTime());
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const previous = merged.at(-1);
    if (previous !== undefined && interval.start.getTime() <= previous.end.getTime()) {
      if (interval.end > previous.end) {
        previous.end = interval.end;
      }
    } else {
      merged.push({ start: interval.start, end: interval.end });
    }
  }
  return merged;
}

/** True when [start, end) meets any of the sorted, merged `blocked` intervals. */
function overlapsAny(start: number, end: number, blocked: readonly Interval[]): boolean {
  // Binary search for the first blocked interval ending after `start`.
  let low = 0;
  let high = blocked.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (blocked[middle]!.end.getTime() <= start) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  const candidate = blocked[low];
  return candidate !== undefined && candidate.start.getTime() < end;
}

/** The free slots, earliest first (see the module comment for the rules). */
export function generateSlots(input: SlotGenerationInput): GeneratedSlot[] {
  const slotMs = input.slotMinutes * minuteMs;
  if (slotMs <= 0 || input.to <= input.from) {
    return [];
  }
  const open = mergeIntervals([
    ...ruleRanges(input.rules, input.from, input.to),
    ...input.exceptions.filter((exception) => exception.kind === 'extra'),
  ]);
  const blocked = mergeIntervals([
    ...input.exceptions.filter((exception) => exception.kind === 'time_off'),
    ...input.busy,
  ]);
  const earliest = Math.max(input.from.getTime(), input.notBefore?.getTime() ?? -Infinity);
  const latest = input.to.getTime();
  const limit = input.limit ?? Infinity;
  const slots: GeneratedSlot[] = [];
  for (const range of open) {
    const rangeEnd = range.end.getTime();
    for (let start = range.start.getTime(); start + slotMs <= rangeEnd && start < latest; start += slotMs) {
      if (start < earliest || overlapsAny(start, start + slotMs, blocked)) {
        continue;
      }
      slots.push({ start: new Date(start), end: new Date(start + slotMs) });
      if (slots.length >= limit) {
        return slots;
      }
    }
  }
  return slots;
}
