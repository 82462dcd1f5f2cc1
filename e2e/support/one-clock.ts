/**
 * The one-clock journey's vantage point (e2e/one-clock.e2e.ts): the browser runs in Madrid and
 * the accounts live in Mexico City, so a screen that writes the device's wall clock instead of
 * the account's is caught. Pages open signed in, in a language and a width, in that zone.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { BrowserHandle } from './browser.js';
import { signIn } from './sign-in.js';

export const deviceZone = 'Europe/Madrid';
export const accountZone = 'America/Mexico_City';

export type Lang = 'es' | 'en';

/** "6:07" / "6:07 AM": an instant's time of day in a zone, as the app writes it. */
export function timeIn(instant: string, timeZone: string, lang: Lang = 'es'): string {
  return new Intl.DateTimeFormat(lang, { timeZone, hour: 'numeric', minute: '2-digit' }).format(
    new Date(instant),
  );
}

/** The time as a whole token ("6:07" must not match inside "16:07"). */
export function tokenOf(time: string): RegExp {
  return new RegExp(`(?<![\\d:])${time.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d])`);
}

/** The locator's text holds the instant's account wall clock and not the device's. */
export async function expectAccountClock(locator: Locator, instant: string, where: string): Promise<string> {
  await locator.first().waitFor({ timeout: 20_000 });
  const text = await locator.first().innerText();
  // Soft: one run lists every screen that says another time, not only the first.
  expect.soft(text, `${where}: account time`).toMatch(tokenOf(timeIn(instant, accountZone)));
  expect.soft(text, `${where}: not the device's time`).not.toMatch(tokenOf(timeIn(instant, deviceZone)));
  return text;
}

/** Browser contexts in the device's zone, and the signed-in pages opened in them. */
export class ClockPages {
  private readonly contexts: BrowserContext[] = [];
  /** Where each signed-in page's own area starts: `/portal` for the patient, `/admin` for staff. */
  private readonly areas = new WeakMap<Page, string>();

  /** `visitId`: the appointment whose device check is marked done (it is another journey's subject). */
  constructor(
    private readonly browser: BrowserHandle,
    private readonly baseUrl: string,
    private readonly visitId: () => string,
  ) {}

  async openContext(lang: Lang, width: number, fakeMedia = false): Promise<BrowserContext> {
    const context = await this.browser.browser.newContext({
      locale: lang === 'en' ? 'en-US' : 'es-ES',
      timezoneId: deviceZone,
      viewport: { width, height: width < 600 ? 844 : 900 },
      ...(fakeMedia ? { permissions: ['camera', 'microphone'] } : {}),
    });
    await context.addInitScript(
      ({ language, id }) => {
        window.localStorage.setItem('telemedicina.language', language);
        window.sessionStorage.setItem('telemedicina.languageChosen', '1');
        window.sessionStorage.setItem(`telemedicina.visit.checked.${id}`, '1');
      },
      { language: lang, id: this.visitId() },
    );
    this.contexts.push(context);
    return context;
  }

  /** The page's address in its person's area (`/appointments/…` → `/portal/appointments/…`). */
  at(page: Page, path = ''): string {
    return `${this.baseUrl}${this.areas.get(page) ?? '/admin'}${path}`;
  }

  async signedIn(email: string, lang: Lang, width: number): Promise<Page> {
    const page = await (await this.openContext(lang, width)).newPage();
    // Patients land in their portal, staff in the admin frame.
    await signIn(page, this.baseUrl, email);
    this.areas.set(page, new URL(page.url()).pathname.startsWith('/portal') ? '/portal' : '/admin');
    return page;
  }

  async closeAll(): Promise<void> {
    for (const context of this.contexts) {
      await context.close().catch(() => undefined);
    }
  }
}
