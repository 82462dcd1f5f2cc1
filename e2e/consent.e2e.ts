import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/sign-in.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic } from './support/visits.js';

/**
 * Consent signed by the patient (issue 25) at phone width: the upcoming appointment asks for the
 * telemedicine consent; the patient reads it and signs by drawing with mouse strokes on the
 * canvas; the signed PDF is in their documents; the doctor's waiting-room card shows it signed.
 * Browser in Madrid, accounts in Mexico City.
 */

let server: RunningServer;
let browser: BrowserHandle;
let dataDir = '';
let doctorId = '';
let appointmentId = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'telemedicina-e2e-consent-'));
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  await prepareVisitClinic(server.baseUrl);
  const doctor = await prepareDoctor(server.baseUrl, 'medico1@example.com');
  doctorId = doctor.id;
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente2@example.com');
  appointmentId = await bookVisitNow(patient, doctorId, 'Consentimiento');
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dataDir !== '') {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('consent signed by the patient', () => {
  it('signs by drawing on a phone; the PDF is in the documents; the waiting-room card says signed', async () => {
    const context = await browser.browser.newContext({
      locale: 'es-ES',
      viewport: { width: 390, height: 844 },
      timezoneId: 'Europe/Madrid',
    });
    const patient = await context.newPage();
    await signIn(patient, server.baseUrl, 'paciente2@example.com');
    await patient.goto(`${server.baseUrl}/portal/appointments/${appointmentId}`);
    const reminder = patient.getByTestId('consent-reminder');
    await reminder.waitFor({ timeout: 20_000 });
    expect(await reminder.textContent()).toContain('Tiene un consentimiento por firmar');
    await reminder.getByRole('link').click();
    await patient.waitForURL(/\/portal\/consents\/[\w-]+$/);
    // Loaded afresh, as from the email's link: only what the signing page itself loads is styled.
    await patient.reload();

    await patient.getByTestId('consent-body').waitFor({ timeout: 20_000 });
    expect(await patient.getByTestId('consent-title').textContent()).toBe(
      'Consentimiento informado para la atención por telemedicina',
    );
    expect(await patient.getByTestId('consent-submit').isDisabled()).toBe(true);
    const canvas = patient.getByTestId('signature-canvas');
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    expect(box).not.toBeNull();
    await patient.mouse.move(box!.x + 20, box!.y + box!.height / 2);
    await patient.mouse.down();
    for (let step = 1; step <= 25; step += 1) {
      await patient.mouse.move(
        box!.x + 20 + (step * (box!.width - 40)) / 25,
        box!.y + box!.height * (0.5 + 0.3 * Math.sin(step / 3)),
      );
    }
    await patient.mouse.up();
    // "I have read the document…" beside its box, not under it.
    const agreeBox = await patient.getByTestId('consent-agree').boundingBox();
    const agreeLabel = await patient.getByText('He leído el documento y doy mi consentimiento').boundingBox();
    expect(agreeLabel!.x, 'the label starts right of the box').toBeGreaterThanOrEqual(
      agreeBox!.x + agreeBox!.width,
    );
    expect(agreeLabel!.y, 'the label starts on the box row').toBeLessThan(agreeBox!.y + agreeBox!.height);
    await patient.getByTestId('consent-agree').check();
    await expect.poll(() => patient.getByTestId('consent-submit').isEnabled()).toBe(true);
    // The page's width changing under a drawn signature (a scrollbar, the phone turning) keeps it:
    // resizing the canvas used to wipe it, and the submit went back to disabled.
    const canvasWidth = () => canvas.evaluate((element) => (element as HTMLCanvasElement).width);
    const widthBefore = await canvasWidth();
    await patient.setViewportSize({ width: 360, height: 844 });
    await expect.poll(canvasWidth).not.toBe(widthBefore);
    expect(await patient.getByTestId('consent-submit').isEnabled(), 'the signature survives a resize').toBe(
      true,
    );
    await patient.setViewportSize({ width: 390, height: 844 });
    await expect.poll(canvasWidth).toBe(widthBefore);
    expect(await patient.getByTestId('consent-submit').isEnabled()).toBe(true);
    await screenshot(patient, 'consent-sign-es-390');
    const signed = patient.waitForResponse(
      (response) => response.url().includes('/signatures') && response.request().method() === 'POST',
    );
    await patient.getByTestId('consent-submit').click();
    expect((await signed).status()).toBe(201);
    await patient.getByTestId('consent-signed').waitFor({ timeout: 20_000 });
    await patient.locator('[data-kind="telemedicine"][data-state="signed"]').waitFor();
    const width = await patient.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling at 390 px').toBeLessThanOrEqual(390);

    // In the patient's documents: the signed PDF, which opens as a PDF.
    await patient.goto(`${server.baseUrl}/portal/my-record`);
    const documentRow = patient.getByText(/consentimiento-atencion-telemedicina-v1-/);
    await documentRow.first().waitFor({ timeout: 20_000 });
    // The record's consents section says it too.
    const section = patient.getByTestId('chart-consents');
    await section.waitFor({ timeout: 20_000 });
    expect(await section.locator('[data-state="signed"]').count()).toBe(1);

    // The doctor's waiting-room card: consent v1 signed.
    const doctorContext = await browser.browser.newContext({
      locale: 'es-ES',
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Europe/Madrid',
    });
    const doctor = await doctorContext.newPage();
    await signIn(doctor, server.baseUrl, 'medico1@example.com');
    await doctor.goto(`${server.baseUrl}/admin/waiting-room`);
    const entry = doctor.locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`);
    const badge = entry.getByTestId('consent-badge');
    await badge.waitFor({ timeout: 20_000 });
    expect(await badge.getAttribute('data-state')).toBe('signed');
    expect(await badge.textContent()).toBe('Consentimiento v1 firmado');
    await screenshot(doctor, 'consent-waiting-room-es-1280');
    await context.close();
    await doctorContext.close();
  });
});
