import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chooseLanguage } from '../lib/i18n';
import { sessionState } from '../lib/session-state';
import { uiState } from '../lib/ui-state';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../test/fake-api';
import { sendJson } from '../test/http-server';
import { currentPath, renderApp } from '../test/render-app';

const slow = { timeout: 10_000 };

describe('the session on the client, against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    api.routes['GET /api/v1/outbox'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 });
    api.routes['POST /api/v1/auth/logout'] = (_request, response) => response.writeHead(204).end();
  });

  const signedIn = (me = sampleMe()) => {
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
  };

  it('sends a signed-out visitor of the admin area to sign in, with the way back, without alerts or spinner', async () => {
    const loadingWhileAsked: number[] = [];
    api.routes['GET /api/v1/me'] = (_request, response) => {
      // The handler runs in the test's process: it sees whether the page turned the spinner on for /me.
      loadingWhileAsked.push(uiState.getState().loadingCount);
      sendError(response, 401, 'UNAUTHENTICATED');
    };
    const { router } = renderApp('/admin/outbox?page=2');
    expect(await screen.findByTestId('signin-page', {}, slow)).toBeTruthy();
    expect(currentPath(router)).toBe('/?returnTo=%2Fadmin%2Foutbox%3Fpage%3D2');
    expect(uiState.getState().alert).toBeNull();
    expect(loadingWhileAsked).toEqual([0]);
    expect(api.requestsTo('GET /api/v1/me')).toHaveLength(1);
    expect(api.requestsTo('GET /api/v1/outbox')).toHaveLength(0);
  });

  it('fills the permissions from /me and shows the navigation and user menu by them', async () => {
    signedIn(sampleMe({ permissions: ['outbox.read', 'audit.read'] }));
    renderApp('/admin');
    await screen.findByTestId('admin-dashboard', {}, slow);
    expect(uiState.getState().permissions).toEqual(['outbox.read', 'audit.read']);
    expect(screen.getAllByTestId(/^admin-nav-/).map((link) => link.getAttribute('data-testid'))).toEqual([
      'admin-nav-dashboard',
      'admin-nav-audit',
      'admin-nav-outbox',
      'admin-nav-profile',
    ]);
    expect(screen.getByTestId('user-menu-button').getAttribute('aria-label')).toBe('Menú de Ana Pérez');
    expect(screen.getByTestId('user-avatar').textContent).toBe('AP');
  });

  it('keeps a user who must enrol a second factor on the security screen, with a banner', async () => {
    signedIn(sampleMe({ session: { mfaEnrollmentRequired: true } }));
    const { router } = renderApp('/admin/outbox');
    expect(await screen.findByTestId('mfa-required-banner', {}, slow)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/profile/security'));
    expect(await screen.findByTestId('mfa-setup-start', {}, slow)).toBeTruthy();
    expect(screen.getAllByTestId(/^admin-nav-/).map((link) => link.getAttribute('data-testid'))).toEqual([
      'admin-nav-profile',
    ]);
    expect(screen.getAllByTestId(/^profile-tab-/).map((tab) => tab.getAttribute('data-testid'))).toEqual([
      'profile-tab-security',
    ]);
    expect(api.requestsTo('GET /api/v1/outbox')).toHaveLength(0);
  });

  it('a 401 SESSION_EXPIRED from any request signs out and returns to sign-in with a notice, not the dialog', async () => {
    signedIn();
    const { router } = renderApp('/admin');
    await screen.findByTestId('admin-dashboard', {}, slow);
    expect(sessionState.getState().isSignedIn).toBe(true);
    api.routes['GET /api/v1/outbox'] = (_request, response) => sendError(response, 401, 'SESSION_EXPIRED');
    await act(() => router.navigate('/admin/outbox'));
    expect(await screen.findByTestId('signin-notice', {}, slow)).toBeTruthy();
    expect(screen.getByTestId('signin-notice').getAttribute('data-reason')).toBe('expired');
    expect(currentPath(router)).toBe('/?returnTo=%2Fadmin%2Foutbox');
    expect(uiState.getState().alert).toBeNull();
    expect(uiState.getState().permissions).toEqual([]);
  });

  it('signs out from the user menu: server told, data cleared, back at the start without a return path', async () => {
    signedIn();
    const user = userEvent.setup();
    const { router } = renderApp('/admin/outbox');
    await screen.findByTestId('outbox-page', {}, slow);
    await user.click(screen.getByTestId('user-menu-button'));
    await user.click(await screen.findByTestId('user-menu-sign-out'));
    expect(await screen.findByTestId('signin-page', {}, slow)).toBeTruthy();
    expect(currentPath(router)).toBe('/');
    expect(api.requestsTo('POST /api/v1/auth/logout')).toHaveLength(1);
    expect(uiState.getState().permissions).toEqual([]);
    expect(screen.getByTestId('signin-notice').getAttribute('data-reason')).toBe('signedOut');
  });

  it("applies the account's language at sign-in, unless the person picked one in this browser session", async () => {
    signedIn(sampleMe({ user: { language: 'en' } }));
    const first = renderApp('/admin');
    await screen.findByTestId('admin-dashboard', {}, slow);
    await waitFor(() => expect(uiState.getState().language).toBe('en'));
    first.unmount();

    chooseLanguage('es');
    renderApp('/admin');
    await screen.findByTestId('admin-dashboard', {}, slow);
    expect(uiState.getState().language).toBe('es');
  });
});

describe('idle logout in the admin area', { timeout: 30_000 }, () => {
  let api: FakeApi;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    // A 5-second idle timeout: the warning shows 2.5 s before the end (half the timeout at most).
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ session: { idleTimeoutSeconds: 5 } }));
    api.routes['POST /api/v1/auth/logout'] = (_request, response) => response.writeHead(204).end();
  });

  it('warns with a countdown, and "Seguir conectado" pings the server and keeps the session', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin');
    await screen.findByTestId('admin-dashboard', {}, slow);
    const warning = await screen.findByTestId('idle-warning', {}, slow);
    expect(warning.textContent).toContain('¿Sigue ahí?');
    expect(screen.getByTestId('idle-warning-countdown').textContent).toMatch(
      /^Tiempo restante: [1-3] segundos?$/,
    );
    const pingsBefore = api.requestsTo('GET /api/v1/me').length;
    await user.click(screen.getByTestId('idle-warning-stay'));
    await waitFor(() => expect(screen.queryByTestId('idle-warning')).toBeNull());
    // The click is activity too and may close the warning before the ping reaches the server (seen
    // on a busy machine: the warning gone, the ping not yet counted): wait for the ping itself.
    await waitFor(() => expect(api.requestsTo('GET /api/v1/me').length).toBe(pingsBefore + 1));
    expect(router.state.location.pathname).toBe('/admin');
    expect(api.requestsTo('POST /api/v1/auth/logout')).toHaveLength(0);
  });

  it('signs out at zero and explains why on the sign-in page', async () => {
    const { router } = renderApp('/admin/components');
    await screen.findByTestId('idle-warning', {}, slow);
    const notice = await screen.findByTestId('signin-notice', {}, slow);
    expect(notice.getAttribute('data-reason')).toBe('idle');
    expect(notice.textContent).toBe(
      'Se cerró su sesión por inactividad. Vuelva a iniciar sesión para continuar.',
    );
    expect(currentPath(router)).toBe('/?returnTo=%2Fadmin%2Fcomponents');
    expect(api.requestsTo('POST /api/v1/auth/logout')).toHaveLength(1);
  });
});
