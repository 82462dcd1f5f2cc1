import {
  addCalendarDays,
  isCalendarDate,
  mondayOfWeek,
  wallClockOf,
  zonedInstant,
} from '../../lib/zoned-time';

export type AgendaView = 'day' | 'week';

/** The dates (`YYYY-MM-DD`) the agenda shows: one day, or Monday to Sunday of its week. */
export function visibleDays(date: string, view: AgendaView): string[] {
  if (view === 'day') {
    return [date];
  }
  const monday = mondayOfWeek(date);
  return Array.from({ length: 7 }, (_, index) => addCalendarDays(monday, index));
}

/** Where "previous" and "next" lead: a day or a week away. */
export function shiftDate(date: string, view: AgendaView, steps: number): string {
  return addCalendarDays(date, steps * (view === 'day' ? 1 : 7));
}

/** The date in the address when it is a real date, else today. */
export function readAgendaDate(value: string | null, today: string): string {
  return isCalendarDate(value) ? value : today;
}

export interface TimedItem {
  startsAt: string;
  endsAt: string;
}

/** One block of the time grid. */
export interface PlacedBlock<T extends TimedItem> {
  item: T;
  /** Index of the day column (0 = the first visible day). */
  column: number;
  /** The day column's date. */
  date: string;
  /** Minutes from that day's midnight (doctor's wall clock) to the block's top. */
  startMinute: number;
  /** Minutes from that day's midnight to the block's bottom (≤ 1440; the part past midnight is cut). */
  endMinute: number;
  /** Side-by-side lanes for blocks that overlap in time: this block's lane and the group's lane count. */
  lane: number;
  lanes: number;
}

/**
 * Places appointments (instants) on the day columns of the grid as the DOCTOR's wall clock reads
 * them: the column is the start's date in `timeZone`, the top its minutes since that midnight.
 * The height is the elapsed time (a visit across a daylight-saving change keeps its real length),
 * cut at midnight. Items starting on days outside `days` are left out. Blocks that overlap share
 * the column width in lanes (a cancelled visit and the one that took its time, say).
 */
export function placeBlocks<T extends TimedItem>(
  items: readonly T[],
  days: readonly string[],
  timeZone: string,
): PlacedBlock<T>[] {
  const placed: Omit<PlacedBlock<T>, 'lane' | 'lanes'>[] = [];
  for (const item of items) {
    const start = wallClockOf(item.startsAt, timeZone);
    const column = days.indexOf(start.date);
    if (column === -1) {
      continue;
    }
    const elapsed = Math.max(0, (Date.parse(item.endsAt) - Date.parse(item.startsAt)) / 60_000);
    const endMinute = Math.min(1440, start.minutes + Math.max(elapsed, 1));
    placed.push({ item, column, date: start.date, startMinute: start.minutes, endMinute });
  }
  placed.sort((a, b) => a.column - b.column || a.startMinute - b.startMinute || b.endMinute - a.endMinute);

  const result: PlacedBlock<T>[] = [];
  // Group blocks that chain by overlap within a column, then give each the first free lane.
  let group: PlacedBlock<T>[] = [];
  let groupColumn = -1;
  let groupEnd = -1;
  const closeGroup = () => {
    const lanes = group.reduce((most, block) => Math.max(most, block.lane + 1), 0);
    for (const block of group) {
      block.lanes = lanes;
    }
    result.push(...group);
    group = [];
  };
  for (const block of placed) {
    if (block.column !== groupColumn || block.startMinute >= groupEnd) {
      closeGroup();
      groupColumn = block.column;
      groupEnd = block.endMinute;
    }
    groupEnd = Math.max(groupEnd, block.endMinute);
    const laneEnds = new Map<number, number>();
    for (const other of group) {
      laneEnds.set(other.lane, Math.max(laneEnds.get(other.lane) ?? 0, other.endMinute));
    }
    let lane = 0;
    while ((laneEnds.get(lane) ?? -1) > block.startMinute) {
      lane += 1;
    }
    group.push({ ...block, lane, lanes: 1 });
  }
  closeGroup();
  return result;
}

/** A free interval of a day column, in the doctor's wall-clock minutes (for the shaded background). */
export interface PlacedInterval {
  column: number;
  startMinute: number;
  endMinute: number;
}

/**
 * Free slots merged into continuous shaded intervals per day column (slots that touch join).
 */
export function placeFreeIntervals(
  slots: readonly TimedItem[],
  days: readonly string[],
  timeZone: string,
): PlacedInterval[] {
  const blocks = placeBlocks(slots, days, timeZone)
    .map(({ column, startMinute, endMinute }) => ({ column, startMinute, endMinute }))
    .sort((a, b) => a.column - b.column || a.startMinute - b.startMinute);
  const merged: PlacedInterval[] = [];
  for (const block of blocks) {
    const last = merged.at(-1);
    if (last && last.column === block.column && block.startMinute <= last.endMinute) {
      last.endMinute = Math.max(last.endMinute, block.endMinute);
    } else {
      merged.push({ ...block });
    }
  }
  return merged;
}

/**
 * The hours the grid spans: 07:00–20:00 by default, widened to whole hours around every block and
 * free interval shown.
 */
export function gridHours(
  intervals: readonly { startMinute: number; endMinute: number }[],
  defaults: { startHour: number; endHour: number } = { startHour: 7, endHour: 20 },
): { startHour: number; endHour: number } {
  let { startHour, endHour } = defaults;
  for (const interval of intervals) {
    startHour = Math.min(startHour, Math.floor(interval.startMinute / 60));
    endHour = Math.max(endHour, Math.ceil(interval.endMinute / 60));
  }
  return { startHour: Math.max(0, startHour), endHour: Math.min(24, Math.max(endHour, startHour + 1)) };
}

/** The instants that bound the visible days in the doctor's zone: [first midnight, the midnight after the last day). */
export function fetchWindow(days: readonly string[], timeZone: string): { from: string; to: string } {
  const first = days[0] ?? '1970-01-01';
  const last = days.at(-1) ?? first;
  return {
    from: zonedInstant(first, 0, timeZone).toISOString(),
    to: zonedInstant(addCalendarDays(last, 1), 0, timeZone).toISOString(),
  };
}
