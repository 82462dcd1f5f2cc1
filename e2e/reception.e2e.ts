import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, ok, readLatestEmail } from './support/api.js';
import { blocking, describeViolations, runAxe } from './support/axe.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/sign-in.js';
import { settle } from './support/settle.js';

/*
 * Reception's day: the receptionist signs in and lands on the clinic's day — every
 * doctor side by side, without choosing one — registers a caller and books them into a free
 * time; the appointment appears in the day. The browser runs in Madrid, the accounts live in
 * Mexico City: every time on the page is the account's.
 */

const deviceZone = 'Europe/Madrid';
const accountZone = 'America/Mexico_City';
const shots = '/tmp/shots/reception';

type Lang = 'es' | 'en';

interface Slot {
  startsAt: string;
}
interface ClinicDayAnswer {
  doctors: { id: string; name: string; freeSlots: Slot[] }[];
}

let server: RunningServer;
let browser: BrowserHandle;
let admin: ApiSession;
let reception: ApiSession;
/** A weekday a few days ahead (both demo doctors work Monday to Friday), in the account's zone. */
let day: string;
const booked: { doctor: string; patient: string; startsAt: string }[] = [];
const contexts: BrowserContext[] = [];

/** "9:30" / "9:30 AM": an instant's time of day in a zone, as the app writes it. */
function timeIn(instant: string, timeZone: string, lang: Lang = 'es'): string {
  return new Intl.DateTimeFormat(lang, { timeZone, hour: 'numeric', minute: '2-digit' }).format(
    new Date(instant),
  );
}

/** The time as a whole token ("9:30" must not match inside "19:30"). */
function tokenOf(time: string): RegExp {
  return new RegExp(`(?<![\\d:])${time.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d])`);
}

function nextWeekday(from: Date, daysAhead: number): string {
  const date = new Date(from.getTime() + daysAhead * 86_400_000);
  for (;;) {
    const local = new Intl.DateTimeFormat('en-CA', { timeZone: accountZone }).format(date);
    const weekday = new Date(`${local}T12:00:00Z`).getUTCDay();
    if (weekday !== 0 && weekday !== 6) {
      return local;
    }
    date.setTime(date.getTime() + 86_400_000);
  }
}

async function signedIn(email: string, lang: Lang, width: number): Promise<Page> {
  const context = await browser.browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'es-ES',
    timezoneId: deviceZone,
    viewport: { width, height: width < 600 ? 844 : 900 },
  });
  await context.addInitScript((language) => {
    window.localStorage.setItem('telemedicina.language', language);
    window.sessionStorage.setItem('telemedicina.languageChosen', '1');
  }, lang);
  contexts.push(context);
  const page = await context.newPage();
  await signIn(page, server.baseUrl, email, { landsOn: /^\/admin(\/|$)/ });
  return page;
}

/** The clinic's day of `day` on the page, drawn. */
async function openDay(page: Page): Promise<void> {
  await page.goto(`${server.baseUrl}/admin?date=${day}`);
  await page.getByTestId('clinic-day-column').first().waitFor({ timeout: 20_000 });
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launchBrowser();
  admin = new ApiSession(server.baseUrl);
  await admin.signIn('admin@example.com');
  reception = new ApiSession(server.baseUrl);
  await reception.signIn('recepcion@example.com');
  await ok(reception.request('PATCH', '/me', { timeZone: accountZone, language: 'es' }), 'PATCH /me');
  day = nextWeekday(new Date(), 3);
  // Reception books one appointment with each doctor, through the API, for the demo patient.
  const patients = await ok(
    reception.request<{ data: { id: string; name: string }[] }>('GET', '/patients/lookup?q=paciente1'),
    'GET /patients/lookup',
  );
  const patient = patients.data[0]!;
  const clinicDay = await ok(reception.request<ClinicDayAnswer>('GET', `/clinic-day?date=${day}`), 'day');
  for (const doctorName of ['Dra. Lucía Martínez', 'Dr. Javier Gómez']) {
    const doctor = clinicDay.doctors.find((entry) => entry.name === doctorName);
    const slot = doctor?.freeSlots.at(-1);
    if (!doctor || !slot) {
      throw new Error(`No free time for ${doctorName} on ${day}: ${JSON.stringify(clinicDay)}`);
    }
    await ok(
      reception.request('POST', '/appointments', {
        doctorId: doctor.id,
        patientId: patient.id,
        startsAt: slot.startsAt,
        reason: 'Revisión de resultados',
      }),
      'POST /appointments',
    );
    booked.push({ doctor: doctorName, patient: patient.name, startsAt: slot.startsAt });
  }
}, 360_000);

afterAll(async () => {
  for (const context of contexts) {
    await context.close().catch(() => {});
  }
  await browser?.close();
  await server?.stop();
});

describe("reception's day", () => {
  it('lands on every doctor side by side, registers a caller and books them into a free time', async () => {
    const page = await signedIn('recepcion@example.com', 'es', 1280);
    // The start page is the day (today); the date picker moves it.
    await page.getByTestId('clinic-day').waitFor({ timeout: 20_000 });
    await page.getByTestId('clinic-day-date').fill(day);
    await page.waitForURL(new RegExp(`date=${day}`), { timeout: 20_000 });
    await page.getByTestId('clinic-day-column').first().waitFor({ timeout: 20_000 });

    for (const entry of booked) {
      const column = page.getByTestId('clinic-day-column').filter({ hasText: entry.doctor });
      const appointment = column
        .getByTestId('clinic-day-appointment')
        .filter({ hasText: tokenOf(timeIn(entry.startsAt, accountZone)) })
        .filter({ hasText: entry.patient });
      await appointment.first().waitFor({ timeout: 20_000 });
      expect(await appointment.first().innerText()).toContain('Aún no llega');
      // The device's clock (Madrid) is not the page's.
      expect(await appointment.first().innerText()).not.toMatch(tokenOf(timeIn(entry.startsAt, deviceZone)));
    }
    await settle(page);
    const found = blocking(await runAxe(page, { exclude: ['[data-testid="user-menu-button"]'] }));
    expect(found, describeViolations(found)).toEqual([]);

    // A caller: a free time of the first doctor, then "register patient".
    const column = page.getByTestId('clinic-day-column').filter({ hasText: 'Dra. Lucía Martínez' });
    const free = column.getByTestId('clinic-day-free').first();
    const startsAt = (await free.getAttribute('data-starts-at'))!;
    await free.click();
    const dialog = page.getByTestId('reception-booking-dialog');
    await dialog.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('reception-booking-when').innerText()).toMatch(
      tokenOf(timeIn(startsAt, accountZone)),
    );
    await settle(page);
    const onDialog = blocking(await runAxe(page, { exclude: ['[data-testid="user-menu-button"]'] }));
    expect(onDialog, describeViolations(onDialog)).toEqual([]);
    await page.getByTestId('reception-booking-register').click();
    await page.getByTestId('register-patient-form').waitFor({ timeout: 20_000 });
    await settle(page);
    const onForm = blocking(await runAxe(page, { exclude: ['[data-testid="user-menu-button"]'] }));
    expect(onForm, describeViolations(onForm)).toEqual([]);
    // Keyboard: the cursor is in the form's first field.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'register-patient-name',
    );
    const email = `llamada.${Date.now()}@example.com`;
    await page.getByTestId('register-patient-name').fill('Tomás Llamada Nueva');
    await page.getByTestId('register-patient-phone').fill('+52 55 4444 3333');
    await page.getByTestId('register-patient-date-of-birth').fill('1990-05-17');
    await page.getByTestId('register-patient-email').fill(email);
    await page.getByTestId('register-patient-submit').click();
    await page.getByTestId('reception-booking-invited').waitFor({ timeout: 20_000 });
    // Next comes the reason: the cursor is there.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('reception-booking-reason');
    expect(await page.getByTestId('reception-booking-patient').innerText()).toContain('Tomás Llamada Nueva');
    await page.getByTestId('reception-booking-reason').fill('Dolor de garganta y fiebre desde ayer');
    await page.getByTestId('reception-booking-confirm').click();
    await page.getByTestId('clinic-day-booked').waitFor({ timeout: 20_000 });

    // The new appointment is in the day, in the doctor's column, at the account's time.
    const added = column
      .getByTestId('clinic-day-appointment')
      .filter({ hasText: 'Tomás Llamada Nueva' })
      .filter({ hasText: tokenOf(timeIn(startsAt, accountZone)) });
    await added.waitFor({ timeout: 20_000 });
    // The invitation email does the rest: the patient sets a password through its link.
    const invitation = await readLatestEmail(admin, email, 'invitation');
    expect(invitation.text).toContain('/accept-invitation?token=');
  });

  it('looks right in Spanish and English, on a phone and a desktop (screenshots)', async () => {
    for (const lang of ['es', 'en'] as const) {
      for (const width of [390, 1280]) {
        const page = await signedIn('recepcion@example.com', lang, width);
        await openDay(page);
        await settle(page);
        await page.screenshot({ path: `${shots}/day-${lang}-${width}.png`, fullPage: true });
        // The columns scroll inside the day; the page itself never scrolls sideways.
        const overflow = await page.evaluate((limit) => {
          // What sticks out (the columns' own scroll area aside), to name it when the page is too wide.
          const wide = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((element) => element.getBoundingClientRect().right > limit + 1)
            .filter((element) => !element.closest('[data-testid="clinic-day-column"]'))
            .slice(0, 5)
            .map(
              (element) => `${element.tagName}.${element.className} ${element.getBoundingClientRect().right}`,
            );
          return { width: document.documentElement.scrollWidth, wide };
        }, width);
        expect(overflow.width, overflow.wide.join('\n')).toBeLessThanOrEqual(width);
        if (width === 1280 || lang === 'es') {
          await page.getByTestId('clinic-day-free').first().click();
          await page.getByTestId('reception-booking-dialog').waitFor({ timeout: 20_000 });
          await page.getByTestId('reception-booking-search').fill('paciente');
          await page.getByTestId('reception-booking-match').first().waitFor({ timeout: 20_000 });
          await settle(page);
          await page.screenshot({ path: `${shots}/booking-${lang}-${width}.png` });
          await page.getByTestId('reception-booking-register').click();
          await page.getByTestId('register-patient-form').waitFor({ timeout: 20_000 });
          await settle(page);
          await page.screenshot({ path: `${shots}/register-${lang}-${width}.png` });
        }
        if (width === 1280) {
          // The agenda without a chosen doctor is the same day, under the doctor picker.
          await page.goto(`${server.baseUrl}/admin/agenda?date=${day}`);
          await page.getByTestId('clinic-day-column').first().waitFor({ timeout: 20_000 });
          await settle(page);
          await page.screenshot({ path: `${shots}/agenda-${lang}-${width}.png` });
        }
        await page.context().close();
      }
    }
  });
});
