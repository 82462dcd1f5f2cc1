import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { demoPassword, openSignedIn } from './support/sign-in.js';

/**
 * Issue 21, finding 1, against the built server started as in production
 * without SMTP_URL (the default): an administrator asks a password reset for
 * a patient, reads the outbox, tries every token it shows and signs in as the
 * patient. Also the verification and invitation links. None of it works now.
 */

let server: RunningServer;
let admin: ApiSession;
const takeoverPassword = 'El administrador entra 2026';

beforeAll(async () => {
  server = await startServer();
  admin = new ApiSession(server.baseUrl);
  await admin.signIn('admin@example.com');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

let browser: BrowserHandle | undefined;

interface OutboxItem {
  id: string;
  to: string;
  template: string;
  createdAt: string;
}

/** Everything the administrator can read about the newest `template` email to `to`: list and message. */
async function readOutbox(to: string, template: string, after: number): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = await fetchAsAdmin(`/outbox?q=${encodeURIComponent(to)}&pageSize=50`);
    const item = (JSON.parse(list) as { data: OutboxItem[] }).data.find(
      (row) => row.to === to && row.template === template && Date.parse(row.createdAt) >= after,
    );
    if (item) {
      return `${list}\n${await fetchAsAdmin(`/outbox/${item.id}`)}`;
    }
    if (Date.now() > deadline) {
      throw new Error(`no ${template} email to ${to} in the outbox`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function fetchAsAdmin(path: string): Promise<string> {
  const answer = await admin.request<unknown>('GET', path);
  expect(answer.status, path).toBe(200);
  return JSON.stringify(answer.body);
}

/** Every distinct `token=` value in what the administrator read. */
function tokensIn(text: string): string[] {
  return [...new Set([...text.matchAll(/token=([A-Za-z0-9_-]{8,})/g)].map((match) => match[1]!))];
}

async function signInStatus(email: string, password: string): Promise<number> {
  return (await new ApiSession(server.baseUrl).request('POST', '/auth/login', { email, password })).status;
}

describe('the outbox is no way into someone else’s account (built server, no SMTP)', () => {
  it('the start warns loudly that emails are not delivered', () => {
    expect(server.output()).toMatch(/SMTP_URL is not set\. Emails are NOT delivered/);
  });

  it('password reset: the administrator cannot sign in as the patient', async () => {
    const started = Date.now() - 1000;
    const anonymous = new ApiSession(server.baseUrl);
    const asked = await anonymous.request('POST', '/auth/password/forgot', {
      email: 'paciente1@example.com',
    });
    expect(asked.status).toBe(202);
    const seen = await readOutbox('paciente1@example.com', 'reset-password', started);
    for (const token of tokensIn(seen)) {
      await anonymous.request('POST', '/auth/password/reset', { token, password: takeoverPassword });
    }
    expect(await signInStatus('paciente1@example.com', takeoverPassword)).toBe(401);
    expect(await signInStatus('paciente1@example.com', demoPassword)).toBe(200);
    // What was sent to whom is still there, without the secret.
    expect(seen).toContain('reset-password?token=[hidden]');
  });

  it('verification: the administrator cannot confirm an address for someone who registered', async () => {
    const started = Date.now() - 1000;
    const email = `registro.${Date.now()}@example.org`;
    const password = 'Un paseo por el río 2026';
    const registered = await new ApiSession(server.baseUrl).request('POST', '/auth/register', {
      name: 'Lucía Romero',
      email,
      password,
      phone: '+34 600 123 456',
      dateOfBirth: '1990-05-17',
      language: 'es',
      timeZone: 'Europe/Madrid',
      acceptTerms: true,
      acceptTelemedicineConsent: true,
    });
    expect(registered.status).toBe(202);
    const seen = await readOutbox(email, 'verify-email', started);
    for (const token of tokensIn(seen)) {
      await new ApiSession(server.baseUrl).request('POST', '/auth/verify-email', { token });
    }
    const signIn = await new ApiSession(server.baseUrl).request<{ error: { code: string } }>(
      'POST',
      '/auth/login',
      { email, password },
    );
    expect(signIn.body.error?.code).toBe('EMAIL_NOT_VERIFIED');
    // What was sent to whom is still there, without the secret.
    expect(seen).toContain('verify-email?token=[hidden]');
  });

  it('invitation: the administrator cannot accept it in the invitee’s name', async () => {
    const started = Date.now() - 1000;
    const email = `invitada.${Date.now()}@example.org`;
    const invited = await admin.request('POST', '/invitations', {
      email,
      name: 'Dra. Invitada',
      roleKeys: ['doctor'],
      language: 'es',
    });
    expect(invited.status).toBe(201);
    const seen = await readOutbox(email, 'invitation', started);
    for (const token of tokensIn(seen)) {
      await new ApiSession(server.baseUrl).request('POST', '/auth/invitations/accept', {
        token,
        password: takeoverPassword,
        acceptTerms: true,
      });
    }
    expect(await signInStatus(email, takeoverPassword)).toBe(401);
    // What was sent to whom is still there, without the secret.
    expect(seen).toContain('accept-invitation?token=[hidden]');
  });

  it('the viewer says the link is hidden and offers nothing to follow', async () => {
    const list = await admin.request<{ data: OutboxItem[] }>(
      'GET',
      `/outbox?q=${encodeURIComponent('paciente1@example.com')}&pageSize=50`,
    );
    const reset = list.body.data.find((item) => item.template === 'reset-password')!;
    browser = await launchBrowser();
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await openSignedIn(browser.browser, server.baseUrl, 'admin@example.com', { viewport });
      await page.goto(`${server.baseUrl}/admin/outbox?message=${reset.id}`);
      const notice = page.getByTestId('outbox-hidden-links');
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.textContent()).toContain('Por seguridad, el enlace personal');
      expect(await page.getByTestId('outbox-message-to').textContent()).toBe('paciente1@example.com');
      await screenshot(page, `outbox-hidden-link-es-${viewport}`);
      await page.getByTestId('outbox-message-tab-text').click();
      const hidden = page.getByTestId('outbox-message-hidden-link');
      await hidden.waitFor();
      expect(await hidden.textContent()).toMatch(/\/reset-password · enlace oculto$/);
      expect(await page.locator('[data-testid="outbox-message"] a[href*="token="]').count()).toBe(0);
      await screenshot(page, `outbox-hidden-link-text-es-${viewport}`);
      await page.context().close();
    }
  });
});
