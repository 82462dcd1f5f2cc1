import type { Language } from '@telemedicina/shared/i18n';
import type { ResourceKey } from 'i18next';
import { renderToString } from 'react-dom/server';
import { prerenderedMarkup, prerenderI18n } from '../../lib/prerender';
import { SignInApp } from './start';

/**
 * The signed-out start page's first screen as static HTML, rendered at build time (vite.config.ts,
 * `prerenderSignIn`) for each language and sent by the server inside `#root` (page-hints.ts), so the
 * page is drawn as soon as the HTML and its styles arrive instead of after the scripts have
 * downloaded and run. It is a picture, not a live form: `main.tsx` renders the real screen over it
 * (same markup, so nothing moves). Until then it is `inert` (nothing in it can be focused or
 * typed into, so no input is lost) and carries no `data-testid` (tests wait for the live form;
 * `prerenderedMarkup`).
 */
export async function prerenderSignIn(language: Language, resources: ResourceKey): Promise<string> {
  const i18n = await prerenderI18n(language, resources);
  const markup = prerenderedMarkup(
    renderToString(<SignInApp i18n={i18n} onSignedIn={() => undefined} onNavigate={() => undefined} />),
    language,
  );
  return `<div class="signin-prerender" data-prerendered="${language}" inert>${markup}</div>`;
}
