import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage } from './support/sign-in.js';
import { afterInput } from './support/settle.js';
import { xssPayloads } from './support/xss-payloads.js';

let server: RunningServer;
let browser: BrowserHandle;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function closePage(page: Page): Promise<void> {
  await page.context().close();
}

const hooks = (page: Page) => page.waitForFunction(() => window.__telemedicinaTest !== undefined);

describe('root and languages', () => {
  it.each([
    ['es-ES', 'es', 'Ir a un sitio seguro'],
    ['es-MX', 'es', 'Ir a un sitio seguro'],
    ['en-US', 'en', 'Go to a safe place'],
    ['de-DE', 'en', 'Go to a safe place'],
  ])('browser language %s starts the app in %s', async (locale, lang, buttonText) => {
    const page = await openPage(browser.browser, { locale });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await expect.poll(() => page.title()).toBe('Telemedicina');
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe(lang);
    await expect.poll(() => page.getByTestId('error-page-action').textContent()).toBe(buttonText);
    await closePage(page);
  });

  it('switches language from the switcher, keeps the choice after a reload', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES' });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await expect.poll(() => page.getByTestId('error-page-title').textContent()).toBe('Sitio no encontrado');
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-option-en').click();
    await expect.poll(() => page.getByTestId('error-page-title').textContent()).toBe('Site not found');
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('en');
    await page.reload();
    await expect.poll(() => page.getByTestId('error-page-title').textContent()).toBe('Site not found');
    await closePage(page);
  });

  it('fetches translations from /assets/i18n/{lang}.json', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES' });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${server.baseUrl}/no-such-page`);
    await page.getByTestId('error-page-title').waitFor();
    expect(requested).toContain('/assets/i18n/es.json');
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-option-en').click();
    await expect.poll(() => requested.includes('/assets/i18n/en.json')).toBe(true);
    await closePage(page);
  });
});

describe('error pages', () => {
  it.each([
    ['/no-such-page', 'Sitio no encontrado', 'Ir a un sitio seguro'],
    ['/admin/does/not/exist/at/all', 'Sitio no encontrado', 'Ir a un sitio seguro'],
    ['/error-500', 'Error de servidor', 'Intentar de nuevo'],
  ])('%s shows "%s" and its button goes back one step', async (path, title, action) => {
    const page = await openPage(browser.browser, { locale: 'es-ES' });
    await page.goto(`${server.baseUrl}/register`);
    await page.goto(`${server.baseUrl}${path}`);
    await expect.poll(() => page.getByTestId('error-page-title').textContent()).toBe(title);
    await expect.poll(() => page.getByTestId('error-page-action').textContent()).toBe(action);
    await page.getByTestId('error-page-action').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/register');
    await closePage(page);
  });

  it('with no history to go back to, the button leads to the start page', async () => {
    // A window opened straight on the page has a history of one entry (a new Playwright page
    // would start with about:blank behind it).
    const opener = await openPage(browser.browser, { locale: 'es-ES' });
    await opener.goto(`${server.baseUrl}/no-such-page`);
    const [page] = await Promise.all([
      opener.context().waitForEvent('page'),
      opener.evaluate(() => window.open('/error-500', '_blank')),
    ]);
    await page.getByTestId('error-page-action').waitFor();
    expect(await page.evaluate(() => window.history.length)).toBe(1);
    await page.getByTestId('error-page-action').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await closePage(opener);
  });

  it.each([
    ['es-ES', 'es'],
    ['en-US', 'en'],
  ])('screenshots of the error pages (%s)', async (locale, lang) => {
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openPage(browser.browser, { locale, viewport });
      await page.goto(`${server.baseUrl}/no-such-page`);
      await page.getByTestId('error-page-title').waitFor();
      await screenshot(page, `shell-not-found-${lang}-${viewport}`);
      await page.goto(`${server.baseUrl}/error-500`);
      await page.getByTestId('error-page-title').waitFor();
      await screenshot(page, `shell-server-error-${lang}-${viewport}`);
      await closePage(page);
    }
  });
});

describe('message dialog', () => {
  it('opens for an error with its icon and HTML content, and cannot be dismissed by backdrop or Escape', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await hooks(page);
    const opened = await page.evaluate(() =>
      window.__telemedicinaTest!.publishAlert({
        type: 'error',
        content: '<p>No se pudo <strong>guardar</strong>.</p>',
      }),
    );
    expect(opened).toBe(true);
    const dialog = page.getByTestId('message-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('message-dialog-icon-error').count()).toBe(1);
    expect(await page.locator('[data-testid="message-dialog-content"] strong').textContent()).toBe('guardar');
    expect(await page.getByTestId('message-dialog-ok').textContent()).toBe('Aceptar');

    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    await afterInput(page);
    expect(await dialog.isVisible()).toBe(true);

    // Opens only if not already open: a second alert neither replaces nor reopens it.
    const second = await page.evaluate(() =>
      window.__telemedicinaTest!.publishAlert({ type: 'success', content: 'otra' }),
    );
    expect(second).toBe(false);
    expect(await page.getByTestId('message-dialog-icon-error').count()).toBe(1);
    await screenshot(page, 'shell-dialog-error-es-desktop');

    await page.getByTestId('message-dialog-ok').click();
    await dialog.waitFor({ state: 'detached' });
    await closePage(page);
  });

  it('shows the success icon, closes with its close button, and opens nothing for an empty alert', async () => {
    const page = await openPage(browser.browser, { locale: 'en-US', testHooks: true, viewport: 'phone' });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await hooks(page);
    for (const empty of [null, { type: 'error', content: '' }, { type: 'success', content: '   ' }]) {
      const opened = await page.evaluate(
        (alert) => window.__telemedicinaTest!.publishAlert(alert as never),
        empty,
      );
      expect(opened).toBe(false);
    }
    await afterInput(page);
    expect(await page.getByTestId('message-dialog').count()).toBe(0);

    await page.evaluate(() =>
      window.__telemedicinaTest!.publishAlert({
        type: 'success',
        content: 'The appointment was <em>saved</em>.',
      }),
    );
    await page.getByTestId('message-dialog').waitFor();
    expect(await page.getByTestId('message-dialog-icon-success').count()).toBe(1);
    expect(await page.getByTestId('message-dialog-ok').textContent()).toBe('OK');
    await screenshot(page, 'shell-dialog-success-en-phone');
    await page.getByTestId('message-dialog-close').click();
    await page.getByTestId('message-dialog').waitFor({ state: 'detached' });
    await closePage(page);
  });

  it(`executes none of ${xssPayloads.length} XSS payloads`, async () => {
    expect(xssPayloads.length).toBeGreaterThanOrEqual(30);
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    const jsDialogs: string[] = [];
    page.on('dialog', (dialog) => {
      jsDialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await hooks(page);
    for (const payload of xssPayloads) {
      await page.evaluate(
        (content) => window.__telemedicinaTest!.publishAlert({ type: 'error', content }),
        payload,
      );
      await page.getByTestId('message-dialog').waitFor();
      // Give event handlers, autofocus and loads a chance to fire, and click anything clickable.
      const link = page.locator('[data-testid="message-dialog-content"] #xss-link');
      if ((await link.count()) > 0) {
        await link
          .first()
          .click({ force: true, timeout: 10_000 })
          .catch(() => undefined);
      }
      // Whatever the content loads (images with broken sources fire onerror) has loaded or failed.
      await page.waitForFunction(() =>
        [...document.querySelectorAll('[data-testid="message-dialog-content"] img')].every(
          (image) => (image as HTMLImageElement).complete,
        ),
      );
      await afterInput(page);
      await page.getByTestId('message-dialog-ok').click();
      await page.getByTestId('message-dialog').waitFor({ state: 'detached' });
    }
    await afterInput(page);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(jsDialogs).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/no-such-page');
    await closePage(page);
  });
});

describe('spinner overlay and API client', () => {
  it('shows the spinner while a slow request is in flight and hides it after', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    // The request is held open until the spinner has been seen, then released: the test controls
    // how slow the request is, so the spinner's own appearance delay cannot race the machine.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let isHeld = false;
    await page.route('**/api/v1/health', async (route) => {
      isHeld = true;
      await released;
      await route.continue();
    });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await hooks(page);
    expect(await page.getByTestId('spinner-overlay').count()).toBe(0);
    const request = page.evaluate(() => window.__telemedicinaTest!.apiRequest('/health'));
    await page.getByTestId('spinner-overlay').waitFor({ state: 'visible' });
    expect(isHeld).toBe(true);
    await screenshot(page, 'shell-spinner-es-desktop');
    release();
    const result = await request;
    expect(result.ok).toBe(true);
    await page.getByTestId('spinner-overlay').waitFor({ state: 'hidden' });
    await closePage(page);
  });

  it('shows the spinner while the loading flag is on (phone, English)', async () => {
    const page = await openPage(browser.browser, { locale: 'en-US', testHooks: true, viewport: 'phone' });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await hooks(page);
    await page.evaluate(() => window.__telemedicinaTest!.setLoading(true));
    await page.getByTestId('spinner-overlay').waitFor({ state: 'visible' });
    await screenshot(page, 'shell-spinner-en-phone');
    await page.evaluate(() => window.__telemedicinaTest!.setLoading(false));
    await page.getByTestId('spinner-overlay').waitFor({ state: 'hidden' });
    await closePage(page);
  });

  it('sends X-XSRF-TOKEN from the cookie on unsafe requests; the server refuses one without it', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    await page.goto(`${server.baseUrl}/no-such-page`);
    await hooks(page);
    const cookies = await page.context().cookies();
    const xsrf = cookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.value).toMatch(/^[\w-]{20,}$/);

    const headers: Record<string, string>[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') {
        headers.push(request.headers());
      }
    });
    // Through the app's client: the header is added, so the XSRF check passes (the route itself does not exist).
    const viaClient = await page.evaluate(() =>
      window.__telemedicinaTest!.apiRequest('/health', { method: 'POST', body: {}, showSpinner: false }),
    );
    expect(headers[0]?.['x-xsrf-token']).toBe(xsrf?.value);
    expect(viaClient.status).not.toBe(403);

    // A bare fetch from the same page, with the cookie but without the header, is refused.
    const bare = await page.evaluate(async () => {
      const response = await fetch('/api/v1/health', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      return { status: response.status, body: (await response.json()) as { error: { code: string } } };
    });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('XSRF_TOKEN_INVALID');
    await closePage(page);
  });
});
