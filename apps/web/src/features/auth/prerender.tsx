import { isLanguage, type Language } from '@telemedicina/shared';
import i18next, { type ResourceKey } from 'i18next';
import { renderToString } from 'react-dom/server';
import { initReactI18next } from 'react-i18next';
import { SignInApp } from './start';

/**
 * The signed-out start page's first screen as static HTML, rendered at build time (vite.config.ts,
 * `prerenderSignIn`) for each language and sent by the server inside `#root` (page-hints.ts), so the
 * page is drawn as soon as the HTML and its styles arrive instead of after the scripts have
 * downloaded and run. It is a picture, not a live form: `main.tsx` renders the real screen over it
 * (same markup, so nothing moves). Until then it is `inert` (nothing in it can be focused or
 * typed into, so no input is lost) and carries no `data-testid` (tests wait for the live form).
 */
export async function prerenderSignIn(language: Language, resources: ResourceKey): Promise<string> {
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
  const markup = renderToString(
    <SignInApp i18n={i18n} onSignedIn={() => undefined} onNavigate={() => undefined} />,
  )
    .replace(/ data-testid="[^"]*"/g, '')
    .replace(/<button[^>]* lang="(\w+)"[^>]*>/g, (tag, option: string) =>
      markLanguageOption(tag, option === language),
    );
  return `<div class="signin-prerender" data-prerendered="${language}" inert>${markup}</div>`;
}

/**
 * The language switcher's options as the live screen marks them. A server render reads a zustand
 * store's initial state (useSyncExternalStore's server snapshot), whose language is the default,
 * so the switcher comes out with that one pressed whatever the page's language.
 */
function markLanguageOption(tag: string, isActive: boolean): string {
  const plain = tag.replace(/ data-active="[^"]*"/, '').replace(/ aria-pressed="[^"]*"/, '');
  return plain.replace(
    /^<button/,
    `<button${isActive ? ' data-active="true"' : ''} aria-pressed="${isActive}"`,
  );
}
