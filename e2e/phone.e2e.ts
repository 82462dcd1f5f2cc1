/// <reference lib="dom" />
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { expectNoSeriousViolations } from './support/axe.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { repoRoot, startServer, type RunningServer } from './support/server.js';
import { signIn } from './support/sign-in.js';
import { settle } from './support/settle.js';
import { prepareDoctor, prepareVisitClinic, waitForRemoteVideos } from './support/visits.js';
import { callWatch, watchCalls } from './support/call-watch.js';
import { clickThrough } from './support/navigation.js';

/**
 * Phone widths (360 and 390 px, and 844×390 on its side), where most patients are: the directory, the booking, the
 * visit page and the call. No doctor name is broken inside a word (each word's text lies on one
 * line, measured with a Range per word, and the name's box is as wide as its longest word), and
 * the patient's hang-up is visible and inside the screen in the call, upright and on its side.
 * One server, one booking; the device's zone (Europe/Madrid) differs from the accounts'.
 */

let server: RunningServer;
let browser: BrowserHandle;
let doctorId = '';
let patientApi: ApiSession;
let doctorApi: ApiSession;
/** A long name with a long word: what the old table squeezed to one letter a line. */
const doctorName = 'Dra. María Guadalupe Fernández-Villaseñor';
const accountZone = 'America/Mexico_City';
const deviceZone = 'Europe/Madrid';
const shotDir = '/tmp/shots/phone-first';
/** The doctor's waiting room with the camera preview, both languages, desktop and phone. */
const waitingRoomShotDir = join(repoRoot, 'test-results', 'screenshots');
/** As in a11y.e2e.ts: the user menu's avatar initials are decoration axe still counts as visible text. */
const axeOptions = { exclude: ['[data-testid="user-menu-button"]'] };

type Lang = 'es' | 'en';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser({ fakeMedia: true });
  await prepareVisitClinic(server.baseUrl);
  const doctor = await prepareDoctor(server.baseUrl, 'medico1@example.com');
  doctorId = doctor.id;
  doctorApi = doctor.session;
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  patientApi = patient;
  for (const [session, body] of [
    [doctor.session, { name: doctorName, timeZone: accountZone }],
    [patient, { timeZone: accountZone }],
  ] as const) {
    const answer = await session.request('PATCH', '/me', body);
    expect(answer.status).toBe(200);
  }
  mkdirSync(shotDir, { recursive: true });
  mkdirSync(waitingRoomShotDir, { recursive: true });
}, 360_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openContext(lang: Lang, width: number, height: number): Promise<BrowserContext> {
  const context = await browser.browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'es-ES',
    viewport: { width, height },
    timezoneId: deviceZone,
    hasTouch: width < 900,
  });
  // The first page of the context starts in `lang`; a later switch survives reloads.
  await context.addInitScript((language) => {
    if (window.localStorage.getItem('telemedicina.language') === null) {
      window.localStorage.setItem('telemedicina.language', language);
      window.sessionStorage.setItem('telemedicina.languageChosen', '1');
    }
  }, lang);
  return context;
}

async function shot(page: Page, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: `${shotDir}/${name}.png` });
  await screenshot(page, `phone-${name}`);
}

interface NameLayout {
  text: string;
  /** Words (split at spaces and hyphens) whose letters lie on more than one line. */
  brokenWords: string[];
  scrollWidth: number;
  clientWidth: number;
  width: number;
  longestWord: number;
}

/** How each element matching `selector` lays out its text (see {@link NameLayout}). */
async function nameLayouts(page: Page, selector: string): Promise<NameLayout[]> {
  return page.locator(selector).evaluateAll((elements) =>
    elements
      .filter((element) => (element as HTMLElement).offsetParent !== null)
      .map((element) => {
        const brokenWords: string[] = [];
        let longestWord = 0;
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          // Words as a reader sees them: a compound surname may wrap after its hyphen.
          for (const match of text.matchAll(/[^\s-]+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
            const lines = new Set(rects.map((rect) => Math.round(rect.top)));
            if (lines.size > 1) {
              brokenWords.push(match[0]);
            }
            longestWord = Math.max(longestWord, range.getBoundingClientRect().width);
          }
        }
        const box = element.getBoundingClientRect();
        return {
          text: (element.textContent ?? '').trim(),
          brokenWords,
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
          width: box.width,
          longestWord,
        };
      }),
  );
}

/** Every visible doctor name on the page reads whole: no word broken, nothing cut off. */
async function expectNamesWhole(page: Page, selector: string, where: string): Promise<void> {
  const layouts = await nameLayouts(page, selector);
  expect(layouts.length, `${where}: names shown`).toBeGreaterThan(0);
  for (const layout of layouts) {
    expect(layout.brokenWords, `${where}: "${layout.text}" broken inside a word`).toEqual([]);
    expect(layout.scrollWidth, `${where}: "${layout.text}" overflows`).toBeLessThanOrEqual(
      layout.clientWidth,
    );
    expect(
      layout.width + 0.5,
      `${where}: "${layout.text}" narrower than its longest word`,
    ).toBeGreaterThanOrEqual(layout.longestWord);
  }
}

/** Names whole at 390 and then 360 px wide (the page stays at 360). */
async function namesWholeAtPhoneWidths(page: Page, selector: string, where: string): Promise<void> {
  for (const width of [390, 360]) {
    await page.setViewportSize({ width, height: 800 });
    await expectNamesWhole(page, selector, `${where} @${width}`);
  }
}

/** The element is shown and lies entirely inside the viewport. */
async function expectInViewport(page: Page, testId: string, where: string): Promise<void> {
  const target = page.getByTestId(testId);
  expect(await target.isVisible(), `${where}: ${testId} visible`).toBe(true);
  const box = await target.boundingBox();
  const viewport = page.viewportSize();
  expect(box, `${where}: ${testId} has a box`).not.toBeNull();
  expect(viewport).not.toBeNull();
  expect(box!.x, `${where}: left`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${where}: top`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${where}: right`).toBeLessThanOrEqual(viewport!.width);
  expect(box!.y + box!.height, `${where}: bottom`).toBeLessThanOrEqual(viewport!.height);
  // Nothing lies on top of it: a tap there reaches the button.
  const isOnTop = await target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && element.contains(hit);
  });
  expect(isOnTop, `${where}: ${testId} not covered`).toBe(true);
}

/** The directory through the navigation the patient sees (top links on a desktop, bottom bar on a phone). */
/** Opens the filters sheet and waits until it has slid fully into view. */
async function openFiltersSheet(page: Page): Promise<void> {
  await page.getByTestId('doctors-filters-open').click();
  await page.waitForFunction(
    () => {
      const done = document.querySelector('[data-testid="doctors-filters-done"]');
      const rect = done?.getBoundingClientRect();
      return rect !== undefined && rect.top >= 0 && rect.bottom <= window.innerHeight;
    },
    undefined,
    { timeout: 10_000 },
  );
  await settle(page);
  // The sheet's controls all fit on the screen.
  await expectInViewport(page, 'doctors-filter-specialty', 'filters sheet');
  await expectInViewport(page, 'doctors-filters-done', 'filters sheet');
}

async function openDirectory(page: Page): Promise<void> {
  await clickThrough(
    page,
    page
      .locator('[data-testid="portal-nav-doctors"]:visible, [data-testid="admin-nav-doctors"]:visible')
      .first(),
    page.getByTestId('list-row').first(),
    'phone: the directory from the navigation',
  );
  await page.getByTestId('doctor-next-slot').first().waitFor({ timeout: 20_000 });
}

describe('phone widths', () => {
  it('directory, booking, visit and call at 360/390 px: names whole, the patient can hang up', async () => {
    const patientContext = await openContext('es', 390, 844);
    await watchCalls(patientContext);
    const patient = await patientContext.newPage();
    await signIn(patient, server.baseUrl, 'paciente1@example.com');

    // The directory: cards, names whole at 390 and 360 px, filters in a sheet.
    await openDirectory(patient);
    const card = patient.locator(`[data-testid="list-row"][data-id="${doctorId}"]`);
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('doctor-row-name').textContent()).toBe(doctorName);
    for (const width of [390, 360, 320]) {
      await patient.setViewportSize({ width, height: 800 });
      await expectNamesWhole(patient, '[data-testid="doctor-row-name"]', `directory @${width}`);
      const pageWidth = await patient.evaluate(() => document.documentElement.scrollWidth);
      expect(pageWidth, `directory @${width}: no sideways scrolling`).toBeLessThanOrEqual(width);
      await shot(patient, `directory-es-${width}`);
      await expectNoSeriousViolations(patient, `directory @${width}`, axeOptions);
      await openFiltersSheet(patient);
      await shot(patient, `directory-filters-es-${width}`);
      await expectNoSeriousViolations(patient, `directory filters sheet @${width}`, axeOptions);
      await patient.getByTestId('doctors-filters-done').click();
      await patient.getByTestId('doctors-filter-specialty').waitFor({ state: 'detached' });
    }

    // Booking: a free time on the card opens the booking of that time on the doctor's page (the
    // second one: the first, starting within a minute, may have begun by the time this clicks).
    await card.getByTestId('doctor-next-slot').nth(1).click();
    await patient.getByTestId('booking-form').waitFor({ timeout: 20_000 });
    await namesWholeAtPhoneWidths(patient, '[data-testid="doctor-name"]', 'doctor page');
    await shot(patient, 'booking-es-360');
    await patient.getByTestId('booking-reason').fill('Consulta desde el teléfono');
    await patient.getByTestId('booking-confirm').click();
    await patient.getByTestId('appointment-doctor').waitFor({ timeout: 20_000 });
    await namesWholeAtPhoneWidths(patient, '[data-testid="appointment-doctor"]', 'appointment');

    // The visit page: device check, check-in, waiting (name whole in the title).
    await patient.getByTestId('appointment-join-visit').click({ timeout: 20_000 });
    await patient.getByTestId('device-check').waitFor({ timeout: 20_000 });
    await patient.getByTestId('device-check-risk').waitFor({ timeout: 20_000 });
    await patient.getByTestId('device-check-play').click();
    await patient.getByTestId('device-check-heard').click({ timeout: 10_000 });
    await patient.getByTestId('device-check-save').click();
    await patient.getByTestId('visit-check-in').click({ timeout: 20_000 });
    await patient.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
    await namesWholeAtPhoneWidths(patient, '[data-testid="visit-title"]', 'visit page');
    const appointmentId = /\/visits\/([\w-]+)/.exec(patient.url())?.[1] ?? '';
    expect(appointmentId).not.toBe('');

    // The doctor admits from the waiting room, where the camera and microphone are ready and the
    // call is prepared while the patient waits; nobody sees or hears anyone before admission.
    const doctorContext = await openContext('en', 1280, 800);
    await watchCalls(doctorContext);
    const doctor = await doctorContext.newPage();
    await signIn(doctor, server.baseUrl, 'medico1@example.com');
    const entry = doctor.locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`);
    const openWaitingRoom = async (lang: Lang) => {
      expect((await doctorApi.request('PATCH', '/me', { language: lang })).status).toBe(200);
      await doctor.evaluate(
        (language) => window.localStorage.setItem('telemedicina.language', language),
        lang,
      );
      await doctor.goto(`${server.baseUrl}/admin/waiting-room`);
      await entry.waitFor({ timeout: 20_000 });
      await expect
        .poll(() => entry.getByTestId('waiting-room-online').getAttribute('data-online'), { timeout: 20_000 })
        .toBe('true');
      const preview = doctor.getByTestId('admission-preview');
      await expect.poll(() => preview.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
      await expect.poll(() => preview.getAttribute('data-prepared'), { timeout: 20_000 }).toBe('1');
      await doctor.waitForFunction(
        () =>
          (document.querySelector<HTMLVideoElement>('[data-testid="admission-preview-tile-video"]')
            ?.videoWidth ?? 0) > 0,
        undefined,
        { timeout: 20_000 },
      );
      expect(await doctor.getByTestId('admission-preview-status').textContent()).toBe(
        lang === 'es' ? 'Cámara y micrófono listos' : 'Camera and microphone ready',
      );
    };
    for (const lang of ['es', 'en'] as const) {
      await openWaitingRoom(lang);
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await doctor.setViewportSize({ width, height });
        await settle(doctor);
        const pageWidth = await doctor.evaluate(() => document.documentElement.scrollWidth);
        expect(pageWidth, `waiting room ${lang} @${width}: no sideways scrolling`).toBeLessThanOrEqual(width);
        await doctor.screenshot({
          path: join(waitingRoomShotDir, `waiting-room-preview-${lang}-${width}.png`),
          fullPage: true,
        });
        await expectNoSeriousViolations(doctor, `waiting room with preview ${lang} @${width}`, axeOptions);
      }
    }
    await doctor.setViewportSize({ width: 1280, height: 800 });
    // Prepared, not sent: neither page has received a track, and the patient has no call on screen.
    expect((await callWatch(patient)).remoteTracks).toBe(0);
    expect((await callWatch(doctor)).remoteTracks).toBe(0);
    expect(await patient.getByTestId('visit-remote').count()).toBe(0);
    await expect.poll(async () => (await callWatch(doctor)).offers, { timeout: 10_000 }).toBe(1);
    const before = await callWatch(doctor);
    await entry.getByTestId('waiting-room-admit').click();
    await doctor.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await patient.getByTestId('visit-call').waitFor({ timeout: 30_000 });
    await waitForRemoteVideos(patient, 1);
    await waitForRemoteVideos(doctor, 1);
    // The call took the preview's camera and the prepared offer: no second camera, no second offer.
    const after = await callWatch(doctor);
    expect(after.mediaRequests, 'camera asked once').toBe(before.mediaRequests);
    expect(after.offers, 'no offer after admission').toBe(before.offers);

    // The call: the hang-up in view, upright and on its side, at each width (and on a desktop).
    for (const [width, height] of [
      [360, 780],
      [390, 844],
      [844, 390],
      [1280, 800],
    ] as const) {
      await patient.setViewportSize({ width, height });
      await settle(patient);
      const where = `call @${width}×${height}`;
      await expectInViewport(patient, 'visit-leave', where);
      await expectInViewport(patient, 'visit-mute', where);
      await expectNamesWhole(patient, '[data-testid="visit-remote"] [class*="tileLabel"]', where);
      // The own view stays small: under a third of the screen's area.
      const self = await patient.getByTestId('visit-self').boundingBox();
      expect(self!.width * self!.height, `${where}: self-view small`).toBeLessThan((width * height) / 6);
      const timer = patient.getByTestId('visit-call-timer');
      expect(await timer.getAttribute('data-variant'), `${where}: no recording-like dot`).not.toBe('dot');
      await shot(patient, `call-es-${width}x${height}`);
      await expectNoSeriousViolations(patient, where, axeOptions);
    }
    await shot(doctor, 'call-doctor-en-1280');
    // The doctor on a phone too: the end of the visit in reach, the tools behind "more".
    for (const [width, height] of [
      [390, 844],
      [844, 390],
    ] as const) {
      await doctor.setViewportSize({ width, height });
      await settle(doctor);
      await expectInViewport(doctor, 'visit-end', `doctor's call @${width}×${height}`);
      await expectInViewport(doctor, 'visit-more', `doctor's call @${width}×${height}`);
      await shot(doctor, `call-doctor-en-${width}x${height}`);
    }
    await doctor.setViewportSize({ width: 1280, height: 800 });

    // Hang up, come back.
    await patient.setViewportSize({ width: 390, height: 844 });
    await patient.getByTestId('visit-leave').click();
    await patient.getByTestId('visit-leave-dialog-confirm').click();
    await patient.getByTestId('visit-left').waitFor({ timeout: 20_000 });
    await expect.poll(() => doctor.getByTestId('visit-remote').count(), { timeout: 20_000 }).toBe(0);
    await shot(patient, 'call-left-es-390');
    await patient.getByTestId('visit-rejoin').click();
    await patient.getByTestId('visit-call').waitFor({ timeout: 30_000 });
    await waitForRemoteVideos(patient, 1);

    // The same call in English (the page reloads into the call).
    // (The account's language wins over the device's: switch it, as the language menu does.)
    expect((await patientApi.request('PATCH', '/me', { language: 'en' })).status).toBe(200);
    await patient.evaluate(() => window.localStorage.setItem('telemedicina.language', 'en'));
    await patient.reload();
    await patient.getByTestId('visit-call').waitFor({ timeout: 30_000 });
    await waitForRemoteVideos(patient, 1);
    for (const [width, height] of [
      [360, 780],
      [390, 844],
      [844, 390],
      [1280, 800],
    ] as const) {
      await patient.setViewportSize({ width, height });
      await settle(patient);
      await expectInViewport(patient, 'visit-leave', `call (en) @${width}×${height}`);
      await shot(patient, `call-en-${width}x${height}`);
    }

    expect(await patient.getByTestId('visit-leave').textContent()).toBe('Leave the call');
    await patient.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => patient.getByTestId('visit-leave').getAttribute('aria-label'))
      .toBe('Leave the call');
    expect((await patientApi.request('PATCH', '/me', { language: 'es' })).status).toBe(200);
    await doctorContext.close();
    await patientContext.close();
  });

  it('the directory in both languages at 360, 390 and 1280 px (filters sheet open on phones)', async () => {
    for (const lang of ['es', 'en'] as const) {
      const context = await openContext(lang, 1280, 800);
      const page = await context.newPage();
      await signIn(page, server.baseUrl, 'paciente1@example.com');
      await openDirectory(page);
      await expectNamesWhole(page, '[data-testid="doctor-row-name"]', `directory ${lang} @1280`);
      expect(await page.getByTestId('doctors-filter-specialty').isVisible()).toBe(true);
      await shot(page, `directory-${lang}-1280`);
      for (const width of [360, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await expectNamesWhole(page, '[data-testid="doctor-row-name"]', `directory ${lang} @${width}`);
        await openFiltersSheet(page);
        await shot(page, `directory-filters-${lang}-${width}`);
        await page.getByTestId('doctors-filters-done').click();
        await page.getByTestId('doctors-filter-language').waitFor({ state: 'detached' });
      }
      await context.close();
    }
  });
});
