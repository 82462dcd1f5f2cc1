import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: BrowserHandle;

type Lang = 'es' | 'en';
type Viewport = 'desktop' | 'phone';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openPage(viewport: Viewport, lang: Lang): Promise<Page> {
  const context = await newContext(browser.browser, { locale: lang === 'en' ? 'en-US' : 'es-ES', viewport });
  await context.addInitScript((language) => {
    window.localStorage.setItem('telemedicina.language', language);
    window.sessionStorage.setItem('telemedicina.languageChosen', '1');
  }, lang);
  return context.newPage();
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/`);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill('Telemedicina2026!');
  await page.getByTestId('signin-submit').click();
  await expect.poll(() => pathOf(page), { timeout: 15_000 }).toMatch(/^\/admin/);
}

/** Waits for the slot picker to show free times, moving to the next week while one has none. */
async function waitForSlots(page: Page): Promise<void> {
  for (let week = 0; week < 4; week += 1) {
    const slot = page.getByTestId('slot-picker-slot').first();
    const empty = page.getByTestId('slot-picker-empty');
    await slot.or(empty).first().waitFor({ timeout: 15_000 });
    if (await slot.isVisible()) {
      return;
    }
    await page.getByTestId('slot-picker-next').click();
    await page.waitForTimeout(400);
  }
  throw new Error('No free slots in four weeks');
}

describe('booking in the browser', () => {
  let appointmentPath = '';

  it('a patient finds a doctor by specialty, books a free time and sees the appointment', async () => {
    const page = await openPage('desktop', 'es');
    await signIn(page, 'paciente1@example.com');
    await page.goto(`${server.baseUrl}/admin/doctors`);
    await page.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('doctors-filter-specialty').selectOption({ label: 'Pediatría' });
    await expect.poll(() => new URL(page.url()).searchParams.has('specialtyId')).toBe(true);
    await expect.poll(() => page.getByTestId('list-row').count(), { timeout: 15_000 }).toBe(1);
    const name = (await page.getByTestId('doctor-row-name').first().textContent()) ?? '';
    expect(await page.getByTestId('doctor-row-specialties').first().textContent()).toContain('Pediatría');

    await page.getByTestId('list-row-link').first().click();
    await expect.poll(() => page.getByTestId('doctor-name').textContent(), { timeout: 15_000 }).toBe(name);
    await waitForSlots(page);
    await page.getByTestId('slot-picker-slot').first().click();
    await page.getByTestId('booking-form').waitFor();
    await page.getByTestId('booking-reason').fill('Control de la tos de mi hijo');
    await page.getByTestId('booking-confirm').click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toMatch(/^\/admin\/appointments\/[\w-]+$/);
    appointmentPath = pathOf(page);
    await expect
      .poll(() => page.getByTestId('appointment-doctor').textContent(), { timeout: 15_000 })
      .toBe(name);
    expect(await page.getByTestId('appointment-reason').textContent()).toBe('Control de la tos de mi hijo');

    await page.goto(`${server.baseUrl}/admin/appointments`);
    await page.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('appointments-table').textContent()).toContain(name);
    await page.context().close();
  });

  for (const lang of ['es', 'en'] as const) {
    for (const viewport of ['desktop', 'phone'] as const) {
      it(`screens in ${lang} on ${viewport}`, async () => {
        const page = await openPage(viewport, lang);
        await signIn(page, 'paciente1@example.com');
        const suffix = `${lang}-${viewport}`;
        await page.goto(`${server.baseUrl}/admin/doctors`);
        await page.getByTestId('doctor-next-slot').first().waitFor({ timeout: 15_000 });
        await screenshot(page, `booking-directory-${suffix}`);

        await page.getByTestId('list-row-link').first().click();
        await page.getByTestId('doctor-name').waitFor({ timeout: 15_000 });
        await waitForSlots(page);
        await screenshot(page, `booking-doctor-${suffix}`);
        await page.getByTestId('slot-picker-slot').first().click();
        await page.getByTestId('booking-form').waitFor();
        await page.waitForTimeout(400);
        await screenshot(page, `booking-modal-${suffix}`);
        await page.getByTestId('booking-cancel').click();

        await page.goto(`${server.baseUrl}/admin/appointments`);
        await page.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
        await screenshot(page, `booking-appointments-${suffix}`);
        if (appointmentPath) {
          await page.goto(`${server.baseUrl}${appointmentPath}`);
          await page.getByTestId('appointment-doctor').waitFor({ timeout: 15_000 });
          await screenshot(page, `booking-appointment-${suffix}`);
        }
        await page.context().close();
      });
    }
  }
  it('the patient moves the appointment to another free time, then cancels it', async () => {
    expect(appointmentPath).not.toBe('');
    const page = await openPage('desktop', 'es');
    await signIn(page, 'paciente1@example.com');
    await page.goto(`${server.baseUrl}${appointmentPath}`);
    const before = await page.getByTestId('appointment-when').textContent();
    await page.getByTestId('appointment-reschedule').click();
    await page.getByTestId('reschedule-dialog').waitFor();
    await waitForSlots(page);
    // The last free time of the week shown: not the current one.
    await page.getByTestId('slot-picker-slot').last().click();
    await screenshot(page, 'booking-reschedule-es-desktop');
    await page.getByTestId('reschedule-confirm').click();
    await expect
      .poll(() => page.getByTestId('appointment-when').textContent(), { timeout: 15_000 })
      .not.toBe(before);

    await page.getByTestId('appointment-cancel').click();
    await page.getByTestId('cancel-reason').fill('Ya me encuentro mejor');
    await page.getByTestId('cancel-dialog-confirm').click();
    await expect
      .poll(() => page.getByTestId('appointment-status').textContent(), { timeout: 15_000 })
      .toBe('Cancelada');
    await page.context().close();
  });
});
