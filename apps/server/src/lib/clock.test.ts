import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatInstant, formatInstantWithZone, formatZoneName } from './clock.js';

// 22:00 UTC on 27 November 2026: 16:00 in Mexico City, 23:00 in Madrid. The tests' process runs in
// UTC; every zone here is explicit, as the server's must be.
const visit = new Date('2026-11-27T22:00:00.000Z');

describe('the server’s one clock', () => {
  it('writes an instant in the reader’s zone, as the web client does', () => {
    expect(formatInstant(visit, 'es', 'America/Mexico_City', 'time')).toBe('16:00');
    expect(formatInstant(visit, 'en', 'America/Mexico_City', 'time')).toBe('4:00 PM');
    expect(formatInstant(visit, 'es', 'Europe/Madrid', 'time')).toBe('23:00');
    expect(formatInstant(visit, 'es', 'America/Mexico_City', 'fullDateTime')).toBe(
      'viernes, 27 de noviembre de 2026, 16:00',
    );
  });

  it('names the zone in words in the reader’s language, never by its IANA id', () => {
    expect(formatInstantWithZone(visit, 'es', 'America/Mexico_City')).toBe(
      'viernes, 27 de noviembre de 2026, 16:00 (hora de Ciudad de México)',
    );
    expect(formatInstantWithZone(visit, 'en', 'America/Mexico_City')).toBe(
      'Friday, November 27, 2026 at 4:00 PM (Mexico City time)',
    );
    expect(formatInstantWithZone(visit, 'es', 'Europe/Madrid', 'longDateTime')).toBe(
      '27 de noviembre de 2026 a las 23:00 (hora de Madrid)',
    );
    expect(formatZoneName('America/New_York', 'es')).toBe('hora de Nueva York');
    expect(formatZoneName('UTC', 'en')).toBe('Coordinated Universal Time (UTC)');
  });

  it('falls back to UTC for an unknown zone and writes calendar dates as they are', () => {
    expect(formatInstant(visit, 'es', 'Not/AZone', 'time')).toBe('22:00');
    expect(formatCalendarDate('1980-02-29', 'es')).toBe('29 de febrero de 1980');
    expect(formatCalendarDate('nonsense', 'en')).toBe('nonsense');
  });
});
