import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat } from './intl-cache';

describe('shared Intl formatters', () => {
  it('builds one formatter per language and options and reuses it', () => {
    const first = dateTimeFormat('es', { dateStyle: 'full', timeZone: 'Europe/Madrid' });
    expect(dateTimeFormat('es', { dateStyle: 'full', timeZone: 'Europe/Madrid' })).toBe(first);
    expect(dateTimeFormat('en', { dateStyle: 'full', timeZone: 'Europe/Madrid' })).not.toBe(first);
    expect(dateTimeFormat('es', { dateStyle: 'full', timeZone: 'America/Bogota' })).not.toBe(first);
    expect(first.format(new Date('2030-03-04T09:00:00Z'))).toBe('lunes, 4 de marzo de 2030');
    expect(numberFormat('en', { style: 'unit', unit: 'minute' })).toBe(
      numberFormat('en', { style: 'unit', unit: 'minute' }),
    );
  });

  it('still refuses an unknown time zone, as the constructor does', () => {
    expect(() => dateTimeFormat('es', { timeZone: 'Mars/Olympus' })).toThrow(RangeError);
  });
});
