import type { Language } from '@telemedicina/shared/i18n';

/** A stored language preference as the type the templates take (anything but English reads Spanish). */
export function languageOf(user: { language: string }): Language {
  return user.language === 'en' ? 'en' : 'es';
}
