/**
 * Lighthouse (mobile: Lighthouse's default form factor, screen emulation and simulated throttling)
 * on the built server, with Debian's Chromium: the sign-in page and the patient portal's home
 * (`/portal`, signed in: the session cookie set in the browser before the run). Baseline, in the same run and the same browser: a bare
 * node:http page (inline-styled heading, paragraph and a labelled sign-in form, no JavaScript) —
 * what this machine scores for a page that does nothing.
 *
 *   npm run bench:lighthouse                  (the build must exist: npm run build; median of 5 runs)
 *   LIGHTHOUSE_RUNS=3 npm run bench:lighthouse (median of another number of runs per page)
 *   LIGHTHOUSE_REPORT_DIR=/tmp/lh npm run bench:lighthouse (also writes each full report there,
 *     and each page load's trace)
 *   LIGHTHOUSE_PAGES=portal npm run bench:lighthouse (only these pages beside the baseline:
 *     signin, portal — for many runs of the page being worked on)
 *   LIGHTHOUSE_CPU_SLOWDOWN=8 npm run bench:lighthouse (a fixed CPU multiplier instead of the scaled one)
 *
 * Lighthouse's 4× CPU multiplier is meant for a host whose benchmark index (its "CPU/Memory
 * Power") is about 1500–2000; the same page scores higher on a faster host and lower on a slower
 * one. So the bench first measures the host's index (one run of the baseline page) and scales the
 * multiplier to it — 4 × index / 1750, the middle of the calibrated range, bounded to 1–12× — so the
 * pages are measured on about the same emulated phone whatever the host (a host of index
 * 2,471 at a plain 4× emulated a phone 1.4 times faster than Lighthouse's). The index and the
 * multiplier are printed beside the scores; LIGHTHOUSE_CPU_SLOWDOWN fixes the multiplier instead.
 *
 * Targets (reported, not asserted): performance ≥ 95 and accessibility ≥ 95 on both pages.
 * Prints the main metrics (FCP, LCP, TBT, CLS) and, for a score under target, the audits that
 * cost points.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  blockingBreakdown,
  blockingKinds,
  meanBreakdown,
  type BlockingKind,
} from './support/blocking-breakdown.js';
import { patientCookie, startApp, startBaseline } from './support/lighthouse-servers.js';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const target = 95;
/** Total blocking time a patient's first screen may cost on the emulated phone. */
const maxTbtMs = 200;
/** A multiplier asked for (LIGHTHOUSE_CPU_SLOWDOWN); otherwise the bench scales one to the host. */
const requestedSlowdown =
  process.env.LIGHTHOUSE_CPU_SLOWDOWN === undefined ? null : Number(process.env.LIGHTHOUSE_CPU_SLOWDOWN);
if (requestedSlowdown !== null && (!Number.isFinite(requestedSlowdown) || requestedSlowdown < 1)) {
  throw new Error(`LIGHTHOUSE_CPU_SLOWDOWN must be a number ≥ 1, not ${process.env.LIGHTHOUSE_CPU_SLOWDOWN}`);
}
/** The benchmark index in the middle of Lighthouse's calibrated range for its 4× (1,500–2,000). */
const calibratedIndex = 1750;
/** The CPU multiplier of the runs: Lighthouse's 4× until the host is measured (`main`). */
let cpuSlowdown = requestedSlowdown ?? 4;

/**
 * The CPU multiplier that makes this host emulate the phone Lighthouse's 4× emulates on its
 * calibrated hosts: 4 × hostIndex / 1750, bounded to 1–12× (a host slower than calibrated gets less
 * slowdown, never a speed-up; an implausibly fast reading cannot make the phone absurdly slow),
 * to one decimal. 4× when the index could not be read.
 */
export function scaledCpuSlowdown(hostIndex: number): number {
  if (!Number.isFinite(hostIndex) || hostIndex <= 0) {
    return 4;
  }
  const scaled = (4 * hostIndex) / calibratedIndex;
  return Math.round(Math.min(12, Math.max(1, scaled)) * 10) / 10;
}
const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--lang=es-ES',
];

interface Audit {
  id: string;
  title: string;
  score: number | null;
  numericValue?: number;
  displayValue?: string;
  details?: { type?: string; overallSavingsMs?: number };
}
interface LighthouseResult {
  artifacts?: { Trace?: { traceEvents: unknown[] } };
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
    audits: Record<string, Audit>;
    runtimeError?: { code: string; message: string };
    finalDisplayedUrl?: string;
    /** The host's CPU figure Lighthouse measured before the run. */
    environment?: { benchmarkIndex?: number };
  };
}
interface PuppeteerPage {
  setCookie: (...cookies: { name: string; value: string; url: string }[]) => Promise<void>;
  close: () => Promise<void>;
}
interface PuppeteerBrowser {
  newPage: () => Promise<PuppeteerPage>;
}
type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
  config?: unknown,
  page?: PuppeteerPage,
) => Promise<LighthouseResult | undefined>;
interface LaunchedChrome {
  port: number;
  kill: () => Promise<void> | void;
}

interface PageFigures {
  performance: number;
  /** Lowest and highest performance score over the runs. */
  performanceRange: [number, number];
  /** The host's benchmark index (median over the runs). */
  benchmarkIndex: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  losing: string[];
  /** Estimated blocking ms per kind of work (mean over the runs), from each load's trace. */
  blocking: Record<BlockingKind, number> | null;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN;
}

async function audit(
  lighthouse: Lighthouse,
  port: number,
  key: string,
  url: string,
  cookie: string | null,
  runCount = runs,
): Promise<PageFigures> {
  const samples: Omit<PageFigures, 'performanceRange'>[] = [];
  let retries = 2;
  for (let run = 0; run < runCount; run += 1) {
    // A signed-in page: the session cookie goes into the browser's cookie jar first (the app's
    // requests carry it as a browser would; Lighthouse keeps cookies across its storage reset).
    let page: PuppeteerPage | undefined;
    if (cookie) {
      const puppeteer = (await import('puppeteer-core')) as unknown as {
        default: { connect: (options: { browserURL: string }) => Promise<PuppeteerBrowser> };
      };
      const connected = await puppeteer.default.connect({ browserURL: `http://127.0.0.1:${port}` });
      page = await connected.newPage();
      await page.setCookie(
        ...cookie.split('; ').map((pair) => {
          const index = pair.indexOf('=');
          return { name: pair.slice(0, index), value: pair.slice(index + 1), url };
        }),
      );
    }
    const result = await lighthouse(
      url,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        ...(cpuSlowdown === 4 ? {} : { throttling: { cpuSlowdownMultiplier: cpuSlowdown } }),
      },
      undefined,
      page,
    );
    await page?.close();
    if (!result) {
      throw new Error(`Lighthouse returned nothing for ${url}`);
    }
    const { lhr } = result;
    if (process.env.LIGHTHOUSE_REPORT_DIR) {
      // The whole report, to read the request chains and audits by hand.
      // Named by page (the baseline and the sign-in page are both `/`, on different ports).
      const name = `-${key}-${run}.json`;
      mkdirSync(process.env.LIGHTHOUSE_REPORT_DIR, { recursive: true });
      writeFileSync(path.join(process.env.LIGHTHOUSE_REPORT_DIR, `lighthouse${name}`), JSON.stringify(lhr));
      if (result.artifacts?.Trace) {
        // The page load's trace (unthrottled: Lighthouse simulates the slow device from it), for
        // breaking the blocking time down task by task.
        writeFileSync(
          path.join(process.env.LIGHTHOUSE_REPORT_DIR, `trace${name}`),
          JSON.stringify(result.artifacts.Trace),
        );
      }
    }
    if (lhr.runtimeError && retries > 0) {
      // NO_NAVSTART and the like happen now and then on a busy machine: run that sample again.
      console.log(`(${url}: ${lhr.runtimeError.code}, running again)`);
      retries -= 1;
      run -= 1;
      continue;
    }
    if (lhr.runtimeError) {
      throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    }
    if (cookie && new URL(lhr.finalDisplayedUrl ?? url).pathname !== new URL(url).pathname) {
      throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: the session was not used`);
    }
    const score = (category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
    const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const losing: string[] = [];
    for (const category of ['performance', 'accessibility']) {
      for (const ref of lhr.categories[category]?.auditRefs ?? []) {
        const item = lhr.audits[ref.id];
        if (item && item.score !== null && item.score < 0.9 && ref.weight > 0) {
          losing.push(
            `${category}: ${item.id} — ${item.title}${item.displayValue ? ` (${item.displayValue})` : ''}`,
          );
        }
      }
      // Opportunities (no weight of their own, but they say where the time goes).
      if (category === 'performance') {
        for (const item of Object.values(lhr.audits)) {
          const savings = item.details?.overallSavingsMs ?? 0;
          if (savings >= 100) {
            losing.push(`performance: ${item.id} — ${item.title} (≈ ${Math.round(savings)} ms to save)`);
          }
        }
      }
    }
    samples.push({
      blocking: result.artifacts?.Trace
        ? blockingBreakdown(result.artifacts.Trace.traceEvents, cpuSlowdown)
        : null,
      performance: score('performance'),
      benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
      accessibility: score('accessibility'),
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      tbt: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      losing,
    });
  }
  return {
    blocking: meanBreakdown(samples.flatMap((sample) => (sample.blocking ? [sample.blocking] : []))),
    performance: median(samples.map((sample) => sample.performance)),
    performanceRange: [
      Math.min(...samples.map((sample) => sample.performance)),
      Math.max(...samples.map((sample) => sample.performance)),
    ],
    benchmarkIndex: median(samples.map((sample) => sample.benchmarkIndex)),
    accessibility: median(samples.map((sample) => sample.accessibility)),
    fcp: median(samples.map((sample) => sample.fcp)),
    lcp: median(samples.map((sample) => sample.lcp)),
    tbt: median(samples.map((sample) => sample.tbt)),
    cls: median(samples.map((sample) => sample.cls)),
    losing: [...new Set(samples.flatMap((sample) => sample.losing))],
  };
}

async function main(): Promise<void> {
  const { default: lighthouse } = (await import('lighthouse')) as unknown as { default: Lighthouse };
  const chromeLauncher = (await import('chrome-launcher')) as unknown as {
    launch: (options: {
      chromePath: string;
      chromeFlags: string[];
      userDataDir: string;
    }) => Promise<LaunchedChrome>;
  };
  const app = await startApp();
  const baseline = await startBaseline();
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'telemedicina-lighthouse-profile-'));
  const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags, userDataDir });
  const pages: { key: string; label: string; url: string; cookie: string | null }[] = [];
  const results: Record<string, PageFigures> = {};
  try {
    const cookie = await patientCookie(app.baseUrl);
    const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((key) => key.trim());
    pages.push(
      ...[
        { key: 'baseline', label: 'baseline: bare node:http page', url: baseline.url, cookie: null },
        { key: 'signin', label: 'sign-in page (/)', url: `${app.baseUrl}/`, cookie: null },
        { key: 'portal', label: 'patient portal home (/portal)', url: `${app.baseUrl}/portal`, cookie },
      ].filter((page) => page.key === 'baseline' || !only || only.includes(page.key)),
    );
    if (requestedSlowdown === null) {
      // The host's index first (one run of the bare page at Lighthouse's 4×), then every page on the
      // multiplier scaled to it.
      const calibration = await audit(lighthouse, chrome.port, 'calibration', baseline.url, null, 1);
      cpuSlowdown = scaledCpuSlowdown(calibration.benchmarkIndex);
      console.log(
        `Host CPU: Lighthouse benchmark index ${Math.round(calibration.benchmarkIndex)} → CPU multiplier ` +
          `4 × ${Math.round(calibration.benchmarkIndex)} / ${calibratedIndex} = ${cpuSlowdown}× ` +
          `(Lighthouse's 4× is calibrated for an index of 1500–2000).`,
      );
    }
    console.log(
      `Lighthouse ${runs} run(s) per page, mobile defaults (Moto G Power emulation, simulated slow 4G, ` +
        `${cpuSlowdown}× CPU${requestedSlowdown === null ? ', scaled to the host' : ': LIGHTHOUSE_CPU_SLOWDOWN'}), ` +
        `Chromium at ${chromiumPath}.\n`,
    );
    for (const page of pages) {
      results[page.key] = await audit(lighthouse, chrome.port, page.key, page.url, page.cookie);
    }
  } finally {
    await chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => baseline.server.close(() => resolve()));
    await app.stop();
  }

  console.table(
    pages.map((page) => {
      const row = results[page.key]!;
      return {
        page: page.label,
        performance: row.performance,
        'runs (min–max)': `${row.performanceRange[0]}–${row.performanceRange[1]}`,
        accessibility: row.accessibility,
        'FCP ms': Math.round(row.fcp),
        'LCP ms': Math.round(row.lcp),
        'TBT ms': Math.round(row.tbt),
        CLS: Number(row.cls.toFixed(3)),
      };
    }),
  );
  const base = results.baseline!;
  const hostIndex = Math.round(base.benchmarkIndex);
  console.log(
    `Host CPU: Lighthouse benchmark index ${hostIndex} during the runs; ${cpuSlowdown}× CPU multiplier ` +
      `(${requestedSlowdown === null ? `4 × index / ${calibratedIndex}: the phone of Lighthouse's calibrated hosts` : 'as asked'}).`,
  );
  for (const page of pages.filter((item) => item.key !== 'baseline')) {
    const row = results[page.key]!;
    const verdict =
      row.performance >= target && row.accessibility >= target && row.tbt <= maxTbtMs ? 'meets' : 'BELOW';
    console.log(
      `${page.label}: performance ${row.performance}, accessibility ${row.accessibility}, ` +
        `TBT ${Math.round(row.tbt)} ms — ${verdict} the targets (≥ ${target}, TBT ≤ ${maxTbtMs} ms)`,
    );
    if (row.losing.length > 0) {
      console.log(`  audits costing points:\n    ${row.losing.join('\n    ')}`);
    }
    if (row.blocking) {
      // Estimated from the traces (support/blocking-breakdown.ts): which work the blocking time is.
      const kinds = blockingKinds.filter((kind) => Math.round(row.blocking![kind]) > 0);
      console.log(
        `  blocking time by kind of work (estimate from the traces, mean of ${runs} run(s)):\n    ` +
          kinds
            .map((kind) => `${String(Math.round(row.blocking![kind])).padStart(5)} ms  ${kind}`)
            .join('\n    '),
      );
    }
  }
  const ratio = (value: number, reference: number) =>
    reference > 0 ? Number((value / reference).toFixed(2)) : null;
  const metrics: {
    label: string;
    value: number;
    unit: string;
    baseline: number;
    ratio: number | null;
    target: string | null;
  }[] = pages
    .filter((page) => page.key !== 'baseline')
    .flatMap((page) => {
      const row = results[page.key]!;
      return [
        {
          label: `${page.label} performance (mobile)`,
          value: row.performance,
          unit: '',
          baseline: base.performance,
          ratio: ratio(row.performance, base.performance),
          target: `≥ ${target}`,
        },
        {
          label: `${page.label} accessibility`,
          value: row.accessibility,
          unit: '',
          baseline: base.accessibility,
          ratio: ratio(row.accessibility, base.accessibility),
          target: `≥ ${target}`,
        },
        {
          label: `${page.label} LCP (mobile)`,
          value: Math.round(row.lcp),
          unit: 'ms',
          baseline: Math.round(base.lcp),
          ratio: ratio(row.lcp, base.lcp),
          target: '≤ 2500 ms',
        },
        {
          label: `${page.label} TBT (mobile)`,
          value: Math.round(row.tbt),
          unit: 'ms',
          baseline: Math.round(base.tbt),
          ratio: null,
          target: `≤ ${maxTbtMs} ms`,
        },
      ];
    });
  metrics.push({
    label: `host CPU benchmark index (Lighthouse; ${cpuSlowdown}× CPU multiplier)`,
    value: hostIndex,
    unit: '',
    baseline: hostIndex,
    ratio: null,
    target: null,
  });
  console.log(`BENCH_RESULT ${JSON.stringify({ name: 'lighthouse', metrics })}`);
}

await main();
