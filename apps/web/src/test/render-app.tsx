import type { Language } from '@telemedicina/shared/i18n';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { routes } from '../app/routes';
import { renderWithProviders } from './render';

/** The whole application (routes, guard, session) at `path`, in memory. */
export function renderApp(path: string, language: Language = 'es') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const rendered = renderWithProviders(<RouterProvider router={router} />, { language });
  return { router, ...rendered };
}

/** Where the in-memory router is now: path plus query string. */
export function currentPath(router: ReturnType<typeof renderApp>['router']): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}
