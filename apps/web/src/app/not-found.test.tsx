import { screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../test/fake-api';
import { sendJson } from '../test/http-server';
import { renderWithProviders } from '../test/render';
import { routes } from './routes';

const slow = { timeout: 20_000 };

function renderAt(path: string, language: 'es' | 'en' = 'es') {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  renderWithProviders(<RouterProvider router={router} />, { language });
  return router;
}

/** No dead ends: an unknown address keeps a signed-in person in their frame. */
describe('unknown addresses', { timeout: 30_000 }, () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 });
  });
  afterAll(async () => {
    await api.close();
  });
  const answerMe = (permissions: string[] | null) => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      permissions
        ? sendJson(response, 200, sampleMe({ permissions }))
        : sendError(response, 401, 'UNAUTHENTICATED');
  };

  it.each(['/admin/no-existe', '/esto/no/existe'])(
    'staff signed in at %s: the 404 inside the admin frame, with the way home',
    async (path) => {
      answerMe(['outbox.read', 'users.read']);
      renderAt(path);
      const page = await screen.findByTestId('not-found-page', {}, slow);
      expect(page.getAttribute('data-framed')).toBe('true');
      expect(screen.getByTestId('error-page-title').textContent).toBe('Sitio no encontrado');
      expect(await screen.findByTestId('admin-navigation', {}, slow)).toBeTruthy();
      const home = screen.getByTestId('not-found-home');
      expect(home.textContent).toBe('Ir al inicio');
      expect(home.getAttribute('href')).toBe('/admin');
      expect(screen.getByTestId('error-page-action').textContent).toBe('Ir a un sitio seguro');
    },
  );

  it('a patient signed in: the 404 inside the portal frame, home is the portal', async () => {
    answerMe(['doctors.read', 'appointments.book.self', 'appointments.read.own', 'records.read.own']);
    renderAt('/portal/no-existe', 'en');
    await screen.findByTestId('not-found-page', {}, slow);
    expect(await screen.findByTestId('portal-layout', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('admin-navigation')).toBeNull();
    const home = screen.getByTestId('not-found-home');
    expect(home.textContent).toBe('Go to my home page');
    expect(home.getAttribute('href')).toBe('/portal');
  });

  it('signed out: the specification page, without any frame', async () => {
    answerMe(null);
    renderAt('/admin/no-existe');
    const page = await screen.findByTestId('not-found-page', {}, slow);
    expect(page.getAttribute('data-framed')).toBeNull();
    expect(screen.queryByTestId('admin-navigation')).toBeNull();
    expect(screen.queryByTestId('not-found-home')).toBeNull();
  });
});
