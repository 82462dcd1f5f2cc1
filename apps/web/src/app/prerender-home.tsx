import type { Language } from '@telemedicina/shared/i18n';
import type { ResourceKey } from 'i18next';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AdminLayout } from '../features/admin';
import { HomePage } from '../features/home';
import { prerenderedMarkup, prerenderI18n } from '../lib/prerender';
import { AppProviders, createQueryClient } from './AppProviders';

/**
 * The signed-in start page's first screen (`/admin`) as static HTML, rendered at build time
 * (vite.config.ts, `prerenderPages`) per language and sent by the server inside `#root` to a visitor
 * with a session cookie (page-hints.ts): the frame (header, navigation) and the page's heading are
 * drawn as soon as the HTML and its styles arrive, instead of a splash until every script has
 * downloaded and run. It knows nothing of the person: no name, no menu, no sections, no
 * appointments — the live page, which `main.tsx` renders over it once the session is known, adds
 * them around and below what is already there, so nothing drawn moves. Until then it is `inert`
 * (nothing in it can be focused or clicked) and carries no `data-testid` (tests wait for the live
 * page).
 */
export async function prerenderHome(language: Language, resources: ResourceKey): Promise<string> {
  const i18n = await prerenderI18n(language, resources);
  const markup = prerenderedMarkup(
    renderToString(
      <AppProviders i18n={i18n} queryClient={createQueryClient()}>
        <MemoryRouter initialEntries={['/admin']}>
          <Routes>
            <Route path="/admin" element={<AdminLayout isPreview />}>
              <Route index element={<HomePage links={[]} canBook={false} showAppointments={false} />} />
            </Route>
          </Routes>
        </MemoryRouter>
      </AppProviders>,
    ),
    language,
  );
  return `<div class="home-prerender" data-prerendered="${language}" inert>${markup}</div>`;
}
