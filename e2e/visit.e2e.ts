import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openContext, openSignedIn } from './support/sign-in.js';
import { settle } from './support/settle.js';
import {
  bookVisitNow,
  prepareDoctor,
  prepareVisitClinic,
  remoteVideoFrames,
  waitForRemoteVideos,
} from './support/visits.js';

let server: RunningServer;
let browser: BrowserHandle;
let admin: ApiSession;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser({ fakeMedia: true });
  admin = await prepareVisitClinic(server.baseUrl);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The patient runs the device check (stored on the appointment) and checks in. */
async function checkDevicesAndCheckIn(page: Page, shot?: string): Promise<void> {
  await page.getByTestId('device-check').waitFor({ timeout: 20_000 });
  await page.getByTestId('device-check-risk').waitFor({ timeout: 20_000 });
  await page.getByTestId('device-check-play').click();
  await page.getByTestId('device-check-heard').click({ timeout: 10_000 });
  if (shot) {
    await page.evaluate(() => window.scrollTo(0, 0));
    await settle(page);
    await screenshot(page, shot);
  }
  await page.getByTestId('device-check-save').click();
  await page.getByTestId('visit-check-in').click({ timeout: 20_000 });
  await page.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
}

async function sendChat(page: Page, text: string): Promise<void> {
  if (await page.getByTestId('visit-chat-open').isVisible()) {
    await page.getByTestId('visit-chat-open').click();
  }
  await page.getByTestId('visit-chat-input').last().fill(text);
  await page.getByTestId('visit-chat-input').last().press('Enter');
}

/** Texts of the stored chat messages shown, in order. */
async function chatTexts(page: Page): Promise<string[]> {
  return page
    .getByTestId('visit-chat-message')
    .evaluateAll((items) => items.map((item) => item.textContent ?? ''));
}

async function chatSeqs(page: Page): Promise<number[]> {
  return page
    .getByTestId('visit-chat-message')
    .evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset.seq)));
}

const countOf = (texts: string[], needle: string) => texts.filter((text) => text.includes(needle)).length;

describe('video visit in the browser', () => {
  it('patient checks in, doctor admits, video both ways, chat and a file, the patient reloads and everything resumes, the doctor ends', async () => {
    const doctor = await prepareDoctor(server.baseUrl, 'medico1@example.com');
    const patientSession = new ApiSession(server.baseUrl);
    await patientSession.signIn('paciente1@example.com');
    const appointmentId = await bookVisitNow(patientSession, doctor.id, 'Revisión por video');

    const patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await patient.goto(`${server.baseUrl}/admin/appointments/${appointmentId}`);
    await patient.getByTestId('appointment-join-visit').click({ timeout: 20_000 });
    await checkDevicesAndCheckIn(patient, 'visit-device-check-es-desktop');
    await screenshot(patient, 'visit-waiting-patient-es-desktop');

    const stored = await admin.request<{ deviceCheck: { risk: string } | null }>(
      'GET',
      `/visits/${appointmentId}`,
    );
    expect(stored.status).toBe(200);
    expect(stored.body.deviceCheck?.risk).toMatch(/^(ok|warning)$/);

    const host = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      lang: 'en',
      viewport: 'desktop',
    });
    await host.goto(`${server.baseUrl}/admin/waiting-room`);
    const entry = host.locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`);
    await entry.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => entry.getByTestId('waiting-room-online').getAttribute('data-online'))
      .toBe('true');
    expect(await entry.getByTestId('waiting-room-risk').getAttribute('data-risk')).toBe(
      stored.body.deviceCheck?.risk,
    );
    await screenshot(host, 'visit-waiting-room-doctor-en-desktop');

    await entry.getByTestId('waiting-room-admit').click();
    await host.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await patient.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await waitForRemoteVideos(host, 1);
    await waitForRemoteVideos(patient, 1);

    // Chat both ways.
    await sendChat(patient, 'Hola doctora, ya estoy');
    await expect
      .poll(async () => countOf(await chatTexts(host), 'Hola doctora, ya estoy'), { timeout: 15_000 })
      .toBe(1);
    await sendChat(host, 'Good morning, Pablo');
    await expect
      .poll(async () => countOf(await chatTexts(patient), 'Good morning, Pablo'), { timeout: 15_000 })
      .toBe(1);
    // Markup in a message is shown as text.
    await sendChat(patient, '<b>negrita</b>');
    await expect
      .poll(async () => countOf(await chatTexts(host), '<b>negrita</b>'), { timeout: 15_000 })
      .toBe(1);

    // The patient shares a file; the doctor sees it and downloads it.
    await patient.getByTestId('visit-chat-attach').click();
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    await patient
      .getByTestId('uploader-input')
      .setInputFiles({ name: 'analisis.pdf', mimeType: 'application/pdf', buffer: pdf });
    const fileLink = host.getByTestId('visit-chat-file').filter({ hasText: 'analisis.pdf' });
    await fileLink.waitFor({ timeout: 20_000 });
    const href = await fileLink.getAttribute('href');
    const download = await host.context().request.get(new URL(href!, server.baseUrl).toString());
    expect(download.status()).toBe(200);
    expect(Buffer.from(await download.body()).equals(pdf)).toBe(true);
    await screenshot(host, 'visit-call-chat-en-desktop');
    await screenshot(patient, 'visit-call-es-desktop');

    // The patient's page reloads; meanwhile the doctor writes.
    const framesBefore = await remoteVideoFrames(host);
    const reloading = patient.reload();
    await sendChat(host, 'Did the page come back?');
    await reloading;
    await patient.getByTestId('visit-call').waitFor({ timeout: 30_000 });
    await waitForRemoteVideos(patient, 1);
    await waitForRemoteVideos(host, 1);
    expect(framesBefore.length).toBe(1);
    await expect
      .poll(async () => countOf(await chatTexts(patient), 'Did the page come back?'), { timeout: 15_000 })
      .toBe(1);
    for (const page of [patient, host]) {
      const texts = await chatTexts(page);
      for (const needle of [
        'Hola doctora, ya estoy',
        'Good morning, Pablo',
        '<b>negrita</b>',
        'analisis.pdf',
        'Did the page come back?',
      ]) {
        expect(countOf(texts, needle), `${needle} once`).toBe(1);
      }
      const seqs = await chatSeqs(page);
      expect(seqs).toEqual([1, 2, 3, 4, 5]);
    }
    expect(await patient.getByTestId('visit-chat-pending').count()).toBe(0);
    // A message after the reload still flows both ways.
    await sendChat(patient, 'Sí, todo bien');
    await expect
      .poll(async () => countOf(await chatTexts(host), 'Sí, todo bien'), { timeout: 15_000 })
      .toBe(1);

    // The doctor ends the visit.
    await host.getByTestId('visit-end').click();
    await host.getByTestId('visit-end-dialog-confirm').click();
    await host.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
    await patient.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
    // Each reads the end from where they sat: the doctor about the patient, with the note to finish.
    expect(await host.getByTestId('visit-ended-body').textContent()).toMatch(
      /^The visit with .+ has ended\. Complete the visit note\.$/,
    );
    expect(await host.getByTestId('visit-ended-note').getAttribute('href')).toBe(
      `/admin/appointments/${appointmentId}/note`,
    );
    expect(await patient.getByTestId('visit-ended-body').textContent()).toMatch(
      /^Gracias\. Su consulta con .+ ha finalizado\.$/,
    );
    expect(await patient.getByTestId('visit-ended-note').count()).toBe(0);
    await expect
      .poll(async () => countOf(await chatTexts(patient), 'Sí, todo bien'), { timeout: 15_000 })
      .toBe(1);
    await screenshot(patient, 'visit-ended-es-desktop');
    await screenshot(host, 'visit-ended-en-desktop');
    const appointment = await admin.request<{ status: string }>('GET', `/appointments/${appointmentId}`);
    expect(appointment.body.status).toBe('completed');
    await patient.context().close();
    await host.context().close();
  });

  it('three people: the doctor invites an interpreter by link, who waits, is admitted and sees both others; the link works once', async () => {
    const doctor = await prepareDoctor(server.baseUrl, 'medico2@example.com');
    const patientSession = new ApiSession(server.baseUrl);
    await patientSession.signIn('paciente2@example.com');
    const appointmentId = await bookVisitNow(patientSession, doctor.id, 'Consulta con intérprete');

    const patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente2@example.com', {
      lang: 'en',
      viewport: 'phone',
    });
    await patient.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
    await checkDevicesAndCheckIn(patient, 'visit-device-check-en-phone');
    await screenshot(patient, 'visit-waiting-patient-en-phone');

    const host = await openSignedIn(browser.browser, server.baseUrl, 'medico2@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await host.goto(`${server.baseUrl}/admin/waiting-room`);
    const entry = host.locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`);
    await entry.getByTestId('waiting-room-admit').click({ timeout: 20_000 });
    await waitForRemoteVideos(host, 1);
    await waitForRemoteVideos(patient, 1);

    await host.getByTestId('visit-invite').click();
    await host.getByTestId('visit-invite-name').fill('Irene Intérprete');
    await host.getByTestId('visit-invite-create').click();
    const url = (await host.getByTestId('visit-invite-url').textContent({ timeout: 15_000 })) ?? '';
    expect(url).toMatch(/\/guest#.{20,}$/);
    await screenshot(host, 'visit-invite-es-desktop');
    await host.keyboard.press('Escape');

    const guestContext = await openContext(browser.browser, { lang: 'es', viewport: 'phone' });
    const guest = await guestContext.newPage();
    await guest.goto(url.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await guest.getByTestId('device-check').waitFor({ timeout: 20_000 });
    expect(guest.url()).not.toContain('#');
    await guest.getByTestId('device-check-risk').waitFor({ timeout: 20_000 });
    await guest.getByTestId('device-check-save').click();
    await guest.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
    await screenshot(guest, 'visit-waiting-guest-es-phone');

    const admitGuest = host.getByTestId('visit-call-admit').filter({ hasText: 'Irene' });
    await admitGuest.click({ timeout: 20_000 });
    await guest.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await waitForRemoteVideos(guest, 2);
    await waitForRemoteVideos(host, 2);
    await waitForRemoteVideos(patient, 2);
    await screenshot(host, 'visit-call-three-es-desktop');
    await screenshot(patient, 'visit-call-en-phone');
    await sendChat(patient, 'Hello from the phone');
    await settle(patient);
    await screenshot(patient, 'visit-chat-open-en-phone');
    await guest.getByTestId('visit-chat-open').click();
    await expect
      .poll(async () => countOf(await chatTexts(guest), 'Hello from the phone'), { timeout: 15_000 })
      .toBe(1);
    await screenshot(guest, 'visit-call-es-phone');

    // The same link in another browser: already used, said in Spanish.
    const otherContext = await openContext(browser.browser, { lang: 'es', viewport: 'desktop' });
    const other = await otherContext.newPage();
    await other.goto(url.replace(/^https?:\/\/[^/]+/, server.baseUrl));
    const error = other.getByTestId('guest-error');
    await error.waitFor({ timeout: 20_000 });
    expect(await error.textContent()).toContain('ya se ha usado');
    await screenshot(other, 'visit-guest-used-es-desktop');
    await otherContext.close();

    // Each page is brought to the front before it is used: behind the other windows Chromium
    // throttles a page (twice in CI the host's end dialog never came up; with only the host brought
    // forward, the patient's page then missed the end for 20 s).
    await host.bringToFront();
    await host.getByTestId('visit-end').click();
    await host.getByTestId('visit-end-dialog-confirm').click();
    await guest.bringToFront();
    await guest.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
    await patient.bringToFront();
    await patient.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
    await screenshot(patient, 'visit-ended-en-phone');
    await screenshot(host, 'visit-ended-es-desktop-host');
    for (const context of [patient.context(), host.context(), guestContext]) {
      await context.close();
    }
  });
  it('screens in the other language and width: device check, both waiting rooms, call with chat, end', async () => {
    const doctor = await prepareDoctor(server.baseUrl, 'medico1@example.com');
    const patientSession = new ApiSession(server.baseUrl);
    await patientSession.signIn('paciente1@example.com');
    const appointmentId = await bookVisitNow(patientSession, doctor.id, 'Control');

    // The device check on its own page, in English on a desktop.
    const desktop = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'en',
      viewport: 'desktop',
    });
    await desktop.goto(`${server.baseUrl}/admin/visits/${appointmentId}/check`);
    await desktop.getByTestId('device-check-risk').waitFor({ timeout: 20_000 });
    await screenshot(desktop, 'visit-device-check-en-desktop');
    await desktop.context().close();

    const patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
      viewport: 'phone',
    });
    await patient.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
    await checkDevicesAndCheckIn(patient, 'visit-device-check-es-phone');
    await screenshot(patient, 'visit-waiting-patient-es-phone');

    const hostPhone = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      lang: 'es',
      viewport: 'phone',
    });
    await hostPhone.goto(`${server.baseUrl}/admin/waiting-room`);
    const entry = hostPhone.locator(
      `[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`,
    );
    await entry.waitFor({ timeout: 20_000 });
    await screenshot(hostPhone, 'visit-waiting-room-doctor-es-phone');
    // A message to the waiting patient, and the running-late notice.
    await entry.getByTestId('waiting-room-message').click();
    await hostPhone.getByTestId('waiting-room-message-text').fill('Termino con otro paciente y le atiendo.');
    await hostPhone.getByTestId('waiting-room-message-send').click();
    await patient.getByTestId('visit-waiting-message').waitFor({ timeout: 15_000 });
    expect(await patient.getByTestId('visit-waiting-message').textContent()).toContain(
      'Termino con otro paciente',
    );
    await hostPhone.getByTestId('waiting-room-late').selectOption('10');
    await patient.getByTestId('visit-running-late').waitFor({ timeout: 15_000 });
    await screenshot(patient, 'visit-waiting-notices-es-phone');

    const hostDesktop = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await hostDesktop.goto(`${server.baseUrl}/admin/waiting-room`);
    await hostDesktop
      .locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`)
      .waitFor({ timeout: 20_000 });
    await screenshot(hostDesktop, 'visit-waiting-room-doctor-es-desktop');
    await hostDesktop.context().close();

    // The doctor opens the call first; the checked-in patient is offered for admission there too.
    await hostPhone.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
    await hostPhone.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    const admitFromCall = hostPhone.getByTestId('visit-call-admit');
    await admitFromCall.waitFor({ timeout: 20_000 });
    expect(await admitFromCall.count()).toBe(1);
    await screenshot(hostPhone, 'visit-call-admit-patient-es-phone');
    await admitFromCall.click();
    await hostPhone.getByTestId('visit-call-waiting').waitFor({ state: 'detached', timeout: 20_000 });
    await waitForRemoteVideos(hostPhone, 1);
    await waitForRemoteVideos(patient, 1);
    await screenshot(hostPhone, 'visit-call-doctor-es-phone');
    await sendChat(patient, 'Hola, ¿me ve bien?');
    await hostPhone.getByTestId('visit-chat-open').click();
    await expect
      .poll(async () => countOf(await chatTexts(hostPhone), 'Hola, ¿me ve bien?'), { timeout: 15_000 })
      .toBe(1);
    await screenshot(patient, 'visit-chat-open-es-phone');
    await hostPhone.keyboard.press('Escape');
    await hostPhone.getByTestId('visit-end').click();
    await hostPhone.getByTestId('visit-end-dialog-confirm').click();
    await patient.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
    await screenshot(patient, 'visit-ended-es-phone');
    await patient.context().close();
    await hostPhone.context().close();
  });
});
