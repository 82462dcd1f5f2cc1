import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { settle } from './support/settle.js';
import { submitSignIn } from './support/sign-in.js';

/*
 * The standalone patient launch of SMART App Launch 2.x as a third-party app performs it: SMART
 * discovery, RFC 7591 registration (open in the demo), the authorization request with PKCE in
 * Chromium through the app's own sign-in and the consent screen, the code exchange, FHIR reads
 * with the Bearer token, a refresh, and Disconnect from the profile → the next call is 401.
 * The browser is in Madrid, the demo patient's account in Mexico City.
 */

let server: RunningServer;
let browser: BrowserHandle;
let patientId: string;
const redirectUri = 'http://127.0.0.1:9/smart-app/callback';
const shotDir = '/tmp/shots/smart';
const scope = 'openid fhirUser launch/patient offline_access patient/*.rs';

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  registration_endpoint: string;
  revocation_endpoint: string;
  capabilities: string[];
  code_challenge_methods_supported: string[];
}

async function context(lang: 'es' | 'en', width: 390 | 1280): Promise<BrowserContext> {
  const created = await browser.browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'es-ES',
    timezoneId: 'Europe/Madrid',
    viewport: { width, height: width === 390 ? 844 : 900 },
  });
  await created.addInitScript((language) => {
    window.localStorage.setItem('telemedicina.language', language);
    window.sessionStorage.setItem('telemedicina.languageChosen', '1');
  }, lang);
  return created;
}

async function shoot(page: Page, name: string): Promise<void> {
  await settle(page);
  mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: `${shotDir}/${name}.png`, fullPage: true });
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

function authorizeUrl(discovery: Discovery, clientId: string, challenge: string, state: string): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state,
    aud: `${server.baseUrl}/fhir/R4`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return `${discovery.authorization_endpoint}?${query.toString()}`;
}

async function discover(): Promise<Discovery> {
  const response = await fetch(`${server.baseUrl}/fhir/R4/.well-known/smart-configuration`);
  expect(response.status).toBe(200);
  return (await response.json()) as Discovery;
}

async function register(discovery: Discovery, name: string): Promise<string> {
  const response = await fetch(discovery.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      client_uri: 'https://salud-app.example.org',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

async function token(discovery: Discovery, form: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body;
}

async function fhir(
  path: string,
  accessToken: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.baseUrl}/fhir/R4/${path}`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/fhir+json' },
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return {
    status: response.status,
    body: isJson ? (JSON.parse(text) as Record<string, unknown>) : { bytes: text.length },
  };
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  patientId = (await patient.request<{ user: { id: string } }>('GET', '/me')).body.user.id;
  // Open registration (the demo seed turns it on; a data folder seeded by an earlier build may not have it).
  const admin = new ApiSession(server.baseUrl);
  await admin.signIn('admin@example.com');
  expect((await admin.request('PUT', '/smart/registration', { openRegistration: true })).status).toBe(204);
  // A prescription PDF for the Binary read.
  const doctor = new ApiSession(server.baseUrl);
  await doctor.signIn('medico1@example.com');
  const issued = await doctor.request('POST', `/patients/${patientId}/prescriptions`, {
    items: [
      {
        medication: 'Amoxicilina 500 mg',
        dose: '1 cápsula',
        route: 'oral',
        frequency: 'cada 8 horas',
        duration: '7 días',
        quantity: '21',
      },
    ],
  });
  expect(issued.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('SMART standalone patient launch', () => {
  it('discovers, registers, signs in and consents in the browser, reads FHIR, refreshes, and disconnects', async () => {
    const discovery = await discover();
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.capabilities).toContain('context-standalone-patient');
    const clientId = await register(discovery, 'Mi Diario de Salud');

    const browserContext = await context('es', 1280);
    const page = await browserContext.newPage();
    let callback: URL | null = null;
    await page.route('http://127.0.0.1:9/**', async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<p>app</p>' });
    });
    const { verifier, challenge } = pkce();
    await page.goto(authorizeUrl(discovery, clientId, challenge, 'estado-1'));
    // Signed out: the app's own sign-in, which returns to the consent screen.
    await page.waitForURL((url) => url.pathname === '/' && url.searchParams.has('returnTo'));
    await submitSignIn(page, 'paciente1@example.com');
    await page.waitForURL((url) => url.pathname.startsWith('/portal/connected-apps/authorize/'));
    await page.getByTestId('authorize-app-page').waitFor();
    expect(await page.getByTestId('authorize-app-title').textContent()).toBe(
      'Mi Diario de Salud quiere acceder a sus datos',
    );
    const permissions = await page.getByTestId('authorize-app-permissions').innerText();
    expect(permissions).toContain('Leer toda su historia clínica');
    expect(permissions).toContain('Seguir leyendo sus datos');
    expect(permissions).not.toContain('patient/');
    await shoot(page, 'consent-es-1280');
    await page.getByTestId('authorize-app-allow').click();
    await expect.poll(() => callback?.searchParams.get('code') ?? null, { timeout: 15_000 }).not.toBeNull();
    const returned = callback as unknown as URL;
    expect(returned.searchParams.get('state')).toBe('estado-1');

    const tokens = await token(discovery, {
      grant_type: 'authorization_code',
      code: returned.searchParams.get('code') ?? '',
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(tokens.patient).toBe(patientId);
    const accessToken = String(tokens.access_token);

    const patient = await fhir(`Patient/${patientId}`, accessToken);
    expect(patient.status).toBe(200);
    expect(patient.body.resourceType).toBe('Patient');
    for (const search of [
      `Appointment?patient=${patientId}`,
      `Observation?patient=${patientId}&category=vital-signs`,
      `MedicationRequest?patient=${patientId}`,
    ]) {
      const bundle = await fhir(search, accessToken);
      expect(bundle.status, search).toBe(200);
      expect(bundle.body.resourceType).toBe('Bundle');
    }
    const documents = await fhir(`DocumentReference?patient=${patientId}`, accessToken);
    expect(documents.status).toBe(200);
    const entries = (documents.body.entry ?? []) as {
      resource: { content: { attachment: { url: string } }[] };
    }[];
    const binaryUrl = entries[0]?.resource.content[0]?.attachment.url;
    expect(binaryUrl).toMatch(/^Binary\//);
    const binary = await fetch(`${server.baseUrl}/fhir/R4/${binaryUrl ?? ''}`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/pdf' },
    });
    expect(binary.status).toBe(200);

    const refreshed = await token(discovery, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.refresh_token),
      client_id: clientId,
    });
    const newAccessToken = String(refreshed.access_token);
    expect(newAccessToken).not.toBe(accessToken);
    expect((await fhir(`Patient/${patientId}`, newAccessToken)).status).toBe(200);

    // The person disconnects the app from the profile: the next call is refused.
    await page.goto(`${server.baseUrl}/portal/profile/connected-apps`);
    const card = page.getByTestId('connected-app').filter({ hasText: 'Mi Diario de Salud' });
    await card.waitFor();
    expect(await card.getByTestId('connected-app-last-used').innerText()).toMatch(/^Última lectura: /);
    await shoot(page, 'connected-apps-es-1280');
    await card.getByTestId('connected-app-disconnect').click();
    await page.getByTestId('connected-apps-disconnected').waitFor();
    const after = await fhir(`Patient/${patientId}`, newAccessToken);
    expect(after.status).toBe(401);
    expect(after.body.resourceType).toBe('OperationOutcome');
    await browserContext.close();
  }, 120_000);

  it('shows the consent screen and connected apps in both languages on a phone and a computer', async () => {
    const discovery = await discover();
    const clientId = await register(discovery, 'Mi Diario de Salud');
    for (const lang of ['es', 'en'] as const) {
      for (const width of [390, 1280] as const) {
        const browserContext = await context(lang, width);
        const page = await browserContext.newPage();
        await page.route('http://127.0.0.1:9/**', (route) =>
          route.fulfill({ status: 200, contentType: 'text/html', body: '<p>app</p>' }),
        );
        await page.goto(`${server.baseUrl}/`);
        await submitSignIn(page, 'paciente1@example.com');
        await page.waitForURL((url) => url.pathname.startsWith('/portal'));
        // The app's browser request (made here by fetch: the consent screen needs only its uid).
        const start = await fetch(authorizeUrl(discovery, clientId, pkce().challenge, 'estado'), {
          redirect: 'manual',
        });
        const location = start.headers.get('location') ?? '';
        expect(location).toMatch(/\/portal\/connected-apps\/authorize\//);
        await page.goto(`${server.baseUrl}${location}`);
        await page.getByTestId('authorize-app-page').waitFor();
        const title = await page.getByTestId('authorize-app-title').textContent();
        expect(title).toBe(
          lang === 'es'
            ? 'Mi Diario de Salud quiere acceder a sus datos'
            : 'Mi Diario de Salud wants to access your data',
        );
        const hasSideScroll = await page.evaluate(
          () => document.documentElement.scrollWidth > window.innerWidth,
        );
        expect(hasSideScroll).toBe(false);
        await shoot(page, `consent-${lang}-${width}`);
        await page.getByTestId('authorize-app-allow').click();
        // Back to the authorization server (which refuses to go on: this browser did not start the request).
        await page.waitForURL((url) => url.pathname.startsWith('/oauth/'), { timeout: 15_000 });
        await page.goto(`${server.baseUrl}/portal/profile/connected-apps`);
        await page.getByTestId('connected-app').first().waitFor();
        await shoot(page, `connected-apps-${lang}-${width}`);
        await browserContext.close();
      }
    }
  }, 180_000);

  it('lets an administrator see the registered apps and block one (its token stops working)', async () => {
    const discovery = await discover();
    const clientId = await register(discovery, 'App de Pruebas Bloqueable');
    const browserContext = await context('es', 1280);
    const page = await browserContext.newPage();
    await page.goto(`${server.baseUrl}/`);
    await submitSignIn(page, 'admin@example.com');
    await page.waitForURL((url) => url.pathname.startsWith('/admin'));
    await page.goto(`${server.baseUrl}/admin/apps`);
    const card = page.getByTestId('registered-app').filter({ hasText: 'App de Pruebas Bloqueable' });
    await card.waitFor();
    expect(await card.innerText()).toContain(redirectUri);
    expect(await page.getByTestId('registered-apps-open').isChecked()).toBe(true);
    await card.getByTestId('registered-app-block').click();
    await card.getByText('Bloqueada').waitFor();
    await shoot(page, 'registered-apps-es-1280');
    const apps = new ApiSession(server.baseUrl);
    await apps.signIn('admin@example.com');
    const list = await apps.request<{ data: { clientId: string; blockedAt: string | null }[] }>(
      'GET',
      '/smart/apps',
    );
    expect(list.body.data.find((row) => row.clientId === clientId)?.blockedAt).not.toBeNull();
    await browserContext.close();
  }, 120_000);
});
