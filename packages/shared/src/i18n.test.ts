import { describe, expect, it } from 'vitest';
import { isLanguage, pickLanguage } from './i18n.js';

describe('pickLanguage', () => {
  it.each([
    ['es', 'es'],
    ['es-ES', 'es'],
    ['es-MX', 'es'],
    ['ES_ar', 'es'],
    ['en', 'en'],
    ['en-GB', 'en'],
    ['de', 'en'],
    ['fr-CA', 'en'],
    ['', 'en'],
    [undefined, 'en'],
    [null, 'en'],
  ])('%s → %s', (browser, expected) => {
    expect(pickLanguage(browser)).toBe(expected);
  });

  it('accepts only shipped languages', () => {
    expect(isLanguage('es')).toBe(true);
    expect(isLanguage('pt')).toBe(false);
    expect(isLanguage(3)).toBe(false);
  });
});
