import { describe, expect, it } from 'vitest';
import { addDays, dateInZone, formatTime, mondayOf, weekDays, weekWindow, zonesDiffer } from './slot-time';

describe('slot picker time helpers', () => {
  it('walks weeks from Monday to Sunday', () => {
    // 2026-11-21 is a Saturday.
    expect(mondayOf('2026-11-21')).toBe('2026-11-16');
    expect(mondayOf('2026-11-16')).toBe('2026-11-16');
    expect(mondayOf('2026-11-22')).toBe('2026-11-16');
    expect(weekDays('2026-11-21', 0)).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(weekDays('2026-11-21', 1)[0]).toBe('2026-11-23');
    expect(weekDays('2026-12-30', 1)).toContain('2027-01-04');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
  });

  it('asks for a window wide enough for any zone', () => {
    expect(weekWindow(weekDays('2026-11-21', 0))).toEqual({
      from: '2026-11-15T00:00:00.000Z',
      to: '2026-11-24T00:00:00.000Z',
    });
  });

  it('reads dates and times in the given zone', () => {
    // 02:30 UTC on Tuesday is still Monday evening in Bogotá (UTC−5).
    expect(dateInZone('2026-11-17T02:30:00.000Z', 'America/Bogota')).toBe('2026-11-16');
    expect(dateInZone('2026-11-17T02:30:00.000Z', 'Europe/Madrid')).toBe('2026-11-17');
    expect(formatTime('2026-11-16T14:00:00.000Z', 'es', 'America/Bogota')).toBe('9:00');
    expect(formatTime('2026-11-16T14:00:00.000Z', 'es', 'Europe/Madrid')).toBe('15:00');
  });

  it('labels zones only when the wall clocks differ', () => {
    expect(zonesDiffer('Europe/Madrid', 'Europe/Madrid')).toBe(false);
    expect(zonesDiffer('Europe/Madrid', 'Europe/Paris')).toBe(false);
    expect(zonesDiffer('America/Bogota', 'Europe/Madrid')).toBe(true);
  });
});
