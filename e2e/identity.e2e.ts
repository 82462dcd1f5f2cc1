import type { Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, readLatestEmail } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startSmtpCatcher, type SmtpCatcher } from './support/mail.js';
import { startServer, type RunningServer } from './support/server.js';
import { demoPassword, openPage, submitSignIn } from './support/sign-in.js';
import { totp } from './support/totp.js';

let server: RunningServer;
let mail: SmtpCatcher;
let browser: BrowserHandle;
let admin: ApiSession;

beforeAll(async () => {
  // Short idle timeouts so the idle-logout journey takes a minute, not half an hour.
  // Links reach the person by email (the outbox hides their secrets): a mail server on loopback.
  mail = await startSmtpCatcher();
  server = await startServer({ env: { SESSION_IDLE_MINUTES_PATIENT: '1', SMTP_URL: mail.url } });
  browser = await launchBrowser();
  admin = new ApiSession(server.baseUrl);
  await admin.signIn('admin@example.com');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('identity journeys in the browser', () => {
  it('register → verification email → verify → sign in → the patient’s portal in the chosen language', async () => {
    const page = await openPage(browser.browser, { locale: 'en-US', testHooks: true });
    const email = `lucia.${Date.now()}@example.org`;
    const started = Date.now();
    await page.goto(`${server.baseUrl}/register`);
    await page.getByTestId('register-name').fill('Lucía Romero');
    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-password').fill('Un paseo por el río 2026');
    await expect.poll(() => page.getByTestId('password-strength').getAttribute('data-accepted')).toBe('true');
    await page.getByTestId('register-phone').fill('+34 600 123 456');
    await page.getByTestId('register-date-of-birth').fill('1990-05-17');
    await page.getByTestId('register-language').selectOption('es');
    await page.getByTestId('register-accept-terms').check();
    await page.getByTestId('register-accept-consent').check();
    await screenshot(page, 'identity-register-en-desktop');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('register-check-email').waitFor();

    const email1 = await readLatestEmail(admin, email, undefined, started - 1000);
    expect(email1.subject.length).toBeGreaterThan(0);
    // The account's language is Spanish: the email is in Spanish.
    expect(email1.text.toLowerCase()).toMatch(/correo|verifi|confirm/);
    const link = await mail.waitForLink(email, '/verify-email', { after: started - 1000 });
    await page.goto(link.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await page.getByTestId('verify-email-success').waitFor();
    await page.getByTestId('verify-email-signin').click();
    await submitSignIn(page, email, 'Un paseo por el río 2026');
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/portal');
    // Signed in, the account's language (es) applies.
    await expect.poll(() => page.getAttribute('html', 'lang')).toBe('es');
    await page.getByTestId('user-menu-button').waitFor();
    await screenshot(page, 'identity-admin-patient-es-desktop');
    await page.context().close();
  });

  it('reset password through the emailed link; the old password stops working', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    const started = Date.now();
    await page.goto(`${server.baseUrl}/forgot-password`);
    await page.getByTestId('forgot-password-email').fill('paciente2@example.com');
    await page.getByTestId('forgot-password-submit').click();
    await page.getByTestId('forgot-password-sent').waitFor();
    const link = await mail.waitForLink('paciente2@example.com', '/reset-password', {
      after: started - 1000,
    });
    await page.goto(link.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await page.getByTestId('reset-password-password').fill('Nueva clave segura 2027');
    await screenshot(page, 'identity-reset-es-desktop');
    await page.getByTestId('reset-password-submit').click();
    await page.getByTestId('reset-password-done').waitFor();

    const probe = new ApiSession(server.baseUrl);
    expect(
      (await probe.request('POST', '/auth/login', { email: 'paciente2@example.com', password: demoPassword }))
        .status,
    ).toBe(401);
    await page.getByTestId('reset-password-signin').click();
    await submitSignIn(page, 'paciente2@example.com', 'Nueva clave segura 2027');
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/portal');
    // The link is single-use.
    await page.goto(link.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await page.getByTestId('reset-password-password').fill('Otra clave distinta 2028');
    await page.getByTestId('reset-password-submit').click();
    await page.getByTestId('reset-password-invalid').waitFor();
    await page.context().close();
  });

  it('enrols TOTP from the profile and signs in with a code', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    // The real-time connections the page opens (the notification bell keeps one).
    const sockets: WebSocket[] = [];
    page.on('websocket', (socket) => {
      if (socket.url().includes('/socket.io')) {
        sockets.push(socket);
      }
    });
    const sessionCookie = async (): Promise<string | undefined> =>
      (await page.context().cookies()).find((cookie) => cookie.name === 'tm_session')?.value;
    await page.goto(`${server.baseUrl}/`);
    await submitSignIn(page, 'medico2@example.com');
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toMatch(/^\/admin/);
    await page.goto(`${server.baseUrl}/admin/profile/security`);
    await expect
      .poll(() => sockets.filter((socket) => !socket.isClosed()).length, { timeout: 15_000 })
      .toBe(1);
    const [signedInSocket] = sockets.filter((socket) => !socket.isClosed());
    const signedInSession = await sessionCookie();
    await page.getByTestId('mfa-setup-start').click();
    await page.getByTestId('mfa-setup-qr').waitFor();
    const secret = await page.getByTestId('mfa-setup-secret').getAttribute('data-secret');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await screenshot(page, 'identity-mfa-setup-es-desktop');
    const enrolledWith = totp(secret!);
    await page.getByTestId('mfa-setup-code').fill(enrolledWith);
    await page.getByTestId('mfa-setup-confirm').click();
    await page.getByTestId('mfa-recovery-codes').waitFor();
    expect(await page.getByTestId('mfa-recovery-code').count()).toBe(10);
    // Enabling rotated the session: a new cookie; the server closed the old session's socket and
    // the page connected again with the new one.
    expect(await sessionCookie()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await sessionCookie()).not.toBe(signedInSession);
    await expect.poll(() => signedInSocket!.isClosed(), { timeout: 15_000 }).toBe(true);
    await expect
      .poll(() => sockets.filter((socket) => !socket.isClosed()).length, { timeout: 15_000 })
      .toBe(1);
    await page.getByTestId('mfa-recovery-saved').check();
    await page.getByTestId('mfa-recovery-done').click();

    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-sign-out').click();
    await expect.poll(() => pathOf(page)).toBe('/');
    await submitSignIn(page, 'medico2@example.com');
    await page.getByTestId('signin-mfa-step').waitFor();
    await page.getByTestId('signin-mfa-code').fill('000000' === totp(secret!) ? '111111' : '000000');
    await page.getByTestId('signin-mfa-submit').click();
    // A wrong code is shown on the code field itself.
    await expect.poll(() => page.getByTestId('signin-mfa-code').getAttribute('aria-invalid')).toBe('true');
    // A code is accepted once (replay protection): wait for the authenticator's next code.
    const enrolmentCode = enrolledWith;
    await expect.poll(() => totp(secret!), { timeout: 35_000, interval: 500 }).not.toBe(enrolmentCode);
    await page.getByTestId('signin-mfa-code').fill(totp(secret!));
    await page.getByTestId('signin-mfa-submit').click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toMatch(/^\/admin/);
    await page.context().close();
  });

  it('locks the account after repeated failures and says for how long', async () => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    await page.goto(`${server.baseUrl}/`);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await submitSignIn(page, 'recepcion@example.com', `wrong-password-${attempt}`);
      await expect
        .poll(() => page.getByTestId('signin-error').getAttribute('data-code'))
        .toMatch(/INVALID_CREDENTIALS|ACCOUNT_LOCKED/);
    }
    await submitSignIn(page, 'recepcion@example.com');
    await expect
      .poll(() => page.getByTestId('signin-error').getAttribute('data-code'))
      .toBe('ACCOUNT_LOCKED');
    expect(await page.getByTestId('signin-error').textContent()).toMatch(/\d+\s*minut/);
    await screenshot(page, 'identity-locked-es-desktop');
    await page.context().close();
  });
});

describe('identity screens, both languages, desktop and phone; the idle logout meanwhile', () => {
  // Concurrent with the screenshots below: most of this journey is a minute of waiting for the idle timeout.
  // A concurrent test uses its own `expect`: the global one loses its test when the other one ends.
  it.concurrent('warns before the idle logout and signs the user out', async ({ expect }) => {
    const page = await openPage(browser.browser, { locale: 'es-ES', testHooks: true });
    await page.goto(`${server.baseUrl}/`);
    await submitSignIn(page, 'paciente1@example.com');
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/portal');
    // Idle timeout is 1 minute here: the warning comes at half of it.
    await page.getByTestId('idle-warning').waitFor({ timeout: 45_000 });
    const seconds = Number(await page.getByTestId('idle-warning-countdown').getAttribute('data-seconds'));
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(30);
    await screenshot(page, 'identity-idle-warning-es-desktop');
    await expect.poll(() => pathOf(page), { timeout: 45_000 }).toBe('/');
    await expect.poll(() => page.getByTestId('signin-notice').getAttribute('data-reason')).toBe('idle');
    // The server agrees: the session is gone.
    const me = await page.evaluate(async () => (await fetch('/api/v1/me')).status);
    expect(me).toBe(401);
    await page.context().close();
  });

  // One language after the other: both sign in as the admin and choose the screenshot language.
  it.concurrent(
    'screenshots in Spanish and English, desktop and phone',
    async ({ expect }) => {
      for (const [locale, lang] of [
        ['es-ES', 'es'],
        ['en-US', 'en'],
      ] as const) {
        for (const viewport of ['desktop', 'phone'] as const) {
          const page = await openPage(browser.browser, { locale, viewport, testHooks: true });
          for (const [path, name, ready] of [
            ['/', 'signin', 'signin-email'],
            ['/register', 'register', 'register-email'],
            ['/forgot-password', 'forgot', 'forgot-password-email'],
            [
              '/reset-password?token=screenshot-token-that-is-long-enough',
              'reset',
              'reset-password-password',
            ],
          ] as const) {
            await page.goto(`${server.baseUrl}${path}`);
            await page.getByTestId(ready).waitFor();
            await screenshot(page, `identity-${name}-${lang}-${viewport}`);
          }
          await page.goto(`${server.baseUrl}/`);
          await submitSignIn(page, 'admin@example.com');
          await expect.poll(() => pathOf(page), { timeout: 15_000 }).toMatch(/^\/admin/);
          // The admin's saved language is Spanish; choose the screenshot language as a person would.
          await page.evaluate((language) => window.__telemedicinaTest!.setLanguage(language), lang);
          await expect.poll(() => page.getAttribute('html', 'lang')).toBe(lang);
          for (const [path, name] of [
            ['/admin', 'admin-home'],
            ['/admin/profile', 'profile'],
            ['/admin/profile/security', 'profile-security'],
            ['/admin/outbox', 'outbox'],
          ] as const) {
            await page.goto(`${server.baseUrl}${path}`);
            await page.waitForLoadState('networkidle');
            await screenshot(page, `identity-${name}-${lang}-${viewport}`);
          }
          // The second-factor setup step (QR code and manual key), left unconfirmed.
          await page.goto(`${server.baseUrl}/admin/profile/security`);
          await page.getByTestId('mfa-setup-start').click();
          await page.getByTestId('mfa-setup-qr').waitFor();
          await screenshot(page, `identity-mfa-setup-${lang}-${viewport}`);
          await page.context().close();
        }
      }
    },
    180_000,
  );
});
