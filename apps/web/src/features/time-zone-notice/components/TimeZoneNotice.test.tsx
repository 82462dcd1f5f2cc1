import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };

// The tests' device runs in UTC (vitest's TZ); the account is in Mexico City.
describe('the time-zone notice in the signed-in frame', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let accountZone: string;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    window.localStorage.clear();
    accountZone = 'America/Mexico_City';
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ user: { timeZone: accountZone } }));
    api.routes['PATCH /api/v1/me'] = (request, response) => {
      accountZone = (request.json() as { timeZone: string }).timeZone;
      sendJson(response, 200, sampleMe({ user: { timeZone: accountZone } }));
    };
  });

  it('says plainly, in words, which zone the device and the account are in (Spanish, usted)', async () => {
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('UTC');
    renderApp('/admin/profile');
    const notice = await screen.findByTestId('time-zone-notice', {}, slow);
    expect(notice.getAttribute('role')).toBe('region');
    expect(notice.textContent).toContain('Su dispositivo está en otra zona horaria');
    expect(notice.textContent).toContain('hora universal coordinada (UTC)');
    expect(notice.textContent).toContain('la zona horaria de su cuenta, hora de Ciudad de México');
    expect(notice.textContent).not.toContain('America/Mexico_City');
  });

  it('says it in English too', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ user: { timeZone: accountZone, language: 'en' } }));
    renderApp('/admin/profile', 'en');
    const notice = await screen.findByTestId('time-zone-notice', {}, slow);
    expect(notice.textContent).toContain("your account's time zone, Mexico City time");
  });

  it('switches the account to the device’s zone through the profile endpoint, then goes away', async () => {
    const user = userEvent.setup();
    renderApp('/admin/profile');
    await user.click(await screen.findByTestId('time-zone-notice-switch', {}, slow));
    await waitFor(() => expect(api.requestsTo('PATCH /api/v1/me')).toHaveLength(1));
    expect(api.requestsTo('PATCH /api/v1/me')[0]?.body.toString('utf8')).toBe('{"timeZone":"UTC"}');
    await waitFor(() => expect(screen.queryByTestId('time-zone-notice')).toBeNull());
  });

  it('once dismissed, stays away for this account and these zones; comes back for another zone', async () => {
    const user = userEvent.setup();
    renderApp('/admin/profile');
    await user.click(await screen.findByTestId('time-zone-notice-dismiss', {}, slow));
    expect(screen.queryByTestId('time-zone-notice')).toBeNull();
    cleanup();

    renderApp('/admin/profile');
    await screen.findByTestId('user-menu-button', {}, slow);
    expect(screen.queryByTestId('time-zone-notice')).toBeNull();
    cleanup();

    accountZone = 'America/Bogota';
    renderApp('/admin/profile');
    const notice = await screen.findByTestId('time-zone-notice', {}, slow);
    expect(notice.textContent).toContain('hora de Bogotá');
  });
});
