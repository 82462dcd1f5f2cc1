import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from './server.js';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface LaunchOptions {
  /** Fake camera and microphone for video-call journeys. */
  fakeMedia?: boolean;
  /** Another program that runs Chromium (e.g. inside a network namespace, see netns.ts). */
  executablePath?: string;
  /** Flags added to this machine's. */
  args?: string[];
}

export interface BrowserHandle {
  browser: Browser;
  close: () => Promise<void>;
}

/**
 * Launches Debian's Chromium headless with the flags this machine needs
 * (no sandbox as root, no background networking on a closed network).
 */
export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserHandle> {
  // Playwright gives every launch a fresh temporary profile (it refuses --user-data-dir here).
  const args = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ];
  if (options.fakeMedia) {
    // The fake camera at 10 frames a second (its default is 20): every page of a call encodes and
    // decodes 720p video in software, and with three or four such pages on a two-core machine the
    // calls starved each other (remote video missing for 30 s, clicks waiting for frames).
    args.push('--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream=fps=10');
  }
  args.push(...(options.args ?? []));
  const browser = await chromium.launch({
    executablePath: options.executablePath ?? chromiumPath,
    headless: true,
    args,
  });
  return { browser, close: () => browser.close() };
}

export const viewports = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 375, height: 812 },
} as const;

export interface ContextOptions {
  locale?: string;
  viewport?: keyof typeof viewports;
}

/** A fresh browser context with the browser language and viewport a journey needs. */
export async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
  return browser.newContext({
    locale: options.locale ?? 'es-ES',
    viewport: viewports[options.viewport ?? 'desktop'],
  });
}

const screenshotDir = join(repoRoot, 'screenshots');

/** Saves a full-page screenshot under screenshots/ for people to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
