/** Languages the product ships, in the order they are offered. */
export const supportedLanguages = ['es', 'en'] as const;
export type Language = (typeof supportedLanguages)[number];
/** The specification's default language, used when the browser's is neither en nor es. */
export const defaultLanguage: Language = 'en';

/** True when `value` is one of the shipped languages. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (supportedLanguages as readonly string[]).includes(value);
}

/**
 * Picks the start language from the browser's language, as the specification
 * says: en or es when the browser's language is one of them (regional
 * variants such as es-MX count), otherwise the default, en.
 */
export function pickLanguage(browserLanguage: string | null | undefined): Language {
  const primary = (browserLanguage ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : defaultLanguage;
}
