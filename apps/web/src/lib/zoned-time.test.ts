import { describe, expect, it } from 'vitest';
import {
  addCalendarDays,
  formatWallTime,
  isCalendarDate,
  isoWeekday,
  mondayOfWeek,
  wallClockOf,
  zonedInstant,
} from './zoned-time';

describe('zoned time', () => {
  it('reads the wall clock of an instant in a zone', () => {
    expect(wallClockOf('2026-11-23T16:00:00Z', 'America/Mexico_City')).toEqual({
      date: '2026-11-23',
      minutes: 10 * 60,
    });
    expect(wallClockOf('2026-11-23T23:30:00Z', 'Europe/Madrid')).toEqual({ date: '2026-11-24', minutes: 30 });
  });

  it('turns a wall-clock time in a zone into the instant', () => {
    expect(zonedInstant('2026-11-23', 10 * 60, 'America/Mexico_City').toISOString()).toBe(
      '2026-11-23T16:00:00.000Z',
    );
    expect(zonedInstant('2026-07-01', 9 * 60, 'Europe/Madrid').toISOString()).toBe(
      '2026-07-01T07:00:00.000Z',
    );
    expect(zonedInstant('2026-01-01', 9 * 60, 'Europe/Madrid').toISOString()).toBe(
      '2026-01-01T08:00:00.000Z',
    );
    expect(zonedInstant('2026-11-23', 1440, 'UTC').toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });

  it('moves a time in the spring gap forward and takes the first of a repeated autumn time', () => {
    // Madrid jumps from 02:00 to 03:00 on 29 March 2026: 02:30 does not exist → 03:30 CEST.
    expect(zonedInstant('2026-03-29', 150, 'Europe/Madrid').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October 2026: the first one (CEST, +02:00).
    expect(zonedInstant('2026-10-25', 150, 'Europe/Madrid').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    // Midnight of the day after a change uses the new offset.
    expect(zonedInstant('2026-03-30', 0, 'Europe/Madrid').toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('does calendar arithmetic on plain dates', () => {
    expect(addCalendarDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(isoWeekday('2026-11-22')).toBe(7);
    expect(isoWeekday('2026-11-23')).toBe(1);
    expect(mondayOfWeek('2026-11-22')).toBe('2026-11-16');
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-02-28')).toBe(true);
    expect(isCalendarDate('yesterday')).toBe(false);
    expect(formatWallTime(1440)).toBe('24:00');
    expect(formatWallTime(545)).toBe('09:05');
  });
});
