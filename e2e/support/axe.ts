/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core checks for the browser tests. The app's CSP is `script-src 'self'`, so a `<script>` tag
 * with axe's source would be refused; the source is evaluated through the DevTools protocol instead
 * (`page.evaluate`), which CSP does not govern, and the app's policy stays as strict as it is.
 */

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0, 2.1 and 2.2 levels A and AA. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary: string }[];
}

export interface AxeOptions {
  /** CSS selectors left out of the check (e.g. a third-party widget). */
  exclude?: string[];
  /** Rule ids switched off, each with a reason in the caller. */
  disableRules?: string[];
}

/** Runs axe on the page as it is now and returns every violation (any impact). */
export async function runAxe(page: Page, options: AxeOptions = {}): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!loaded) {
    await page.evaluate(axeSource);
  }
  return page.evaluate(
    async ({ tags, exclude, disableRules, experimentalRules }) => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              context: unknown,
              options: unknown,
            ) => Promise<{
              violations: {
                id: string;
                impact: string | null;
                help: string;
                helpUrl: string;
                nodes: { target: unknown[]; failureSummary?: string }[];
              }[];
            }>;
          };
        }
      ).axe;
      const context =
        exclude.length > 0 ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
      const rules = Object.fromEntries(
        [...experimentalRules, ...disableRules].map((id) => [id, { enabled: false }]),
      );
      const result = await axe.run(context, {
        runOnly: { type: 'tag', values: tags },
        rules,
        resultTypes: ['violations'],
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        helpUrl: violation.helpUrl,
        nodes: violation.nodes.map((node) => ({
          target: node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))),
          failureSummary: node.failureSummary ?? '',
        })),
      }));
    },
    {
      tags: wcagTags,
      exclude: options.exclude ?? [],
      disableRules: options.disableRules ?? [],
      experimentalRules: await experimentalRuleIds(page),
    },
  );
}

/**
 * axe's experimental rules (tag `experimental`, e.g. label-content-name-mismatch) are off by
 * default in axe and in Lighthouse; a tag filter would switch them on, so they are switched off
 * again. Run them by hand with `runAxe(page, { … })` after removing this filter when wanted.
 */
async function experimentalRuleIds(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (window as unknown as { axe: { getRules: (tags?: string[]) => { ruleId: string }[] } }).axe
      .getRules(['experimental'])
      .map((rule) => rule.ruleId),
  );
}

/** The violations that block: impact `serious` or `critical`. */
export function blocking(violations: readonly AxeViolation[]): AxeViolation[] {
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** A readable account of violations: rule id, impact, help and up to five targets each. */
export function describeViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((violation) => {
      const targets = violation.nodes
        .slice(0, 5)
        .map(
          (node) => `    - ${node.target.join(' ')}\n      ${node.failureSummary.replace(/\n/g, '\n      ')}`,
        )
        .join('\n');
      const more = violation.nodes.length > 5 ? `\n    … and ${violation.nodes.length - 5} more` : '';
      return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${targets}${more}`;
    })
    .join('\n');
}

/**
 * Checks the page with axe (WCAG 2.x A/AA) and throws, naming the screen, when any serious or
 * critical violation is found.
 */
export async function expectNoSeriousViolations(
  page: Page,
  screen: string,
  options: AxeOptions = {},
): Promise<void> {
  const found = blocking(await runAxe(page, options));
  if (found.length > 0) {
    throw new Error(`Accessibility violations on "${screen}" (${page.url()}):\n${describeViolations(found)}`);
  }
}
