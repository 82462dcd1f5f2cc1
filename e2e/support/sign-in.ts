import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newContext, type viewports } from './browser.js';
import { demoPassword } from './demo-accounts.js';

export { demoPassword };

export type Lang = 'es' | 'en';
export type Viewport = keyof typeof viewports;

export interface PageOptions {
  /**
   * The interface's language, as if the person had chosen it this session (stored, marked chosen);
   * the browser's locale follows it (en-US / es-ES) unless `locale` says otherwise.
   */
  lang?: Lang;
  /** The browser's language (es-ES when neither this nor `lang` is given). */
  locale?: string;
  viewport?: Viewport;
  /** The app's test hooks (`telemedicina.testHooks`) switched on. */
  testHooks?: boolean;
}

/** A fresh browser context (own storage, own history) in the language and viewport a journey needs. */
export async function openContext(browser: Browser, options: PageOptions = {}): Promise<BrowserContext> {
  const { lang, viewport, testHooks } = options;
  const locale = options.locale ?? (lang === 'en' ? 'en-US' : 'es-ES');
  const context = await newContext(browser, { locale, viewport });
  if (lang) {
    await context.addInitScript((language) => {
      window.localStorage.setItem('telemedicina.language', language);
      window.sessionStorage.setItem('telemedicina.languageChosen', '1');
    }, lang);
  }
  if (testHooks) {
    await context.addInitScript(() => window.localStorage.setItem('telemedicina.testHooks', '1'));
  }
  return context;
}

/** A fresh page in its own context (see `openContext`). */
export async function openPage(browser: Browser, options: PageOptions = {}): Promise<Page> {
  return (await openContext(browser, options)).newPage();
}

/** Fills the sign-in form already on the page and sends it (no waiting: refusals are tested too). */
export async function submitSignIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
}

/** Where a signed-in person lands: the admin frame for staff, the portal for a patient. */
export const signedInArea = /^\/(admin|portal)(\/|$)/;

export interface SignInOptions {
  password?: string;
  /** The path the person must land on (default: their area, `signedInArea`). */
  landsOn?: RegExp;
}

/** Signs a page in through the sign-in form and waits until it lands in the person's area. */
export async function signIn(
  page: Page,
  baseUrl: string,
  email: string,
  { password = demoPassword, landsOn = signedInArea }: SignInOptions = {},
): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await submitSignIn(page, email, password);
  await page.waitForURL((url) => landsOn.test(url.pathname), { timeout: 20_000 });
}

/** A fresh page (see `openPage`), signed in as `email`. */
export async function openSignedIn(
  browser: Browser,
  baseUrl: string,
  email: string,
  options: PageOptions = {},
): Promise<Page> {
  const page = await openPage(browser, options);
  await signIn(page, baseUrl, email);
  return page;
}
