import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };
const recoveryCodes = Array.from({ length: 10 }, (_, index) => `k${index}x7q-9fz${index}m`);

describe('profile security against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let isMfaEnabled: boolean;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    isMfaEnabled = false;
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ user: { mfaEnabled: isMfaEnabled } }));
    api.routes['GET /api/v1/me/sessions'] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          {
            id: 's-phone',
            createdAt: '2026-03-01T08:00:00.000Z',
            lastSeenAt: '2026-03-02T17:45:00.000Z',
            ipAddress: '203.0.113.7',
            userAgent:
              'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
            isCurrent: false,
          },
          {
            id: 's-here',
            createdAt: '2026-03-03T08:00:00.000Z',
            lastSeenAt: '2026-03-03T09:30:00.000Z',
            ipAddress: '198.51.100.4',
            userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
            isCurrent: true,
          },
        ],
      });
    api.routes['POST /api/v1/me/mfa/setup'] = (_request, response) =>
      sendJson(response, 200, {
        otpauthUrl: 'otpauth://totp/Telemedicina:ana@clinica.example?secret=JBSWY3DPEHPK3PXPJBSWY3DP',
        qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      });
    api.routes['POST /api/v1/me/mfa/enable'] = (request, response) => {
      if ((request.json() as { code: string }).code !== '123456') {
        sendError(response, 400, 'MFA_INVALID');
        return;
      }
      isMfaEnabled = true;
      sendJson(response, 200, { recoveryCodes });
    };
  });

  it('sets up the second factor and shows the recovery codes exactly once', async () => {
    const user = userEvent.setup();
    renderApp('/admin/profile/security');
    await user.click(await screen.findByTestId('mfa-setup-start', {}, slow));

    expect((await screen.findByTestId('mfa-setup-qr')).getAttribute('src')).toBe(
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(screen.getByTestId('mfa-setup-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');

    await user.type(screen.getByTestId('mfa-setup-code'), '000000');
    await user.click(screen.getByTestId('mfa-setup-confirm'));
    expect(await screen.findByText(/El código no es correcto/)).toBeTruthy();
    await user.clear(screen.getByTestId('mfa-setup-code'));
    await user.type(screen.getByTestId('mfa-setup-code'), '123456');
    await user.click(screen.getByTestId('mfa-setup-confirm'));

    const list = await screen.findByTestId('mfa-recovery-codes');
    expect(
      within(list)
        .getAllByTestId('mfa-recovery-code')
        .map((item) => item.textContent),
    ).toEqual(recoveryCodes);
    // The user is asked for again at once (the session's restrictions may change), and the codes stay.
    await waitFor(() => expect(screen.getByTestId('mfa-status').getAttribute('data-enabled')).toBe('true'));
    expect(screen.getByTestId('mfa-recovery-codes')).toBeTruthy();

    const done = screen.getByTestId('mfa-recovery-done');
    expect(done.hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByTestId('mfa-recovery-saved'));
    expect(done.hasAttribute('disabled')).toBe(false);
    await user.click(done);

    await waitFor(() => expect(screen.queryByTestId('mfa-recovery-codes')).toBeNull());
    for (const code of recoveryCodes) {
      expect(screen.queryByText(code)).toBeNull();
    }
    expect(document.body.innerHTML).not.toContain(recoveryCodes[0]);
    expect(screen.getByTestId('mfa-regenerate-start')).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/me/mfa/enable')).toHaveLength(2);
  });

  it('lists the active sessions readably in the user time zone and signs out the others', async () => {
    const user = userEvent.setup();
    api.routes['DELETE /api/v1/me/sessions/s-phone'] = (_request, response) => response.writeHead(204).end();
    api.routes['POST /api/v1/me/sessions/revoke-others'] = (_request, response) =>
      response.writeHead(204).end();
    renderApp('/admin/profile/security');
    await screen.findByTestId('sessions-list', {}, slow);
    const rows = screen.getAllByTestId('session-row');
    expect(rows.map((row) => row.getAttribute('data-current'))).toEqual(['true', 'false']);
    expect(within(rows[0]!).getByTestId('session-device').textContent).toBe('Firefox 133 en Linux');
    expect(within(rows[0]!).getByTestId('session-current').textContent).toBe('Este dispositivo');
    expect(within(rows[0]!).queryByTestId('session-revoke')).toBeNull();
    expect(within(rows[1]!).getByTestId('session-device').textContent).toBe('Safari 18 en iOS');
    // 17:45 UTC is 18:45 in Madrid (the user's zone) on 2 March.
    expect(rows[1]!.textContent).toContain('203.0.113.7');
    expect(rows[1]!.textContent).toMatch(/2 mar 2026.*18:45/);

    await user.click(within(rows[1]!).getByTestId('session-revoke'));
    await waitFor(() => expect(api.requestsTo('DELETE /api/v1/me/sessions/s-phone')).toHaveLength(1));
    await user.click(screen.getByTestId('sessions-revoke-others'));
    await waitFor(() => expect(api.requestsTo('POST /api/v1/me/sessions/revoke-others')).toHaveLength(1));
  });

  it('maps a wrong current password to its field', async () => {
    const user = userEvent.setup();
    api.routes['POST /api/v1/me/password'] = (_request, response) =>
      sendError(response, 400, 'PASSWORD_INCORRECT');
    renderApp('/admin/profile/security');
    await user.type(await screen.findByTestId('profile-password-current', {}, slow), 'la de antes 1234');
    await user.type(screen.getByTestId('profile-password-new'), 'una nueva frase 2026');
    await user.click(screen.getByTestId('profile-password-submit'));
    expect(await screen.findByText('La contraseña actual no es correcta.')).toBeTruthy();
    expect(JSON.parse(api.requestsTo('POST /api/v1/me/password')[0]!.body.toString())).toEqual({
      currentPassword: 'la de antes 1234',
      newPassword: 'una nueva frase 2026',
    });
  });
});
