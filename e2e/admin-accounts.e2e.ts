import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startSmtpCatcher, type SmtpCatcher } from './support/mail.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/sign-in.js';
import { settle } from './support/settle.js';

let server: RunningServer;
let mail: SmtpCatcher;
let browser: BrowserHandle;
let adminApi: ApiSession;

beforeAll(async () => {
  // The invitation link reaches the invitee by email (the outbox hides its secret).
  mail = await startSmtpCatcher();
  server = await startServer({ env: { SMTP_URL: mail.url } });
  browser = await launchBrowser();
  adminApi = new ApiSession(server.baseUrl);
  // The web client's first read hands out the XSRF cookie (health checks do not).
  await adminApi.request('GET', '/config');
  await adminApi.signIn('admin@example.com');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Opens a user's page from the users list, found through the section search box. */
async function openUser(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/admin/users`);
  await page.getByTestId('section-search').fill(email);
  const row = page.getByTestId('list-row').filter({ hasText: email });
  await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
  await row.getByTestId('list-row-link').click();
  await page.getByTestId('user-profile').waitFor();
}

describe('accounts administration in the browser', () => {
  it('role with chosen permissions → invitation → the invitee sees exactly those sections → disabling ends their session; the last admin stays', async () => {
    const stamp = Date.now();
    const roleKey = `gestion-${stamp}`;
    const roleName = `Gestión ${stamp}`;
    const email = `gestor.${stamp}@example.org`;

    // The administrator creates a role with users.manage and audit.read.
    const admin = await openPage(browser.browser);
    await signIn(admin, server.baseUrl, 'admin@example.com', { landsOn: /^\/admin/ });
    await admin.getByTestId('admin-nav-roles').click();
    await admin.getByTestId('roles-create').click();
    await admin.getByTestId('role-create-key').fill(roleKey);
    await admin.getByTestId('role-create-name-es').fill(roleName);
    await admin.getByTestId('role-create-name-en').fill(`Management ${stamp}`);
    await admin.getByTestId('role-create-submit').click();
    await expect.poll(() => pathOf(admin), { timeout: 10_000 }).toMatch(/^\/admin\/roles\/[^/]+$/);
    await admin.getByTestId('role-permission-users.manage').check();
    await admin.getByTestId('role-permission-audit.read').check();
    await admin.getByTestId('role-save').click();
    await admin.getByTestId('role-saved').waitFor();
    const saved = await adminApi.request<{ data: { key: string; permissions: string[] }[] }>(
      'GET',
      `/roles?q=${encodeURIComponent(roleKey)}`,
    );
    expect(saved.body.data.find((role) => role.key === roleKey)?.permissions.sort()).toEqual([
      'audit.read',
      'users.manage',
    ]);

    // … and invites a person with that role.
    const invitedAt = Date.now();
    await admin.getByTestId('admin-nav-users').click();
    await admin.getByTestId('users-invite').click();
    await admin.getByTestId('invite-email').fill(email);
    await admin.getByTestId('invite-name').fill('Gloria Gestora');
    await admin.getByTestId('invite-roles').click();
    await admin.getByRole('listbox').getByRole('option', { name: roleName }).click();
    await admin.keyboard.press('Escape');
    await admin.getByTestId('invite-submit').click();
    await expect
      .poll(() => admin.getByTestId('message-dialog').getAttribute('data-alert-type'))
      .toBe('success');
    await admin.getByTestId('message-dialog-ok').click();

    // The invitee accepts in another browser and lands in the workspace.
    const link = await mail.waitForLink(email, '/accept-invitation', { after: invitedAt - 1000 });
    const invitee = await openPage(browser.browser);
    await invitee.goto(link.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await invitee.getByTestId('accept-invitation-password').fill('Gestionar la clínica 2026');
    await invitee.getByTestId('accept-invitation-terms').check();
    await invitee.getByTestId('accept-invitation-submit').click();
    await expect.poll(() => pathOf(invitee), { timeout: 15_000 }).toMatch(/^\/admin/);

    // Exactly the sections the role allows.
    await invitee.getByTestId('admin-navigation').waitFor();
    await invitee.getByTestId('admin-nav-users').waitFor();
    await invitee.getByTestId('admin-nav-audit').waitFor();
    for (const hidden of ['roles', 'specialties', 'outbox', 'settings']) {
      expect(await invitee.getByTestId(`admin-nav-${hidden}`).count(), hidden).toBe(0);
    }
    await invitee.goto(`${server.baseUrl}/admin/roles`);
    await invitee.getByTestId('section-forbidden').waitFor();
    await invitee.goto(`${server.baseUrl}/admin/settings`);
    await invitee.getByTestId('section-forbidden').waitFor();

    // A user manager who is not an administrator cannot take the role from the last administrator.
    await openUser(invitee, 'admin@example.com');
    await invitee.getByTestId('user-role-admin').uncheck();
    await invitee.getByTestId('user-roles-save').click();
    await expect
      .poll(() => invitee.getByTestId('user-roles-error').getAttribute('data-code'))
      .toBe('LAST_ADMIN');

    // Nor can the administrator remove their own administrator role.
    await openUser(admin, 'admin@example.com');
    await admin.getByTestId('user-role-admin').uncheck();
    await admin.getByTestId('user-roles-save').click();
    await expect
      .poll(() => admin.getByTestId('user-roles-error').getAttribute('data-code'))
      .toBe('CANNOT_CHANGE_SELF');
    expect(await admin.getByTestId('user-roles-error').textContent()).toContain(
      'No puede quitarse a sí mismo',
    );
    const stillAdmin = await adminApi.request<{ roles: { key: string }[] }>('GET', '/me');
    expect(stillAdmin.body.roles.map((role) => role.key)).toContain('admin');

    // The administrator disables the invitee; the invitee's next action lands on the sign-in page.
    await openUser(admin, email);
    await admin.getByTestId('user-action-disable').click();
    await admin.getByTestId('user-action-dialog-confirm').click();
    await admin.getByTestId('user-action-done').waitFor();
    await expect
      .poll(() => admin.getByTestId('user-status').first().getAttribute('data-status'))
      .toBe('disabled');

    await invitee.getByTestId('admin-nav-users').click();
    await expect.poll(() => pathOf(invitee), { timeout: 15_000 }).toBe('/');
    await invitee.getByTestId('signin-email').waitFor();
    const refused = new ApiSession(server.baseUrl);
    await refused.request('GET', '/config');
    expect(
      (await refused.request('POST', '/auth/login', { email, password: 'Gestionar la clínica 2026' })).status,
    ).toBeGreaterThanOrEqual(400);

    await admin.context().close();
    await invitee.context().close();
  });
});

describe('accounts screens, looked at', () => {
  const cases = [
    { language: 'es', locale: 'es-ES', viewport: 'desktop' },
    { language: 'es', locale: 'es-ES', viewport: 'phone' },
    { language: 'en', locale: 'en-US', viewport: 'desktop' },
    { language: 'en', locale: 'en-US', viewport: 'phone' },
  ] as const;

  it.each(cases)(
    'users, roles and specialties in $language at $viewport width',
    async ({ language, locale, viewport }) => {
      // Screens follow the account's language once signed in.
      expect((await adminApi.request('PATCH', '/me', { language })).status).toBe(200);
      const page = await openPage(browser.browser, { locale, viewport });
      await signIn(page, server.baseUrl, 'admin@example.com', { landsOn: /^\/admin/ });
      await expect.poll(() => page.getAttribute('html', 'lang')).toBe(language);
      const name = (screen: string) => `admin-${screen}-${language}-${viewport}`;

      await page.goto(`${server.baseUrl}/admin/users`);
      await expect.poll(() => page.getByTestId('list-row').count(), { timeout: 10_000 }).toBeGreaterThan(3);
      await screenshot(page, name('users'));

      await page.getByTestId('users-invite').click();
      await page.getByTestId('invite-form').waitFor();
      await page.getByTestId('invite-email').fill('nuevo.medico@example.org');
      await page.getByTestId('invite-name').fill('Nuevo Médico');
      await page.getByTestId('invite-roles').click();
      await page.getByRole('listbox').getByRole('option').first().click();
      await page.keyboard.press('Escape');
      await settle(page);
      await screenshot(page, name('users-invite'));
      await page.getByTestId('invite-cancel').click();

      await openUser(page, 'medico1@example.com');
      await screenshot(page, name('user-detail'));

      await page.goto(`${server.baseUrl}/admin/roles`);
      await expect.poll(() => page.getByTestId('list-row').count(), { timeout: 10_000 }).toBeGreaterThan(3);
      await screenshot(page, name('roles'));
      await page.getByTestId('list-row').filter({ hasText: 'staff' }).getByTestId('list-row-link').click();
      await page.getByTestId('role-permissions').waitFor();
      await screenshot(page, name('role-editor'));

      await page.goto(`${server.baseUrl}/admin/specialties`);
      await expect.poll(() => page.getByTestId('list-row').count(), { timeout: 10_000 }).toBeGreaterThan(1);
      await screenshot(page, name('specialties'));
      await page.getByTestId('list-row-link').first().click();
      await page.getByTestId('specialty-form').waitFor();
      await settle(page);
      await screenshot(page, name('specialty-edit'));

      await page.context().close();
      expect((await adminApi.request('PATCH', '/me', { language: 'es' })).status).toBe(200);
    },
  );
});
