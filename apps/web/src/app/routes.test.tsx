import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { uiState } from '../lib/ui-state';
import { sampleMe, startFakeApi, type FakeApi } from '../test/fake-api';
import { sendJson } from '../test/http-server';
import { renderWithProviders } from '../test/render';
import { routes } from './routes';

function renderAt(entries: string[], language: 'es' | 'en' = 'es') {
  const router = createMemoryRouter(routes, { initialEntries: entries, initialIndex: entries.length - 1 });
  renderWithProviders(<RouterProvider router={router} />, { language });
  return router;
}

describe('routes', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi();
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, sampleMe());
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('index.html titles the document "Telemedicina" and holds one root', () => {
    const html = readFileSync(join(import.meta.dirname, '../../index.html'), 'utf8');
    expect(html).toMatch(/<title>Telemedicina<\/title>/);
    expect(html.match(/id="root"/g)).toHaveLength(1);
  });

  it('shows "Sitio no encontrado" for an unknown path, with "Ir a un sitio seguro"', async () => {
    renderAt(['/esto/no/existe']);
    expect((await screen.findByTestId('error-page-title')).textContent).toBe('Sitio no encontrado');
    expect(screen.getByTestId('error-page-action').textContent).toBe('Ir a un sitio seguro');
    expect(screen.getByTestId('not-found-page')).toBeTruthy();
  });

  it('shows "Error de servidor" at error-500, with "Intentar de nuevo"', async () => {
    renderAt(['/error-500']);
    expect((await screen.findByTestId('error-page-title')).textContent).toBe('Error de servidor');
    expect(screen.getByTestId('error-page-action').textContent).toBe('Intentar de nuevo');
  });

  it('speaks English when English is active', async () => {
    renderAt(['/error-500'], 'en');
    expect((await screen.findByTestId('error-page-title')).textContent).toBe('Server error');
    expect(screen.getByTestId('error-page-action').textContent).toBe('Try again');
  });

  it('hosts the global message dialog and spinner beside the routed view', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderAt(['/error-500']);
    await screen.findByTestId('server-error-page');
    void act(() => void uiState.getState().publishAlert({ type: 'success', content: 'Hecho' }));
    expect(await screen.findByTestId('message-dialog')).toBeTruthy();
    void act(() => void uiState.getState().beginLoading());
    void act(() => vi.advanceTimersByTime(200));
    expect(screen.getByTestId('spinner-overlay')).toBeTruthy();
    vi.useRealTimers();
  });

  it('loads the authentication area on demand at the empty path and its other addresses', async () => {
    const router = renderAt(['/register']);
    expect(await screen.findByTestId('auth-layout', {}, { timeout: 20_000 })).toBeTruthy();
    expect(await screen.findByTestId('register-page')).toBeTruthy();
    for (const [path, testId] of [
      ['/forgot-password', 'forgot-password-page'],
      ['/reset-password', 'reset-password-invalid'],
      ['/verify-email', 'verify-email-invalid'],
      ['/accept-invitation', 'accept-invitation-invalid'],
    ] as const) {
      await act(() => router.navigate(path));
      expect(await screen.findByTestId(testId)).toBeTruthy();
    }
  });

  it('registers the component showcase in development only (a production build leaves it out)', async () => {
    const adminChildren = (list: typeof routes) =>
      (list[0]?.children?.find((route) => route.path === 'admin')?.children?.[0]?.children ?? []).map(
        (route) => route.path,
      );
    expect(adminChildren(routes)).toContain('components');
    vi.stubEnv('DEV', false);
    vi.resetModules();
    try {
      const production = (await import('./routes')).routes;
      expect(adminChildren(production)).toContain('profile');
      expect(adminChildren(production)).not.toContain('components');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('loads the admin area on demand for a signed-in user, with a 404 for unknown sections', async () => {
    const router = renderAt(['/admin']);
    expect(await screen.findByTestId('admin-dashboard', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByTestId('global-search')).toBeTruthy();
    await act(() => router.navigate('/admin/nothing-here'));
    expect((await screen.findByTestId('error-page-title')).textContent).toBe('Sitio no encontrado');
  });

  describe('the patient portal and the admin area', () => {
    const patientPermissions = [
      'doctors.read',
      'appointments.book.self',
      'appointments.read.own',
      'records.read.own',
    ];
    const answerMe = (permissions: string[]) => {
      api.routes['GET /api/v1/me'] = (_request, response) =>
        sendJson(response, 200, sampleMe({ permissions }));
    };
    beforeAll(() => {
      api.routes['GET /api/v1/appointments'] = (_request, response) =>
        sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 });
    });
    afterAll(() => {
      delete api.routes['GET /api/v1/appointments'];
      answerMe(['outbox.read', 'users.read']);
    });

    it("draws a patient's home in the portal's frame, without the staff's navigation or search", async () => {
      answerMe(patientPermissions);
      renderAt(['/portal']);
      expect(await screen.findByTestId('portal-home', {}, { timeout: 20_000 })).toBeTruthy();
      expect(screen.getByTestId('portal-layout')).toBeTruthy();
      expect(screen.queryByTestId('admin-navigation')).toBeNull();
      expect(screen.queryByTestId('global-search')).toBeNull();
      expect(await screen.findByTestId('portal-find-doctor')).toBeTruthy();
    });

    it('takes a patient who follows an old /admin link to the same page in the portal, query string kept', async () => {
      answerMe(patientPermissions);
      const router = renderAt(['/admin/appointments?status=cancelled&page=2']);
      await waitFor(() => expect(router.state.location.pathname).toBe('/portal/appointments'), {
        timeout: 20_000,
      });
      expect(router.state.location.search).toBe('?status=cancelled&page=2');
      expect(await screen.findByTestId('portal-layout')).toBeTruthy();
      await act(() => router.navigate('/admin'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/portal'));
      // A staff-only section has no portal page: the portal's home.
      await act(() => router.navigate('/admin/users'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/portal'));
    });

    it('takes staff who open a portal address to the same page in the admin area', async () => {
      answerMe(['doctors.read', 'appointments.read.any', 'appointments.book.any']);
      const router = renderAt(['/portal/doctors?q=ana']);
      await waitFor(() => expect(router.state.location.pathname).toBe('/admin/doctors'), { timeout: 20_000 });
      expect(router.state.location.search).toBe('?q=ana');
      expect(await screen.findByTestId('admin-navigation')).toBeTruthy();
      expect(screen.queryByTestId('portal-layout')).toBeNull();
    });
  });

  it('the error page button goes one step back in history', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('history', { length: 3, back: () => void router.navigate(-1) });
    const router = renderAt(['/error-500', '/esto-no']);
    await screen.findByTestId('not-found-page');
    await user.click(screen.getByTestId('error-page-action'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/error-500'));
    expect(await screen.findByTestId('server-error-page')).toBeTruthy();
  });

  it('the error page button goes to the start page when there is no history', async () => {
    const user = userEvent.setup();
    vi.stubGlobal('history', { length: 1, back: () => {} });
    const router = renderAt(['/error-500']);
    await screen.findByTestId('server-error-page');
    await user.click(screen.getByTestId('error-page-action'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
  });
});
