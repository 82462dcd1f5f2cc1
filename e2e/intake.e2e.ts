import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { settle } from './support/settle.js';
import { signIn } from './support/sign-in.js';
import { prepareDoctor, prepareVisitClinic } from './support/visits.js';

/**
 * Intake questionnaires (issue 25) at phone width: the patient books with medico1, whose specialty
 * (Psiquiatría, demo seed) has PHQ-9; the appointment page lists the form; the patient answers
 * half, closes the tab, comes back to the answers kept, finishes with 2 on item 9 and sends. The
 * doctor's waiting-room card then shows the score and its band and the red item-9 flag, and the
 * answers open from the appointment. Browser in Madrid, accounts in Mexico City. Screenshots in both
 * languages at 390 and 1280 px under /tmp/shots/intake/.
 */

let server: RunningServer;
let browser: BrowserHandle;
let dataDir = '';
let doctorId = '';
let patientId = '';
const accountZone = 'America/Mexico_City';
const deviceZone = 'Europe/Madrid';
const shotDir = '/tmp/shots/intake';

type Lang = 'es' | 'en';

beforeAll(async () => {
  // A freshly seeded clinic (not the shared seeded copy): the demo attachment of PHQ-9 comes with the seed.
  dataDir = mkdtempSync(join(tmpdir(), 'telemedicina-e2e-intake-'));
  server = await startServer({ dataDir });
  browser = await launchBrowser();
  await prepareVisitClinic(server.baseUrl);
  const doctor = await prepareDoctor(server.baseUrl, 'medico1@example.com');
  doctorId = doctor.id;
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  const me = await patient.request<{ user: { id: string } }>('GET', '/me');
  patientId = me.body.user.id;
  for (const session of [doctor.session, patient]) {
    expect((await session.request('PATCH', '/me', { timeZone: accountZone })).status).toBe(200);
  }
  mkdirSync(shotDir, { recursive: true });
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dataDir !== '') {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

async function openContext(lang: Lang, width: number, height: number): Promise<BrowserContext> {
  const context = await browser.browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'es-ES',
    viewport: { width, height },
    timezoneId: deviceZone,
    hasTouch: width < 900,
  });
  await context.addInitScript((language) => {
    window.localStorage.setItem('telemedicina.language', language);
    window.sessionStorage.setItem('telemedicina.languageChosen', '1');
  }, lang);
  return context;
}

async function shot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: `${shotDir}/${name}.png`, fullPage: true });
}

/** Chooses an answer of a PHQ-9 item by its words. */
async function choose(page: Page, linkId: string, words: string): Promise<void> {
  await page.locator(`[data-linkid="${linkId}"]`).getByRole('radio', { name: words, exact: true }).check();
}

/** Waits for the autosave that follows the last change, and checks it was accepted. */
async function saved(page: Page): Promise<void> {
  const answer = await page.waitForResponse(
    (response) => response.url().includes('/intake-responses/') && response.request().method() === 'PUT',
    { timeout: 20_000 },
  );
  expect(answer.status()).toBe(200);
}

describe('intake questionnaires', () => {
  it('books, answers across a closed tab, sends; the doctor sees score, band and the item-9 flag', async () => {
    const patientContext = await openContext('es', 390, 844);
    let patient = await patientContext.newPage();
    await signIn(patient, server.baseUrl, 'paciente1@example.com');

    // Booking with medico1 (Psiquiatría has PHQ-9): the second free time on the directory card.
    await patient.goto(`${server.baseUrl}/portal/doctors`);
    const card = patient.locator(`[data-testid="list-row"][data-id="${doctorId}"]`);
    await card.getByTestId('doctor-next-slot').nth(1).click({ timeout: 20_000 });
    await patient.getByTestId('booking-form').waitFor({ timeout: 20_000 });
    await patient.getByTestId('booking-reason').fill('Control de ánimo');
    await patient.getByTestId('booking-confirm').click();
    await patient.getByTestId('appointment-doctor').waitFor({ timeout: 20_000 });
    const appointmentUrl = patient.url();
    const appointmentId = /\/appointments\/([\w-]+)/.exec(appointmentUrl)?.[1] ?? '';
    expect(appointmentId).not.toBe('');

    // The appointment page says which forms are due, without blocking anything.
    const section = patient.getByTestId('intake-section');
    await section.waitFor({ timeout: 20_000 });
    expect(await section.textContent()).toContain('Formularios antes de la consulta');
    expect(await section.textContent()).toContain('Cuestionario sobre la salud del paciente (PHQ-9)');
    expect(await section.textContent()).toContain('Pendiente');
    await shot(patient, 'appointment-forms-es-390');

    // Half the form, saved as it goes; the tab is closed.
    await section.getByRole('link', { name: /PHQ-9/ }).click();
    await patient.getByTestId('intake-title').waitFor({ timeout: 20_000 });
    const formUrl = patient.url();
    expect(formUrl).toMatch(/\/portal\/intake\/[\w-]+$/);
    for (const linkId of ['phq9-1', 'phq9-2', 'phq9-3', 'phq9-4']) {
      await choose(patient, linkId, 'Varios días');
    }
    await saved(patient);
    await patient.getByTestId('intake-save-state').and(patient.locator('[data-state="saved"]')).waitFor();
    await shot(patient, 'form-half-es-390');
    const width = await patient.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling at 390 px').toBeLessThanOrEqual(390);
    await patient.close();

    // Back later: the answers are there; the rest, with 2 ("more than half the days") on item 9.
    patient = await patientContext.newPage();
    await patient.goto(formUrl);
    await patient.getByTestId('intake-title').waitFor({ timeout: 20_000 });
    for (const linkId of ['phq9-1', 'phq9-2', 'phq9-3', 'phq9-4']) {
      expect(
        await patient
          .locator(`[data-linkid="${linkId}"]`)
          .getByRole('radio', { name: 'Varios días', exact: true })
          .isChecked(),
        `${linkId} kept after the tab was closed`,
      ).toBe(true);
    }
    // Sending now names what is missing and keeps the form open.
    await patient.getByTestId('intake-submit').click();
    const problems = patient.getByTestId('intake-problems');
    await problems.waitFor({ timeout: 20_000 });
    expect(await problems.textContent()).toContain(
      'Sin apetito o ha comido en exceso: Esta pregunta es obligatoria.',
    );
    await shot(patient, 'form-missing-es-390');

    for (const linkId of ['phq9-5', 'phq9-6', 'phq9-7', 'phq9-8']) {
      await choose(patient, linkId, 'Varios días');
    }
    await choose(patient, 'phq9-9', 'Más de la mitad de los días');
    // A problem above 0 opens the closing question (enableWhen).
    await choose(patient, 'phq9-difficulty', 'Algo difícil');
    await saved(patient);
    await patient.getByTestId('intake-submit').click();
    await patient.getByTestId('intake-done').waitFor({ timeout: 20_000 });
    expect(await patient.getByTestId('intake-done').textContent()).toContain('Respuestas enviadas');
    await shot(patient, 'form-done-es-390');

    // The doctor's waiting room: PHQ-9 10, moderate, and the item-9 flag on the card.
    const doctorContext = await openContext('es', 1280, 900);
    const doctor = await doctorContext.newPage();
    await signIn(doctor, server.baseUrl, 'medico1@example.com');
    await doctor.goto(`${server.baseUrl}/admin/waiting-room`);
    const entry = doctor.locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`);
    const score = entry.getByTestId('intake-score');
    await score.waitFor({ timeout: 20_000 });
    expect(await score.getAttribute('data-score')).toBe('10');
    expect(await score.getAttribute('data-severity')).toBe('moderate');
    expect(await score.textContent()).toBe('PHQ-9: 10 · moderada');
    const flag = entry.getByTestId('intake-self-harm-flag');
    expect(await flag.textContent()).toBe('PHQ-9 ítem 9 positivo: pensamientos de muerte o de autolesión');
    await shot(doctor, 'waiting-room-es-1280');
    await doctor.setViewportSize({ width: 390, height: 844 });
    await shot(doctor, 'waiting-room-es-390');

    // The answers, from the appointment.
    await doctor.setViewportSize({ width: 1280, height: 900 });
    await doctor.goto(`${server.baseUrl}/admin/appointments/${appointmentId}`);
    await doctor.getByTestId('intake-section').getByRole('link', { name: /PHQ-9/ }).click();
    await doctor.getByTestId('intake-answer').first().waitFor({ timeout: 20_000 });
    const answers = await doctor.getByTestId('intake-answer').allTextContents();
    expect(answers).toHaveLength(10);
    expect(answers[8]).toContain('Más de la mitad de los días');
    // When it was sent, in the doctor's zone (Mexico City), not only that it was.
    expect(await doctor.getByTestId('intake-answers-state').textContent()).toMatch(
      /^Enviado el \d{1,2} [a-z]+\.? \d{4}, \d{1,2}:\d{2} · versión \d+$/,
    );
    await shot(doctor, 'answers-es-1280');

    // The chart lists the forms with their score, newest first.
    await doctor.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    const chartRow = doctor.getByTestId('chart-intake-row').first();
    await chartRow.waitFor({ timeout: 20_000 });
    expect(await chartRow.getByTestId('intake-score').textContent()).toBe('PHQ-9: 10 · moderada');
    await shot(doctor, 'chart-es-1280');
    await doctor
      .getByTestId('intake-trend')
      .first()
      .screenshot({ path: `${shotDir}/trend-es-1280.png` });

    // English, both widths.
    const doctorEn = await (await openContext('en', 1280, 900)).newPage();
    await signIn(doctorEn, server.baseUrl, 'medico1@example.com');
    await doctorEn.goto(`${server.baseUrl}/admin/waiting-room`);
    const entryEn = doctorEn.locator(
      `[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`,
    );
    await entryEn.getByTestId('intake-score').waitFor({ timeout: 20_000 });
    expect(await entryEn.getByTestId('intake-score').textContent()).toBe('PHQ-9: 10 · moderate');
    expect(await entryEn.getByTestId('intake-self-harm-flag').textContent()).toBe(
      'PHQ-9 item 9 positive: thoughts of death or self-harm',
    );
    await shot(doctorEn, 'waiting-room-en-1280');
    await doctorEn.setViewportSize({ width: 390, height: 844 });
    await shot(doctorEn, 'waiting-room-en-390');
    // The chart's score trend in English, on a phone.
    await doctorEn.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    await doctorEn.getByTestId('intake-trend').first().waitFor({ timeout: 20_000 });
    await doctorEn.getByTestId('chart-intake').screenshot({ path: `${shotDir}/chart-intake-en-390.png` });
    await doctorEn.goto(formUrl.replace('/portal/', '/admin/'));
    await doctorEn.getByTestId('intake-answer').first().waitFor({ timeout: 20_000 });
    await shot(doctorEn, 'answers-en-390');

    const patientEn = await (await openContext('en', 390, 844)).newPage();
    await signIn(patientEn, server.baseUrl, 'paciente1@example.com');
    await patientEn.goto(appointmentUrl);
    await patientEn.getByTestId('intake-section').waitFor({ timeout: 20_000 });
    expect(await patientEn.getByTestId('intake-section').textContent()).toContain(
      'All forms have been sent.',
    );
    await shot(patientEn, 'appointment-forms-en-390');
    await patientEn.goto(formUrl);
    await patientEn.getByTestId('intake-answer').first().waitFor({ timeout: 20_000 });
    await shot(patientEn, 'form-sent-en-390');
  }, 240_000);
});
