import type { Language } from '@telemedicina/shared/i18n';
import type { ResourceKey } from 'i18next';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { PortalHomePage, PortalLayout } from '../features/portal';
import { prerenderedMarkup, prerenderI18n } from '../lib/prerender';
import { AppProviders, createQueryClient } from './AppProviders';

/**
 * The patient's home (`/portal`) as static HTML, rendered at build time (vite.config.ts,
 * `prerenderPages`) per language and sent by the server inside `#root` to a visitor with a session
 * cookie (page-hints.ts): the portal's frame (header, the four places, on a phone at the bottom of
 * the screen) and the home's heading and placeholder are drawn as soon as the HTML and its styles
 * arrive, instead of a splash until every script has downloaded and run. It knows nothing of the
 * person (no name, no account menu, no visits); the live page, rendered over it once the session is
 * known, fills them in where the placeholders stand. `inert` and without `data-testid` until then.
 */
export async function prerenderPortal(language: Language, resources: ResourceKey): Promise<string> {
  const i18n = await prerenderI18n(language, resources);
  const markup = prerenderedMarkup(
    renderToString(
      <AppProviders i18n={i18n} queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={['/portal']}>
          <Routes>
            <Route path="/portal" element={<PortalLayout />}>
              <Route index element={<PortalHomePage />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    ),
    language,
  );
  return `<div class="portal-prerender" data-prerendered="${language}" inert>${markup}</div>`;
}
