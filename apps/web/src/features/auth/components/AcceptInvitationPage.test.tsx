import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
const token = 'invitation-token-0123456789abcdefghij';

describe('accepting an invitation', { timeout: 60_000 }, () => {
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
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in' } });
    api.routes['POST /api/v1/auth/invitations/accept'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['appointments.book.self'] }));
  });

  it('asks a patient registered by reception for the telemedicine consent too', async () => {
    api.routes[`GET /api/v1/auth/invitations/${token}`] = (_request, response) =>
      sendJson(response, 200, {
        email: 'tomas@example.test',
        name: 'Tomás Llamada',
        roles: [{ id: 'r-1', key: 'patient', name: { es: 'Paciente', en: 'Patient' } }],
      });
    const user = userEvent.setup();
    renderApp(`/accept-invitation?token=${token}`);
    await user.type(await screen.findByTestId('accept-invitation-password', {}, slow), 'Cl1nica-Segura-2026');
    await user.click(screen.getByTestId('accept-invitation-terms'));
    await user.click(screen.getByTestId('accept-invitation-submit'));
    expect(await screen.findByText('Debe aceptar para continuar.', {}, slow)).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/auth/invitations/accept')).toHaveLength(0);
    await user.click(screen.getByTestId('accept-invitation-consent'));
    await user.click(screen.getByTestId('accept-invitation-submit'));
    await waitFor(() => expect(api.requestsTo('POST /api/v1/auth/invitations/accept')).toHaveLength(1), slow);
    const [request] = api.requestsTo('POST /api/v1/auth/invitations/accept');
    expect(JSON.parse(request!.body.toString('utf8'))).toMatchObject({
      token,
      acceptTerms: true,
      acceptTelemedicineConsent: true,
    });
  });

  it('does not ask staff for the telemedicine consent', async () => {
    api.routes[`GET /api/v1/auth/invitations/${token}`] = (_request, response) =>
      sendJson(response, 200, {
        email: 'rosa@example.test',
        name: 'Rosa Recepción',
        roles: [{ id: 'r-2', key: 'staff', name: { es: 'Recepción', en: 'Reception' } }],
      });
    renderApp(`/accept-invitation?token=${token}`);
    await screen.findByTestId('accept-invitation-terms', {}, slow);
    expect(screen.queryByTestId('accept-invitation-consent')).toBeNull();
  });
});
