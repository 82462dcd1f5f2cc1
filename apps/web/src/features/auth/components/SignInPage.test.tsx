import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uiState } from '../../../lib/ui-state';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };

describe('sign-in page against a real HTTP server', { timeout: 30_000 }, () => {
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
    api.routes['GET /api/v1/me'] = (_request, response) => sendError(response, 401, 'UNAUTHENTICATED');
  });

  async function fillCredentials(email = 'ana@clinica.example', password = 'Una frase larga 2026') {
    const user = userEvent.setup();
    await user.type(await screen.findByTestId('signin-email', {}, slow), email);
    await user.type(screen.getByTestId('signin-password'), password);
    await user.click(screen.getByTestId('signin-submit'));
    return user;
  }

  it('asks for the second factor after 401 MFA_REQUIRED and resends the credentials with the code', async () => {
    api.routes['POST /api/v1/auth/login'] = (request, response) => {
      const body = request.json() as { totpCode?: string };
      if (!body.totpCode) {
        sendError(response, 401, 'MFA_REQUIRED');
      } else if (body.totpCode === '123456') {
        sendJson(response, 200, sampleMe());
      } else {
        sendError(response, 401, 'MFA_INVALID');
      }
    };
    const { router } = renderApp('/');
    const user = await fillCredentials('  Ana@Clinica.Example ');

    const code = await screen.findByTestId('signin-mfa-code');
    expect(screen.getByTestId('signin-mfa-step').textContent).toContain('Verificación en dos pasos');
    await user.type(code, '000000');
    await user.click(screen.getByTestId('signin-mfa-submit'));
    expect(await screen.findByText(/El código no es correcto/)).toBeTruthy();

    await user.clear(screen.getByTestId('signin-mfa-code'));
    await user.type(screen.getByTestId('signin-mfa-code'), '123456');
    await user.click(screen.getByTestId('signin-mfa-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), slow);

    const logins = api
      .requestsTo('POST /api/v1/auth/login')
      .map((request) => JSON.parse(request.body.toString()) as unknown);
    expect(logins).toEqual([
      { email: 'ana@clinica.example', password: 'Una frase larga 2026' },
      { email: 'ana@clinica.example', password: 'Una frase larga 2026', totpCode: '000000' },
      { email: 'ana@clinica.example', password: 'Una frase larga 2026', totpCode: '123456' },
    ]);
    expect(uiState.getState().permissions).toEqual(['outbox.read', 'users.read']);
    expect(uiState.getState().alert).toBeNull();
  });

  it('accepts a recovery code instead of the authenticator code', async () => {
    api.routes['POST /api/v1/auth/login'] = (request, response) => {
      const body = request.json() as { recoveryCode?: string };
      if (body.recoveryCode === 'abcde-12345') {
        sendJson(response, 200, sampleMe());
      } else {
        sendError(response, 401, 'MFA_REQUIRED');
      }
    };
    const { router } = renderApp('/');
    const user = await fillCredentials();
    await screen.findByTestId('signin-mfa-code');
    await user.click(screen.getByTestId('signin-mfa-switch'));
    await user.type(screen.getByTestId('signin-recovery-code'), 'abcde-12345');
    await user.click(screen.getByTestId('signin-mfa-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), slow);
    expect(JSON.parse(api.requestsTo('POST /api/v1/auth/login').at(-1)!.body.toString())).toMatchObject({
      recoveryCode: 'abcde-12345',
    });
  });

  it('says for how many minutes a locked account must wait', async () => {
    api.routes['POST /api/v1/auth/login'] = (_request, response) =>
      sendError(response, 423, 'ACCOUNT_LOCKED', { retryAfterSeconds: 14 * 60 + 5 });
    renderApp('/');
    await fillCredentials();
    const error = await screen.findByTestId('signin-error');
    expect(error.getAttribute('data-code')).toBe('ACCOUNT_LOCKED');
    expect(error.textContent).toContain('dentro de 15 minutos');
    expect(uiState.getState().alert).toBeNull();
  });

  it('says how long to wait when rate limited, from Retry-After', async () => {
    api.routes['POST /api/v1/auth/login'] = (_request, response) =>
      sendError(response, 429, 'RATE_LIMITED', undefined, { 'Retry-After': '42' });
    renderApp('/', 'en');
    await fillCredentials();
    expect((await screen.findByTestId('signin-error')).textContent).toContain('Wait 42 seconds');
  });

  it('shows wrong credentials without a dialog and empties the password', async () => {
    api.routes['POST /api/v1/auth/login'] = (_request, response) =>
      sendError(response, 401, 'INVALID_CREDENTIALS');
    renderApp('/');
    await fillCredentials();
    expect((await screen.findByTestId('signin-error')).textContent).toBe(
      'El correo electrónico o la contraseña no son correctos.',
    );
    expect(screen.getByTestId<HTMLInputElement>('signin-password').value).toBe('');
    expect(uiState.getState().alert).toBeNull();
  });

  it('offers to resend the verification email when the address is not verified', async () => {
    api.routes['POST /api/v1/auth/login'] = (_request, response) =>
      sendError(response, 403, 'EMAIL_NOT_VERIFIED');
    api.routes['POST /api/v1/auth/verify-email/resend'] = (_request, response) =>
      response.writeHead(202).end();
    renderApp('/');
    const user = await fillCredentials('nuevo@clinica.example');
    await user.click(await screen.findByTestId('signin-resend-verification'));
    expect(await screen.findByTestId('signin-resend-sent')).toBeTruthy();
    expect(JSON.parse(api.requestsTo('POST /api/v1/auth/verify-email/resend')[0]!.body.toString())).toEqual({
      email: 'nuevo@clinica.example',
    });
  });

  it('validates on the client before asking the server', async () => {
    renderApp('/');
    await fillCredentials('no-es-un-correo', 'x');
    expect(await screen.findByText('Escriba una dirección de correo electrónico válida.')).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/auth/login')).toHaveLength(0);
  });

  it.each([
    ['/?returnTo=%2Fadmin%2Foutbox%3Fpage%3D2', '/admin/outbox?page=2'],
    ['/?returnTo=%2F%2Fevil.com', '/admin'],
    ['/?returnTo=https%3A%2F%2Fevil.com%2Fadmin', '/admin'],
    ['/?returnTo=javascript%3Aalert(1)', '/admin'],
  ])('after signing in at %s goes to %s', async (start, target) => {
    api.routes['POST /api/v1/auth/login'] = (_request, response) => sendJson(response, 200, sampleMe());
    api.routes['GET /api/v1/outbox'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 });
    const { router } = renderApp(start);
    await fillCredentials();
    await waitFor(() => expect(currentPath(router)).toBe(target), slow);
  });

  it('a guarded deep link says why it asks to sign in, and signing in returns there', async () => {
    api.routes['POST /api/v1/auth/login'] = (_request, response) => sendJson(response, 200, sampleMe());
    api.routes['GET /api/v1/outbox'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 });
    const { router } = renderApp('/admin/outbox?page=2');
    const notice = await screen.findByTestId('signin-notice', {}, slow);
    expect(currentPath(router)).toBe('/?returnTo=%2Fadmin%2Foutbox%3Fpage%3D2');
    expect(notice.getAttribute('data-reason')).toBe('returnTo');
    expect(notice.textContent).toBe('Inicie sesión para ver esta página. Después le llevaremos a ella.');
    await fillCredentials();
    await waitFor(() => expect(currentPath(router)).toBe('/admin/outbox?page=2'), slow);
    expect(await screen.findByTestId('outbox-page', {}, slow)).toBeTruthy();
  });

  it('says nothing about a page when sign-in was opened directly, or with a return path it refuses', async () => {
    renderApp('/?returnTo=%2F%2Fevil.example');
    await screen.findByTestId('signin-page', {}, slow);
    expect(screen.queryByTestId('signin-notice')).toBeNull();
  });

  it('sends a signed-in visitor straight to the admin area', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, sampleMe());
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'), slow);
    expect(await screen.findByTestId('admin-dashboard', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('signin-page')).toBeNull();
  });
});
