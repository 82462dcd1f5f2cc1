import type { Language } from '@telemedicina/shared/i18n';
import { t } from '../../text/catalogue.js';
import { calendarDateIn } from '../settings/clinic-dates.js';

/**
 * Words a file name can do without: the prefix already says "consent", and the small words of a
 * title ("para la", "to the") only make the name longer.
 */
const fillerWords: Record<Language, ReadonlySet<string>> = {
  es: new Set([
    'consentimiento',
    'informado',
    'de',
    'del',
    'la',
    'las',
    'el',
    'los',
    'para',
    'por',
    'y',
    'a',
    'al',
    'en',
    'sus',
    'su',
    'un',
    'una',
  ]),
  en: new Set(['consent', 'informed', 'to', 'the', 'of', 'for', 'by', 'and', 'a', 'an', 'your', 'in', 'on']),
};

const maxSlugLength = 40;

/** The title as lowercase ASCII words joined by hyphens, without the filler, at most 40 characters. */
export function consentTitleSlug(title: string, language: Language): string {
  const words = title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !fillerWords[language].has(word));
  let slug = '';
  for (const word of words) {
    const next = slug === '' ? word : `${slug}-${word}`;
    if (next.length > maxSlugLength) {
      break;
    }
    slug = next;
  }
  return slug;
}

/**
 * The signed PDF's name in the patient's documents, in the language they signed in, e.g.
 * `consentimiento-atencion-telemedicina-v1-2026-11-28.pdf` (the date in the signer's zone).
 */
export function consentFileName(
  language: Language,
  title: string,
  version: number,
  signedAt: Date,
  timeZone: string,
): string {
  const slug = consentTitleSlug(title, language);
  const parts = [t(language, 'fileName.consent'), slug, `v${version}`, calendarDateIn(signedAt, timeZone)];
  return `${parts.filter((part) => part !== '').join('-')}.pdf`;
}
