import { describe, expect, it } from 'vitest';
import {
  addDays,
  daysBetween,
  formatDay,
  formatWait,
  presetRange,
  readRange,
  todayIn,
} from './dashboard-range';

describe('dashboard ranges', () => {
  it('takes today in the clinic zone, not the browser one', () => {
    const lateEvening = new Date('2026-03-01T23:30:00Z');
    expect(todayIn('Europe/Madrid', lateEvening)).toBe('2026-03-02');
    expect(todayIn('America/Mexico_City', lateEvening)).toBe('2026-03-01');
    expect(todayIn('Not/AZone', lateEvening)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('counts whole days across months and leap years', () => {
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(daysBetween('2026-03-01', '2026-03-07')).toBe(7);
    expect(presetRange(7, '2026-03-02')).toEqual({ from: '2026-02-24', to: '2026-03-02' });
  });

  it('reads the range from the address, falling back to the last 30 days', () => {
    const today = '2026-03-31';
    expect(readRange(new URLSearchParams(''), today)).toEqual({ preset: 30, from: '2026-03-02', to: today });
    expect(readRange(new URLSearchParams('range=7'), today)).toEqual({
      preset: 7,
      from: '2026-03-25',
      to: today,
    });
    expect(readRange(new URLSearchParams('range=12'), today).preset).toBe(30);
    expect(readRange(new URLSearchParams('from=2026-01-01&to=2026-01-31'), today)).toEqual({
      preset: 'custom',
      from: '2026-01-01',
      to: '2026-01-31',
    });
    // Reversed, too long or malformed custom ranges are ignored.
    expect(readRange(new URLSearchParams('from=2026-02-01&to=2026-01-01'), today).preset).toBe(30);
    expect(readRange(new URLSearchParams('from=2024-01-01&to=2026-01-01'), today).preset).toBe(30);
    expect(readRange(new URLSearchParams('from=2026-1-1&to=2026-01-31'), today).preset).toBe(30);
  });

  it('formats days and waits for people', () => {
    expect(formatDay('2026-03-02', 'es')).toBe('2 mar');
    expect(formatDay('2026-03-02', 'en')).toBe('Mar 2');
    expect(formatWait(0)).toBe('0:00');
    expect(formatWait(125.4)).toBe('2:05');
    expect(formatWait(3725)).toBe('1:02:05');
  });
});
