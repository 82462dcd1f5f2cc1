import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/sign-in.js';
import { settle } from './support/settle.js';

let server: RunningServer;
let browser: BrowserHandle;
let adminApi: ApiSession;

const sections = ['clinic', 'sessions', 'security', 'booking', 'uploads', 'video'] as const;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  adminApi = new ApiSession(server.baseUrl);
  await adminApi.request('GET', '/config');
  await adminApi.signIn('admin@example.com');
  // One email in the outbox (stored: no mail server here), for the outbox screenshots.
  const visitor = new ApiSession(server.baseUrl);
  await visitor.request('GET', '/config');
  await visitor.request('POST', '/auth/password/forgot', { email: 'paciente2@example.com' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * A page in a fresh context. With `lang`, the interface language is the one "chosen with the
 * switcher in this browser session", so it wins over the account's saved language at sign-in.
 */
const pathOf = (page: Page) => new URL(page.url()).pathname;

/** Lets the charts finish their entry animation before a screenshot. */

describe('clinic administration in the browser', () => {
  it('settings are saved per section, persist after a reload and leave audit rows; viewing the log is audited', async () => {
    const stamp = Date.now();
    const clinicName = `Clínica Prueba ${stamp}`;
    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, 'admin@example.com');

    await page.goto(`${server.baseUrl}/admin/settings`);
    const name = page.getByTestId('settings-clinic-name');
    await name.fill(clinicName);
    await page.getByTestId('settings-clinic-save').click();
    await page.getByTestId('settings-clinic-saved').waitFor();
    // The header follows the public configuration.
    await expect.poll(() => page.getByTestId('admin-clinic-name').textContent()).toBe(clinicName);

    await page.getByTestId('settings-tab-sessions').click();
    await expect.poll(() => new URL(page.url()).search).toBe('?section=sessions');
    const staff = page.getByTestId('settings-idle-staff');
    await staff.fill('45');
    await page.getByTestId('settings-sessions-save').click();
    await page.getByTestId('settings-sessions-saved').waitFor();

    // A reload reads both back from the server.
    await page.reload();
    await page.getByTestId('settings-sessions').waitFor();
    await expect.poll(() => page.getByTestId('settings-idle-staff').inputValue()).toMatch(/^45\b/);
    await page.getByTestId('settings-tab-clinic').click();
    await expect.poll(() => page.getByTestId('settings-clinic-name').inputValue()).toBe(clinicName);
    const settings = await adminApi.request<{
      clinic: { name: string };
      sessions: { idleMinutesStaff: number };
    }>('GET', '/settings');
    expect(settings.body.clinic.name).toBe(clinicName);
    expect(settings.body.sessions.idleMinutesStaff).toBe(45);

    // The audit log has the changes (newest first), filtered from the address.
    await page.goto(`${server.baseUrl}/admin/audit?action=settings.updated`);
    const rows = page.getByTestId('list-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('audit-filter-action').inputValue()).toBe('settings.updated');
    // Each row names the action in words; its code stays in the row's data only (people do not read codes).
    const actions = await page.getByTestId('audit-row-action').allTextContents();
    expect(new Set(actions)).toEqual(new Set(['Configuración de la clínica modificada']));
    const codes = await page
      .getByTestId('audit-row-action')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-action')));
    expect(new Set(codes)).toEqual(new Set(['settings.updated']));
    await rows.first().getByTestId('list-row-link').click();
    const details = page.getByTestId('audit-details-json');
    await details.waitFor();
    expect(await details.textContent()).toContain('45');
    expect(await page.getByTestId('audit-details-actor').textContent()).toContain('admin@example.com');
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.has('event')).toBe(false);

    // Every view of the log is itself audited: a later load shows the earlier views.
    await page.goto(`${server.baseUrl}/admin/audit?action=audit.viewed`);
    await expect.poll(() => page.getByTestId('list-row').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('audit-row-action').first().textContent()).toBe(
      'Registro de auditoría consultado',
    );
    await page.context().close();
  });

  it('the dashboard shows the demo clinic and the global search finds patients for an admin', async () => {
    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, 'admin@example.com');
    await page.goto(`${server.baseUrl}/admin?range=90`);
    const appointments = page.getByTestId('dashboard-stat-appointments').getByTestId('dashboard-stat-value');
    await appointments.waitFor();
    expect(Number((await appointments.textContent())?.replace(/\D/g, ''))).toBeGreaterThan(0);
    expect(await page.getByTestId('dashboard-appointments-empty').count()).toBe(0);
    expect(await page.getByTestId('dashboard-doctors-empty').count()).toBe(0);
    expect(
      await page.locator('[data-testid="dashboard-chart-appointments"] svg .recharts-bar-rectangle').count(),
    ).toBeGreaterThan(0);

    const search = page.waitForResponse((response) => response.url().includes('/api/v1/search?q=paciente'));
    await page.getByTestId('global-search').fill('paciente');
    const answer = (await (await search).json()) as Record<string, unknown[] | undefined>;
    expect(answer.users?.length ?? 0).toBeGreaterThan(0);
    await page.getByTestId('global-search-group-users').waitFor();
    expect(await page.getByTestId('global-search-option').count()).toBeGreaterThan(0);
    // Enter opens the selected (first) hit: a user's page.
    await page.keyboard.press('Enter');
    await expect.poll(() => pathOf(page)).toMatch(/^\/admin\/users\/[^/]+$/);
    await page.context().close();
  });

  it('a patient has no clinic search in the portal, and the search API gives a patient no Users group', async () => {
    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, 'paciente1@example.com');
    expect(pathOf(page)).toMatch(/^\/portal/);
    await page.getByTestId('portal-home').waitFor();
    expect(await page.getByTestId('global-search').count()).toBe(0);
    // The endpoint still answers a patient (the staff frame's search is the only caller), without users.
    const response = await page.request.get(`${server.baseUrl}/api/v1/search?q=paciente`);
    expect(response.status()).toBe(200);
    const answer = (await response.json()) as Record<string, unknown>;
    expect(answer).not.toHaveProperty('users');
    await page.context().close();
  });

  it.each([
    ['es', 'desktop'],
    ['es', 'phone'],
    ['en', 'desktop'],
    ['en', 'phone'],
  ] as const)('screenshots of the clinic screens (%s, %s)', async (lang, viewport) => {
    const page = await openPage(browser.browser, { lang, viewport });
    await signIn(page, server.baseUrl, 'admin@example.com');
    const shot = (name: string) => screenshot(page, `clinic-${name}-${lang}-${viewport}`);

    for (const section of sections) {
      await page.goto(`${server.baseUrl}/admin/settings${section === 'clinic' ? '' : `?section=${section}`}`);
      await page.getByTestId(`settings-${section}`).waitFor();
      if (section === 'security') {
        await page.getByTestId('settings-mfa-role-admin').waitFor();
      }
      if (section === 'video') {
        // A row being filled in (not saved), to show the row editor.
        await page.getByTestId('settings-ice-add').click();
        await page.getByTestId('settings-ice-urls').last().fill('turn:turn.clinica.example:3478');
        await page.keyboard.press('Enter');
        await page.getByTestId('settings-ice-username').last().fill('clinica');
        await page.getByTestId('settings-ice-credential').last().fill('s3creto');
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      await settle(page);
      await shot(`settings-${section}`);
    }

    await page.goto(`${server.baseUrl}/admin/audit`);
    await page.getByTestId('list-row').first().waitFor();
    await settle(page);
    await shot('audit');
    if (viewport === 'phone') {
      await page.getByTestId('audit-filters-toggle').click();
      await page.getByTestId('audit-filters').waitFor();
      await settle(page);
      await shot('audit-filters');
    }
    await page.goto(`${server.baseUrl}/admin/audit?action=settings.updated`);
    await page.getByTestId('list-row-link').first().click();
    await page.getByTestId('audit-details-json').waitFor();
    await settle(page);
    // The drawer covers the viewport: a viewport screenshot shows it as a person sees it.
    await page.screenshot({
      path: join(repoRoot, 'screenshots', `clinic-audit-details-${lang}-${viewport}.png`),
    });

    await page.goto(`${server.baseUrl}/admin?range=30`);
    await page.getByTestId('dashboard-stats').waitFor();
    await settle(page);
    await shot('dashboard');

    await page.goto(`${server.baseUrl}/admin/outbox?status=stored`);
    await page.getByTestId('outbox-filter-status').waitFor();
    await page.locator('[data-testid="outbox-row"], [data-testid="outbox-empty"]').first().waitFor();
    await shot('outbox-filter');

    await page.goto(`${server.baseUrl}/admin`);
    await page.getByTestId('dashboard-stats').waitFor();
    await page.getByTestId('global-search').fill('paciente');
    await page.getByTestId('global-search-option').first().waitFor();
    await settle(page);
    await shot('search');
    await page.context().close();
  });
});
