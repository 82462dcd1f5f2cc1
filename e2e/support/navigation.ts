import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';

/**
 * Clicks a navigation link and waits for the page it leads to (`ready`). Twice in fresh-clone CI
 * runs (records and phone journeys, right after sign-in) the first page never arrived after such a
 * click, and it did not happen in local runs with a CPU hog. Until the cause is found, a click
 * that leads nowhere is said loudly — where the page was, what it showed, and a screenshot in
 * test-results/ — and made once more, so the journey goes on to what it tests. A second miss fails.
 */
export async function clickThrough(page: Page, link: Locator, ready: Locator, what: string): Promise<void> {
  await link.click({ timeout: 20_000 });
  try {
    await ready.waitFor({ timeout: 20_000 });
    return;
  } catch {
    const directory = join(process.cwd(), 'test-results', 'lost-clicks');
    mkdirSync(directory, { recursive: true });
    const file = join(directory, `${what.replace(/[^a-z0-9-]+/gi, '-')}-${Date.now()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    const text = (
      await page
        .locator('body')
        .innerText()
        .catch(() => '')
    )
      .replace(/\s+/g, ' ')
      .slice(0, 300);
    console.warn(
      `[e2e] ${what}: the click led nowhere within 20 s — at ${page.url()}, showing «${text}» (screenshot ${file}); clicking once more`,
    );
  }
  await link.click({ timeout: 20_000 });
  await ready.waitFor({ timeout: 20_000 });
}
