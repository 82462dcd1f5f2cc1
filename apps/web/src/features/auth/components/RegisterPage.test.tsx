import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { uiState } from '../../../lib/ui-state';
import { sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { RegisterPage } from './RegisterPage';

describe('registration against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/register` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
  });

  const renderPage = (language: 'es' | 'en' = 'es') => {
    const router = createMemoryRouter([{ path: '/register', element: <RegisterPage /> }], {
      initialEntries: ['/register'],
    });
    renderWithProviders(<RouterProvider router={router} />, { language });
  };

  async function fillValidForm() {
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('register-name'), 'Lucía Gómez');
    await user.type(screen.getByTestId('register-email'), 'lucia@correo.example');
    await user.type(screen.getByTestId('register-password'), 'tres palabras largas 2026');
    await user.type(screen.getByTestId('register-phone'), '+34 600 123 456');
    fireEvent.change(screen.getByTestId('register-date-of-birth'), { target: { value: '1988-04-12' } });
    await user.click(screen.getByTestId('register-accept-terms'));
    await user.click(screen.getByTestId('register-accept-consent'));
    return user;
  }

  it('puts the server validation issues beside their fields, translated, without a dialog', async () => {
    api.routes['POST /api/v1/auth/register'] = (_request, response) =>
      sendError(response, 400, 'VALIDATION_FAILED', {
        issues: [
          { location: 'body', path: 'email', code: 'custom', message: 'validation.email' },
          { location: 'body', path: 'phone', code: 'invalid_format', message: 'validation.phone' },
          { location: 'body', path: 'dateOfBirth', code: 'custom', message: 'Too small: expected date' },
        ],
      });
    renderPage();
    const user = await fillValidForm();
    await user.click(screen.getByTestId('register-submit'));

    const email = screen.getByTestId('register-email');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBe('true'));
    const errorOf = (input: HTMLElement) =>
      document.getElementById(
        input
          .getAttribute('aria-describedby')
          ?.split(' ')
          .find((id) => id.endsWith('error')) ?? '',
      )?.textContent;
    expect(errorOf(email)).toBe('Escriba una dirección de correo electrónico válida.');
    expect(errorOf(screen.getByTestId('register-phone'))).toMatch(/^Escriba un teléfono válido/);
    expect(errorOf(screen.getByTestId('register-date-of-birth'))).toBe('Este valor no es válido.');
    expect(screen.getByTestId('register-name').getAttribute('aria-invalid')).not.toBe('true');
    expect(uiState.getState().alert).toBeNull();
    expect(screen.queryByTestId('register-error')).toBeNull();
  });

  it('shows a 422 PASSWORD_TOO_WEAK problem on the password field', async () => {
    api.routes['POST /api/v1/auth/register'] = (_request, response) =>
      sendError(response, 422, 'PASSWORD_TOO_WEAK', { problems: ['tooCommon'] });
    renderPage('en');
    const user = await fillValidForm();
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('It is a very common password that is easy to guess.')).toBeTruthy();
    const password = screen.getByTestId('register-password');
    expect(
      document.getElementById(password.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent,
    ).toBe('It is a very common password that is easy to guess.');
  });

  it('checks the form with the shared schema before sending anything', async () => {
    renderPage();
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByTestId('register-name'), 'L');
    await user.type(screen.getByTestId('register-password'), 'lucia12345');
    await user.type(screen.getByTestId('register-email'), 'lucia@correo.example');
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('El nombre debe tener al menos 2 caracteres.')).toBeTruthy();
    expect(screen.getAllByText('Debe aceptar para continuar.')).toHaveLength(2);
    expect(
      screen.getByText('No debe contener su nombre ni su correo electrónico.', {
        selector: '.mantine-InputWrapper-error',
      }),
    ).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/auth/register')).toHaveLength(0);
  });

  it("refuses a name with an invisible text-direction control before sending, in the person's language", async () => {
    renderPage();
    const user = await fillValidForm();
    await user.type(screen.getByTestId('register-name'), '\u202Ezeré');
    await user.click(screen.getByTestId('register-submit'));
    expect(
      await screen.findByText(
        'Quite los caracteres invisibles de dirección del texto: pueden hacer que un nombre se lea distinto de lo que es.',
      ),
    ).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/auth/register')).toHaveLength(0);
  });

  it('sends the request of the contract and then says to check the email', async () => {
    api.routes['POST /api/v1/auth/register'] = (_request, response) => {
      response.writeHead(202, { 'Content-Type': 'application/json' }).end('{"status":"verification_sent"}');
    };
    renderPage();
    const user = await fillValidForm();
    expect(screen.getByTestId<HTMLInputElement>('register-language').value).toBe('es');
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByTestId('register-check-email')).toBeTruthy();
    expect(screen.getByTestId('register-check-email-address').textContent).toBe('lucia@correo.example');
    const body = JSON.parse(api.requestsTo('POST /api/v1/auth/register')[0]!.body.toString());
    expect(body).toEqual({
      name: 'Lucía Gómez',
      email: 'lucia@correo.example',
      password: 'tres palabras largas 2026',
      phone: '+34 600 123 456',
      dateOfBirth: '1988-04-12',
      language: 'es',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      acceptTerms: true,
      acceptTelemedicineConsent: true,
    });
  });
});
