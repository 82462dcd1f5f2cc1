import { isLanguage, type Language } from '@telemedicina/shared/i18n';
import i18next, { type i18n as I18n, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Helpers of the pages the build renders to static HTML (features/auth/prerender.tsx,
 * app/prerender-home.tsx; vite.config.ts, `prerenderPages`).
 */

/** A translations instance of its own for one shipped language, ready to render with. */
export async function prerenderI18n(language: Language, resources: ResourceKey): Promise<I18n> {
  if (!isLanguage(language)) {
    throw new Error(`Not a shipped language: ${String(language)}`);
  }
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: language,
    resources: { [language]: { translation: resources } },
    fallbackLng: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return i18n;
}

/**
 * A server render made into a picture of the page for the server to send (the pre-rendered sign-in
 * screen and signed-in frame): without `data-testid` (tests wait for the live page), and with the
 * language switcher's options marked for `language`. A server render reads a zustand store's
 * initial state (useSyncExternalStore's server snapshot), whose language is the default, so the
 * switcher would come out with that one pressed whatever the page's language.
 */
export function prerenderedMarkup(markup: string, language: Language): string {
  return markup
    .replace(/ data-testid="[^"]*"/g, '')
    .replace(/<button[^>]* lang="(\w+)"[^>]*>/g, (tag, option: string) =>
      markLanguageOption(tag, option === language),
    );
}

function markLanguageOption(tag: string, isActive: boolean): string {
  const plain = tag.replace(/ data-active="[^"]*"/, '').replace(/ aria-pressed="[^"]*"/, '');
  return plain.replace(
    /^<button/,
    `<button${isActive ? ' data-active="true"' : ''} aria-pressed="${isActive}"`,
  );
}
