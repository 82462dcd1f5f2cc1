import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { demoPassword } from './support/sign-in.js';
import { settle } from './support/settle.js';
import { prepareDoctor, prepareVisitClinic } from './support/visits.js';

/**
 * Keyboard only: a patient signs in, finds a doctor, books a time, checks the devices, checks in and
 * waits; the doctor (keyboard too) admits; both reach the call. Only `page.keyboard` acts (Tab,
 * Shift+Tab, Enter, Space, typing, Escape) — no mouse, no `element.click()`. Every element focused
 * on the way must show a focus indicator, and outside dialogs Tab must be able to leave every
 * region (no focus trap).
 */

let server: RunningServer;
let browser: BrowserHandle;
let doctorName = '';

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser({ fakeMedia: true });
  await prepareVisitClinic(server.baseUrl);
  // Five-minute visits from now on: the first free slot opens for check-in at once.
  const doctor = await prepareDoctor(server.baseUrl, 'medico2@example.com');
  const me = await doctor.session.request<{ user: { name: string } }>('GET', '/me');
  doctorName = me.body.user.name;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function openContext(): Promise<BrowserContext> {
  const context = await newContext(browser.browser, { locale: 'es-ES', viewport: 'desktop' });
  await context.addInitScript(() => {
    window.localStorage.setItem('telemedicina.language', 'es');
    window.sessionStorage.setItem('telemedicina.languageChosen', '1');
  });
  return context;
}

interface Focused {
  testId: string | null;
  tag: string;
  text: string;
  inDialog: boolean;
  region: string;
  indicator: string | null;
}

/** What has focus now, where it is, and how it shows (outline, box-shadow or a changed border). */
async function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) {
      return { testId: null, tag: 'body', text: '', inDialog: false, region: 'none', indicator: null };
    }
    const withTestId = element.closest<HTMLElement>('[data-testid]');
    // The focused element, or the wrapper that draws its frame (Mantine's PasswordInput, for one).
    const candidates = [element, element.parentElement, element.parentElement?.parentElement].filter(
      (item): item is HTMLElement => item !== null && item !== undefined,
    );
    let indicator: string | null = null;
    for (const candidate of candidates) {
      const style = getComputedStyle(candidate);
      if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) {
        indicator = `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`;
        break;
      }
    }
    if (indicator === null) {
      const boxShadow = getComputedStyle(element).boxShadow;
      if (boxShadow !== 'none') {
        indicator = `box-shadow ${boxShadow}`;
      }
    }
    if (indicator === null) {
      // Inputs show focus by their (or their wrapper's) border colour: compare with the same
      // elements unfocused, transitions off so both readings are final values.
      const transitions = candidates.map((candidate) => candidate.style.transition);
      candidates.forEach((candidate) => (candidate.style.transition = 'none'));
      const focusedBorders = candidates.map((candidate) => getComputedStyle(candidate).borderColor);
      element.blur();
      const restingBorders = candidates.map((candidate) => getComputedStyle(candidate).borderColor);
      element.focus();
      candidates.forEach((candidate, index) => (candidate.style.transition = transitions[index] ?? ''));
      const changed = focusedBorders.findIndex((border, index) => border !== restingBorders[index]);
      if (changed !== -1) {
        indicator = `border ${restingBorders[changed]} → ${focusedBorders[changed]}`;
      }
    }
    const region = element.closest('header, nav, main, [role="dialog"], footer, aside');
    return {
      testId: element.dataset.testid ?? withTestId?.dataset.testid ?? null,
      tag: element.tagName.toLowerCase(),
      text: (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 60),
      inDialog: element.closest('[role="dialog"], [aria-modal="true"]') !== null,
      region: region ? (region.getAttribute('role') ?? region.tagName.toLowerCase()) : 'page',
      indicator,
    };
  });
}

const walked: string[] = [];

/**
 * Presses Tab (or Shift+Tab) until the focused element is `testId` (or inside it, or `match`
 * accepts it), checking that every element focused on the way shows focus.
 */
async function tabTo(
  page: Page,
  testId: string,
  options: { reverse?: boolean; max?: number; match?: (item: Focused) => boolean } = {},
): Promise<Focused> {
  const max = options.max ?? 80;
  const seen: string[] = [];
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press(options.reverse ? 'Shift+Tab' : 'Tab');
    const item = await focused(page);
    seen.push(`${item.testId ?? item.tag}${item.text ? ` "${item.text}"` : ''}`);
    if (item.tag !== 'body' && item.indicator === null) {
      throw new Error(`No visible focus on ${item.tag} ${item.testId ?? ''} "${item.text}" (${page.url()})`);
    }
    if (item.testId === testId || options.match?.(item)) {
      walked.push(`${testId} after ${press + 1} × ${options.reverse ? 'Shift+Tab' : 'Tab'}`);
      return item;
    }
  }
  throw new Error(
    `Tab never reached ${testId} in ${max} presses on ${page.url()}; focus went: ${seen.join(' → ')}`,
  );
}

/**
 * Outside dialogs, Tab walks out of every region and around the page: within `max` presses the
 * focus must come back to where it started after visiting at least the header and the main area.
 */
async function expectNoFocusTrap(page: Page, max = 200): Promise<void> {
  const start = await focused(page);
  const regions = new Set<string>();
  const startKey = `${start.testId}|${start.text}`;
  for (let press = 0; press < max; press += 1) {
    await page.keyboard.press('Tab');
    const item = await focused(page);
    if (item.inDialog) {
      throw new Error(`Focus entered a dialog while walking the page (${item.testId ?? item.tag})`);
    }
    regions.add(item.region);
    if (press > 0 && `${item.testId}|${item.text}` === startKey) {
      expect([...regions]).toEqual(expect.arrayContaining(['header', 'main']));
      return;
    }
  }
  throw new Error(
    `Focus did not come back around the page in ${max} Tabs; regions seen: ${[...regions].join(', ')}`,
  );
}

async function typeInto(page: Page, testId: string, text: string): Promise<void> {
  await tabTo(page, testId);
  await page.keyboard.type(text);
}

async function signInByKeyboard(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/`);
  await page.getByTestId('signin-email').waitFor();
  await typeInto(page, 'signin-email', email);
  await typeInto(page, 'signin-password', demoPassword);
  await page.keyboard.press('Enter');
  // Staff land in the admin area, patients in their portal: each with its navigation.
  await page.waitForURL(/\/(admin|portal)(\/|$)/, { timeout: 20_000 });
  await page
    .locator('[data-testid="admin-navigation"], [data-testid="portal-layout"] nav:visible')
    .first()
    .waitFor();
}

describe('keyboard only', () => {
  it('a patient books and joins a visit, the doctor admits, both reach the call — focus always visible, no trap', async () => {
    const patient = await (await openContext()).newPage();
    await signInByKeyboard(patient, 'paciente1@example.com');
    await settle(patient);
    await expectNoFocusTrap(patient);

    // Find the doctor: navigation → directory → search by name → the doctor's page.
    await tabTo(patient, 'portal-nav-doctors');
    await patient.keyboard.press('Enter');
    await patient.getByTestId('list-row').first().waitFor({ timeout: 20_000 });
    await typeInto(patient, 'section-search', doctorName.split(' ').at(-1) ?? doctorName);
    await expect.poll(() => patient.getByTestId('list-row').count(), { timeout: 15_000 }).toBe(1);
    await tabTo(patient, 'list-row-link');
    await patient.keyboard.press('Enter');
    await patient.getByTestId('doctor-name').waitFor({ timeout: 20_000 });
    await patient.getByTestId('slot-picker-slot').first().waitFor({ timeout: 20_000 });

    // The first free time: Enter opens the booking dialog; the reason, then confirm.
    await tabTo(patient, 'slot-picker-slot');
    await patient.keyboard.press('Enter');
    await patient.getByTestId('booking-form').waitFor();
    // The dialog moves focus into itself once it has opened.
    await expect.poll(async () => (await focused(patient)).inDialog).toBe(true);
    await typeInto(patient, 'booking-reason', 'Consulta solo con teclado');
    await tabTo(patient, 'booking-confirm');
    expect((await focused(patient)).inDialog).toBe(true);
    await patient.keyboard.press('Enter');
    await patient.waitForURL(/\/portal\/appointments\/[\w-]+$/, { timeout: 20_000 });
    const appointmentId = new URL(patient.url()).pathname.split('/').at(-1)!;

    // Join: device check (play the sound, "I heard it"), save, check in, wait.
    await tabTo(patient, 'appointment-join-visit');
    await patient.keyboard.press('Enter');
    await patient.getByTestId('device-check').waitFor({ timeout: 20_000 });
    await patient.getByTestId('device-check-risk').waitFor({ timeout: 20_000 });
    await tabTo(patient, 'device-check-play');
    await patient.keyboard.press('Space');
    await expect
      .poll(() => patient.getByTestId('device-check-heard').isEnabled(), { timeout: 15_000 })
      .toBe(true);
    await tabTo(patient, 'device-check-heard');
    await patient.keyboard.press('Space');
    await tabTo(patient, 'device-check-save');
    await patient.keyboard.press('Enter');
    await patient.getByTestId('visit-check-in').waitFor({ timeout: 20_000 });
    await tabTo(patient, 'visit-check-in', { max: 120 });
    await patient.keyboard.press('Enter');
    await patient.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });

    // The doctor, by keyboard too: waiting room → admit this patient.
    const doctor = await (await openContext()).newPage();
    await signInByKeyboard(doctor, 'medico2@example.com');
    await tabTo(doctor, 'admin-nav-waitingRoom');
    await doctor.keyboard.press('Enter');
    const entry = doctor.locator(`[data-testid="waiting-room-entry"][data-appointment="${appointmentId}"]`);
    await entry.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => entry.getByTestId('waiting-room-online').getAttribute('data-online'))
      .toBe('true');
    await tabTo(doctor, 'waiting-room-admit', {
      match: (item) => item.testId === 'waiting-room-admit',
      max: 120,
    });
    const target = await doctor.evaluate(
      () =>
        (document.activeElement as HTMLElement).closest<HTMLElement>('[data-appointment]')?.dataset
          .appointment,
    );
    expect(target).toBe(appointmentId);
    await doctor.keyboard.press('Enter');
    await doctor.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await patient.getByTestId('visit-call').waitFor({ timeout: 20_000 });

    // In the call, the controls are reachable and Tab still leaves them.
    await tabTo(patient, 'visit-chat-open', {
      match: (item) => (item.testId ?? '').startsWith('visit-'),
      max: 60,
    });
    expect(walked.length).toBeGreaterThanOrEqual(15);
    await doctor.context().close();
    await patient.context().close();
  });
});
