import {
  minutesOfWallTime,
  type AvailabilityRule,
  type AvailabilityRuleInput,
} from '@telemedicina/shared/booking';
import { formatWallTime } from '../../lib/zoned-time';

/** ISO weekdays, Monday first. */
export const weekdays = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof weekdays)[number];

/** One editable range of a weekday (validity dates kept as they came; the editor does not change them). */
export interface RangeDraft {
  key: string;
  start: string;
  end: string;
  validFrom: string | null;
  validUntil: string | null;
}

/** The weekly schedule being edited: the ranges of each weekday, earliest first. */
export type WeekDraft = Record<Weekday, RangeDraft[]>;

export type RangeField = 'start' | 'end';

/** A problem of one row: which field, and a `validation.*` translation key. */
export interface RangeIssue {
  field: RangeField;
  message: string;
}

let keyCounter = 0;

/** A fresh key for a new row (stable across renders, unique within the page). */
export function newRangeKey(): string {
  keyCounter += 1;
  return `range-${keyCounter}`;
}

export function emptyWeek(): WeekDraft {
  return { 1: [], 2: [], 3: [], 4: [], 5: [], 6: [], 7: [] };
}

const byStart = (a: RangeDraft, b: RangeDraft) =>
  minutesOfWallTime(a.start) - minutesOfWallTime(b.start) ||
  minutesOfWallTime(a.end) - minutesOfWallTime(b.end);

function isWeekday(value: number): value is Weekday {
  return Number.isInteger(value) && value >= 1 && value <= 7;
}

/** The saved rules grouped by weekday, each day's ranges by start time (`HH:MM`, `24:00` as an end). */
export function groupRules(rules: readonly AvailabilityRule[]): WeekDraft {
  const week = emptyWeek();
  for (const rule of rules) {
    if (!isWeekday(rule.weekday)) {
      continue;
    }
    week[rule.weekday].push({
      key: newRangeKey(),
      start: rule.start.slice(0, 5),
      end: rule.end.slice(0, 5),
      validFrom: rule.validFrom,
      validUntil: rule.validUntil,
    });
  }
  for (const day of weekdays) {
    week[day].sort(byStart);
  }
  return week;
}

/**
 * The request body of `PUT /doctors/:id/availability/rules`, Monday to Sunday, plus the row key of
 * each rule (index i of `rules` is row `keys[i]`: the server's `rules.<i>.start` points at it).
 */
export function toRulesRequest(week: WeekDraft): { rules: AvailabilityRuleInput[]; keys: string[] } {
  const rules: AvailabilityRuleInput[] = [];
  const keys: string[] = [];
  for (const day of weekdays) {
    for (const range of week[day]) {
      rules.push({
        weekday: day,
        start: range.start,
        end: range.end,
        validFrom: range.validFrom,
        validUntil: range.validUntil,
      });
      keys.push(range.key);
    }
  }
  return { rules, keys };
}

/** Tuesday to Friday become copies of Monday (new rows; weekends untouched). */
export function copyMondayToWeekdays(week: WeekDraft): WeekDraft {
  const copy = (range: RangeDraft): RangeDraft => ({ ...range, key: newRangeKey() });
  return {
    ...week,
    2: week[1].map(copy),
    3: week[1].map(copy),
    4: week[1].map(copy),
    5: week[1].map(copy),
  };
}

/**
 * A new range for a day: 09:00–13:00 on an empty day, else from the end of the day's last range
 * (plus an hour's break) for up to four hours; null when the day is full up to midnight.
 */
export function suggestRange(ranges: readonly RangeDraft[]): RangeDraft | null {
  const last = [...ranges].sort(byStart).at(-1);
  if (!last) {
    return { key: newRangeKey(), start: '09:00', end: '13:00', validFrom: null, validUntil: null };
  }
  const lastEnd = minutesOfWallTime(last.end);
  if (lastEnd >= 1440) {
    return null;
  }
  const start = lastEnd + 60 <= 1425 ? lastEnd + 60 : lastEnd;
  const end = Math.min(start + 240, 1440);
  return {
    key: newRangeKey(),
    start: formatWallTime(start),
    end: formatWallTime(end),
    validFrom: null,
    validUntil: null,
  };
}

/** Mornings and afternoons from Monday to Friday: a starting point for a clinic's usual week. */
export function typicalWeek(): WeekDraft {
  const week = emptyWeek();
  for (const day of [1, 2, 3, 4, 5] as const) {
    week[day] = [
      { key: newRangeKey(), start: '09:00', end: '13:00', validFrom: null, validUntil: null },
      { key: newRangeKey(), start: '15:00', end: '18:00', validFrom: null, validUntil: null },
    ];
  }
  return week;
}

/** Whether two validity periods (inclusive dates, null = open) share a day — as the server decides. */
function periodsMeet(a: RangeDraft, b: RangeDraft): boolean {
  const startsBeforeEnd = (x: RangeDraft, y: RangeDraft) =>
    x.validFrom === null || y.validUntil === null || x.validFrom <= y.validUntil;
  return startsBeforeEnd(a, b) && startsBeforeEnd(b, a);
}

/**
 * The problems the server would refuse, found before sending: an end not after its start
 * (`validation.timeOrder`, on the end) and ranges of one day that overlap
 * (`validation.rulesOverlap`, on the start of each) — keyed by row.
 */
export function validateWeek(week: WeekDraft): Map<string, RangeIssue> {
  const issues = new Map<string, RangeIssue>();
  for (const day of weekdays) {
    const ranges = week[day];
    for (const range of ranges) {
      if (minutesOfWallTime(range.end) <= minutesOfWallTime(range.start)) {
        issues.set(range.key, { field: 'end', message: 'validation.timeOrder' });
      }
    }
    const ordered = ranges.filter((range) => !issues.has(range.key));
    for (const range of ordered) {
      const clash = ordered.some(
        (other) =>
          other.key !== range.key &&
          minutesOfWallTime(other.start) < minutesOfWallTime(range.end) &&
          minutesOfWallTime(range.start) < minutesOfWallTime(other.end) &&
          periodsMeet(range, other),
      );
      if (clash) {
        issues.set(range.key, { field: 'start', message: 'validation.rulesOverlap' });
      }
    }
  }
  return issues;
}

/**
 * A 400 answer's field errors (`rules.<i>.start` → `validation.rulesOverlap`, …) placed on the rows
 * they name; paths that name no row are returned apart so the page can still show them.
 */
export function mapServerIssues(
  fieldErrors: Readonly<Record<string, string>>,
  keys: readonly string[],
): { byRow: Map<string, RangeIssue>; other: string[] } {
  const byRow = new Map<string, RangeIssue>();
  const other: string[] = [];
  for (const [path, message] of Object.entries(fieldErrors)) {
    const match = /^rules\.(\d+)(?:\.(\w+))?$/.exec(path);
    const key = match ? keys[Number(match[1])] : undefined;
    if (!match || key === undefined) {
      other.push(message);
      continue;
    }
    byRow.set(key, { field: match[2] === 'end' ? 'end' : 'start', message });
  }
  return { byRow, other };
}

/** True when two drafts hold the same ranges (keys aside): nothing to save. */
export function isSameWeek(a: WeekDraft, b: WeekDraft): boolean {
  return weekdays.every((day) => {
    const left = [...a[day]].sort(byStart);
    const right = [...b[day]].sort(byStart);
    return (
      left.length === right.length &&
      left.every(
        (range, index) =>
          range.start === right[index]?.start &&
          range.end === right[index]?.end &&
          range.validFrom === right[index]?.validFrom &&
          range.validUntil === right[index]?.validUntil,
      )
    );
  });
}

/**
 * The times a range may start or end at, every 15 minutes (`24:00` only as an end), plus the
 * value being shown when it is off that grid (a rule saved at 09:10 stays 09:10).
 */
export function timeChoices(field: RangeField, current: string): string[] {
  const times: string[] = [];
  const from = field === 'start' ? 0 : 15;
  const to = field === 'start' ? 1425 : 1440;
  for (let minute = from; minute <= to; minute += 15) {
    times.push(formatWallTime(minute));
  }
  if (!times.includes(current)) {
    times.push(current);
    times.sort((a, b) => minutesOfWallTime(a) - minutesOfWallTime(b));
  }
  return times;
}

/** Total weekly hours of a draft (for the summary line). */
export function weeklyMinutes(week: WeekDraft): number {
  return weekdays.reduce(
    (total, day) =>
      total +
      week[day].reduce(
        (sum, range) => sum + Math.max(0, minutesOfWallTime(range.end) - minutesOfWallTime(range.start)),
        0,
      ),
    0,
  );
}
