/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, ok } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openContext, signIn } from './support/sign-in.js';
import { afterInput } from './support/settle.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic } from './support/visits.js';
import { xssPayloads } from './support/xss-payloads.js';

/**
 * The XSS corpus through every place that renders user content, in Chromium: payloads are stored
 * through the API (names, biography, appointment reason, chart entries, prescription items, the
 * device-check browser label, chat messages and chat file names, a visit note), then each page that
 * shows them is opened with a `dialog` listener. Nothing may run (`window.__xss` stays undefined, no
 * JavaScript dialog opens) and the payloads must be visible as text where they are shown. The
 * message dialog is covered by shell.e2e.ts (every payload as dialog content).
 */

const shots = '/tmp/shots/security';
let server: RunningServer;
let browser: BrowserHandle;

const doctorEmail = 'medico1@example.com';
const patientEmail = 'paciente1@example.com';

/** Short payloads that fit in names and other short fields. */
const short = xssPayloads.filter((payload) => payload.length <= 110);
const doctorName = `Dra. ${'<img src=x onerror="window.__xss=2">'}`;
const patientName = `Pablo ${'<svg/onload=window.__xss=35>'}`;
const reason = `Dolor ${short.slice(0, 6).join(' ')}`.slice(0, 500);
const bio = xssPayloads.join('\n');
const deviceBrowser = '<img src=x onerror="window.__xss=3"> Chromium';
const chatPayloads = xssPayloads;
const fileNames = [
  `${'<img src=x onerror=window.__xss=41>'}.pdf`,
  `' onmouseover='window.__xss=42' x='.pdf`,
  '&lt;img src=x onerror=window.__xss=43&gt;.pdf',
];
const notePayloads = xssPayloads.slice(0, 20).join('<br>');

let doctor: { session: ApiSession; id: string };
let patient: ApiSession;
let patientId: string;
let appointmentId: string;
let prescriptionId: string;
let noteStored = false;
const stored = { allergies: [] as string[], conditions: [] as string[], medications: [] as string[] };
let patientSocket: Socket | null = null;
const contexts: BrowserContext[] = [];

function cookieHeader(session: ApiSession): string {
  const cookies = (session as unknown as { cookies: Map<string, string> }).cookies;
  return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Shares a chat file over the REST endpoint, with the given (hostile) file name. */
async function shareFile(session: ApiSession, fileName: string): Promise<number> {
  const form = new FormData();
  form.append(
    'file',
    new Blob([Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')], { type: 'application/pdf' }),
    fileName,
  );
  const cookies = (session as unknown as { cookies: Map<string, string> }).cookies;
  const response = await fetch(`${server.baseUrl}/api/v1/visits/${appointmentId}/files`, {
    method: 'POST',
    headers: { cookie: cookieHeader(session), 'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '' },
    body: form,
  });
  return response.status;
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launchBrowser({ fakeMedia: true });
  await prepareVisitClinic(server.baseUrl);
  doctor = await prepareDoctor(server.baseUrl, doctorEmail);
  patient = new ApiSession(server.baseUrl);
  await patient.signIn(patientEmail);
  patientId = (await ok(patient.request<{ user: { id: string } }>('GET', '/me'), 'GET /me')).user.id;

  // Names and the biography.
  await ok(doctor.session.request('PATCH', '/me', { name: doctorName }), 'PATCH /me (doctor)');
  await ok(patient.request('PATCH', '/me', { name: patientName }), 'PATCH /me (patient)');
  await ok(doctor.session.request('PATCH', `/doctors/${doctor.id}`, { bio: { es: bio, en: bio } }), 'bio');

  // A visit now, with a hostile reason (the doctor is notified: the bell).
  appointmentId = await bookVisitNow(patient, doctor.id, reason);

  // Chart entries and a prescription by the treating doctor.
  for (const payload of short.slice(0, 8)) {
    await ok(
      doctor.session.request('POST', `/patients/${patientId}/allergies`, {
        substance: payload,
        reaction: payload,
      }),
      'allergy',
    );
    stored.allergies.push(payload);
  }
  for (const payload of short.slice(8, 14)) {
    await ok(
      doctor.session.request('POST', `/patients/${patientId}/conditions`, { description: payload }),
      'cond',
    );
    stored.conditions.push(payload);
  }
  for (const payload of short.slice(14, 20)) {
    await ok(
      doctor.session.request('POST', `/patients/${patientId}/medications`, {
        name: payload,
        dose: payload.slice(0, 60),
      }),
      'medication',
    );
    stored.medications.push(payload);
  }
  const prescription = await ok(
    doctor.session.request<{ id: string }>('POST', `/patients/${patientId}/prescriptions`, {
      appointmentId,
      notes: xssPayloads.join(' ').slice(0, 2000),
      items: short.slice(20, 25).map((payload) => ({
        medication: payload,
        dose: payload.slice(0, 100),
        route: payload.slice(0, 60),
        frequency: payload.slice(0, 100),
        duration: payload.slice(0, 60),
        quantity: payload.slice(0, 60),
        instructions: payload,
      })),
    }),
    'prescription',
  );
  prescriptionId = prescription.id;

  // The patient runs the device check (hostile browser label) and checks in: the waiting room.
  await ok(
    patient.request('PUT', `/visits/${appointmentId}/device-check`, {
      browserSupported: true,
      camera: 'ok',
      microphone: 'ok',
      speaker: 'ok',
      connectivity: 'direct',
      realtimeRttMs: 12,
      browser: deviceBrowser,
    }),
    'device check',
  );
  await ok(patient.request('POST', `/visits/${appointmentId}/check-in`), 'check-in');
}, 120_000);

afterAll(async () => {
  patientSocket?.disconnect();
  for (const context of contexts) {
    await context.close().catch(() => undefined);
  }
  await browser?.close();
  await server?.stop();
});

async function openAs(email: string, viewport: 'desktop' | 'phone' = 'desktop'): Promise<Page> {
  const context = await openContext(browser.browser, { viewport });
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, server.baseUrl, email);
  return page;
}

/** JavaScript dialogs opened on a page, collected from the start. */
const dialogs = new WeakMap<Page, string[]>();

/** Browser complaints about the security headers themselves (an unknown Permissions-Policy feature…). */
const headerWarnings: string[] = [];

function watch(page: Page): string[] {
  let opened = dialogs.get(page);
  if (opened === undefined) {
    opened = [];
    dialogs.set(page, opened);
    const list = opened;
    page.on('dialog', (dialog) => {
      list.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('console', (message) => {
      if (/Permissions-Policy|Content Security Policy/i.test(message.text())) {
        headerWarnings.push(`${page.url()}: ${message.text()}`);
      }
    });
  }
  return opened;
}

/**
 * What an injected payload could trigger has had its chance: every image of the page has loaded or
 * failed (onerror), the handlers of what was just done have run, and the page has drawn the result.
 */
async function loadsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.images].every((image) => image.complete));
  await afterInput(page);
}

/**
 * Opens `path`, waits for `ready`, gives handlers, autofocus and loads a moment, hovers and clicks
 * injected links if any got through, then checks that nothing ran and the texts are visible.
 */
async function check(page: Page, path: string, ready: string, texts: string[]): Promise<void> {
  const opened = watch(page);
  await page.goto(`${server.baseUrl}${path}`);
  await page.getByTestId(ready).first().waitFor({ timeout: 20_000 });
  await loadsSettled(page);
  const injected = page.locator('#xss-link');
  if ((await injected.count()) > 0) {
    await injected
      .first()
      .click({ force: true, timeout: 10_000 })
      .catch(() => undefined);
  }
  for (const text of texts) {
    await expect
      .poll(() => page.evaluate((wanted) => document.body.innerText.includes(wanted), text), {
        timeout: 10_000,
        message: `${path} shows ${text} as text`,
      })
      .toBe(true);
  }
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), path).toBeUndefined();
  expect(opened, path).toEqual([]);
  expect(await page.locator('script:not([src])').count(), `${path}: inline scripts`).toBe(0);
  expect(headerWarnings, path).toEqual([]);
  // No injected handler attribute or script URL survived anywhere in the document.
  const dangerous = await page.evaluate(() =>
    [...document.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes]
        .filter(
          (attribute) =>
            /^on/i.test(attribute.name) ||
            /^\s*(?:javascript|vbscript|data:text\/html)/i.test(attribute.value.replaceAll(/\s/g, '')),
        )
        .map((attribute) => `<${element.tagName.toLowerCase()} ${attribute.name}="${attribute.value}">`),
    ),
  );
  expect(dangerous, `${path}: dangerous attributes`).toEqual([]);
}

describe('XSS payloads stored through the API execute nowhere', () => {
  it('the waiting room: patient name and device-check browser label', async () => {
    const page = await openAs(doctorEmail);
    // The device-check label is shown in the entry's risk details, not always as visible text.
    await check(page, '/admin/waiting-room', 'waiting-room-entry', [patientName]);
    await page
      .getByTestId('waiting-room-risk')
      .first()
      .hover()
      .catch(() => undefined);
    await loadsSettled(page);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  });

  it('the doctor: header, bell, agenda, appointment list and page, patient list, chart, prescription', async () => {
    const page = await openAs(doctorEmail);
    await check(page, '/admin', 'notification-bell', [doctorName]);
    await page.getByTestId('notification-bell').click();
    await page.getByTestId('notification-panel').waitFor({ timeout: 10_000 });
    await page.getByTestId('notification-item').first().waitFor({ timeout: 10_000 });
    await loadsSettled(page);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    await check(page, '/admin/agenda', 'agenda-page', []);
    await check(page, '/admin/appointments', 'appointments-page', [patientName]);
    await check(page, `/admin/appointments/${appointmentId}`, 'appointment-page', [reason]);
    await check(page, '/admin/patients', 'patients-table', [patientName]);
    await check(page, `/admin/patients/${patientId}`, 'chart', [
      patientName,
      ...stored.allergies,
      ...stored.conditions,
      ...stored.medications,
    ]);
    await page.screenshot({ path: `${shots}/chart-doctor-es-desktop.png`, fullPage: true });
    await check(page, `/admin/prescriptions/${prescriptionId}`, 'prescription-page', [
      short[20]!,
      short[24]!,
    ]);
  });

  it('the patient (phone): doctor directory and page with the biography, own record, appointment', async () => {
    const page = await openAs(patientEmail, 'phone');
    await check(page, '/admin/doctors', 'doctors-page', [doctorName]);
    await check(page, `/admin/doctors/${doctor.id}`, 'doctor-page', [xssPayloads[0]!, xssPayloads[39]!]);
    await page.screenshot({ path: `${shots}/doctor-bio-es-phone.png`, fullPage: true });
    await check(page, '/admin/my-record', 'my-record-page', [...stored.allergies]);
    await check(page, `/admin/appointments/${appointmentId}`, 'appointment-page', [doctorName, reason]);
  });

  it('the administrator: user list and audit trail', async () => {
    const page = await openAs('admin@example.com');
    await check(page, '/admin/users', 'users-page', [patientName, doctorName]);
    await check(page, '/admin/audit', 'audit-page', []);
  });

  it('the visit: chat messages and chat file names in the call', async () => {
    await ok(doctor.session.request('POST', `/visits/${appointmentId}/admit`, {}), 'admit');
    patientSocket = connect(server.baseUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie: cookieHeader(patient), origin: server.baseUrl },
    });
    await new Promise<void>((resolve, reject) => {
      patientSocket!.once('connect', () => resolve());
      patientSocket!.once('connect_error', reject);
    });
    const joined = (await patientSocket
      .timeout(10_000)
      .emitWithAck('visit.join', { appointmentId, lastSeq: 0 })) as {
      ok: boolean;
      data?: { inCall: boolean };
    };
    expect(joined).toMatchObject({ ok: true, data: { inCall: true } });
    for (const [index, body] of chatPayloads.entries()) {
      const sent = (await patientSocket.timeout(10_000).emitWithAck('chat.send', {
        appointmentId,
        clientId: `xss-${index}`,
        body,
      })) as { ok: boolean };
      expect(sent.ok, body).toBe(true);
    }
    for (const name of fileNames) {
      expect(await shareFile(patient, name), name).toBe(201);
    }
    const page = await openAs(doctorEmail);
    await check(page, `/admin/visits/${appointmentId}`, 'visit-call', []);
    if (await page.getByTestId('visit-chat-open').isVisible()) {
      await page.getByTestId('visit-chat-open').click();
    }
    await page.getByTestId('visit-chat-message').first().waitFor({ timeout: 20_000 });
    await expect
      .poll(() => page.getByTestId('visit-chat-message').count(), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(chatPayloads.length);
    const texts = await page.getByTestId('visit-chat-message').allInnerTexts();
    for (const payload of chatPayloads) {
      expect(
        texts.some((text) => text.includes(payload)),
        `chat shows ${payload}`,
      ).toBe(true);
    }
    await page.screenshot({ path: `${shots}/chat-doctor-es-desktop.png` });
    const files = await page.getByTestId('visit-chat-file').allInnerTexts();
    expect(files.length).toBeGreaterThanOrEqual(fileNames.length);
    const links = page.getByTestId('visit-chat-file');
    for (let index = 0; index < (await links.count()); index += 1) {
      await links
        .nth(index)
        .hover({ timeout: 10_000 })
        .catch(() => undefined);
    }
    await loadsSettled(page);
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(watch(page)).toEqual([]);
  });

  it('the visit note: rich text saved through the notes API', async () => {
    const current = await doctor.session.request<{ version: number }>(
      'POST',
      `/appointments/${appointmentId}/note`,
    );
    expect(current.status, JSON.stringify(current.body)).toBeLessThan(300);
    const saved = await doctor.session.request('PATCH', `/appointments/${appointmentId}/note`, {
      baseVersion: current.body.version,
      subjective: `<p>${notePayloads}</p>`,
      objective: xssPayloads.slice(20).join(''),
      assessment: '<p>Texto <a href="javascript:window.__xss=99" id="xss-link">enlace</a></p>',
      plan: '<p>Plan seguro</p>',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBeLessThan(300);
    noteStored = true;
    const page = await openAs(doctorEmail);
    await check(page, `/admin/appointments/${appointmentId}/note`, 'note-page', ['Plan seguro']);
    await page.screenshot({ path: `${shots}/note-doctor-es-desktop.png`, fullPage: true });
    // Signed, the patient reads it too.
    const signed = await doctor.session.request('POST', `/appointments/${appointmentId}/note/sign`, {
      baseVersion: (saved.body as { version: number }).version,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBeLessThan(300);
    const reader = await openAs(patientEmail, 'phone');
    await check(reader, `/admin/appointments/${appointmentId}/note`, 'note-page', ['Plan seguro']);
    await reader.screenshot({ path: `${shots}/note-patient-es-phone.png`, fullPage: true });
    expect(noteStored).toBe(true);
  });
});
