/**
 * Initial JavaScript of the sign-in page (`/`, signed out): the gzip size (level 9) of every script
 * the browser fetched before the form was usable, against the 150 kB budget. The boot entry
 * (apps/web/src/main.tsx) decides at run time what to load — the light sign-in screen on `/` for a
 * signed-out visitor, the whole application otherwise — so the set is measured in a browser rather
 * than read from the chunk graph: the built server (e2e/support/server.ts, on a fresh database,
 * serving this build through `WEB_DIST_DIR`) is opened in Debian's Chromium (e2e/support/browser.ts)
 * at `/`, and the scripts it received up to the moment `[data-testid=signin-email]` is visible are
 * summed (each file's bytes from the build, gzip -9, as before). Lazy areas — the dynamic chunks the
 * page did not fetch — are listed apart with their own chunks beyond that set (from Vite's manifest):
 * they must stay out of the first download.
 *
 *   npm run bench:js
 *
 * The web app is built into a temporary folder with Vite's manifest (the same configuration as
 * `npm run build`, plus `--manifest`), so apps/web/dist is left alone; the server is built first
 * when its build is stale. The baseline, from the same build, is the entry chunks alone (the static
 * closure of index.html's script, what every page fetches), so the ratio says how much the sign-in
 * page adds on top.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchBrowser, newContext } from '../e2e/support/browser.js';
import { startServer } from '../e2e/support/server.js';
import { buildServerIfStale } from './support/bench-kit.js';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const budgetKb = 150;
const root = fileURLToPath(new URL('..', import.meta.url));
const webRoot = path.join(root, 'apps/web');

const outDir = await mkdtemp(path.join(tmpdir(), 'telemedicina-js-budget-'));
try {
  console.log('Building the web app with its manifest into a temporary folder…');
  const build = spawnSync(
    path.join(root, 'node_modules/.bin/vite'),
    ['build', '--manifest', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: webRoot, stdio: 'inherit' },
  );
  if (build.status !== 0) {
    throw new Error(`vite build failed (exit ${build.status})`);
  }
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  buildServerIfStale();
  const fetched = await scriptsFetchedBySignInPage(outDir);
  await report(manifest, fetched);
} finally {
  await rm(outDir, { recursive: true, force: true });
}

/**
 * The build's script files (paths relative to the build folder) Chromium fetched while opening `/`
 * signed out, up to the moment the sign-in form's email field is visible.
 */
async function scriptsFetchedBySignInPage(webDist: string): Promise<string[]> {
  const server = await startServer({ env: { WEB_DIST_DIR: webDist } });
  const { browser, close } = await launchBrowser();
  try {
    const context = await newContext(browser);
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === server.baseUrl && url.pathname.endsWith('.js')) {
        scripts.add(url.pathname.slice(1));
      }
    });
    await page.goto(`${server.baseUrl}/`);
    await page.locator('[data-testid=signin-email]').waitFor({ state: 'visible', timeout: 60_000 });
    const fetched = [...scripts];
    await context.close();
    return fetched;
  } finally {
    await close();
    await server.stop();
  }
}

async function report(manifest: Manifest, fetchedFiles: string[]): Promise<void> {
  const gzipOf = new Map<string, { raw: number; gzip: number }>();
  const sizeOf = async (file: string) => {
    let size = gzipOf.get(file);
    if (size === undefined) {
      const bytes = await readFile(path.join(outDir, file));
      size = { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      gzipOf.set(file, size);
    }
    return size;
  };
  /** A chunk and everything it imports statically (what loading it fetches), as manifest keys. */
  const closure = (keys: string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || manifest[key] === undefined) {
        return;
      }
      seen.add(key);
      for (const next of manifest[key].imports ?? []) {
        visit(next);
      }
    };
    keys.forEach(visit);
    return seen;
  };
  const total = async (keys: Iterable<string>) => {
    let raw = 0;
    let gzip = 0;
    for (const key of keys) {
      const file = manifest[key]!.file;
      if (file.endsWith('.js')) {
        const size = await sizeOf(file);
        raw += size.raw;
        gzip += size.gzip;
      }
    }
    return { raw, gzip };
  };
  const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));

  const entryKeys = Object.entries(manifest)
    .filter(([, chunk]) => chunk.isEntry === true)
    .map(([key]) => key);
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const unknown = fetchedFiles.filter((file) => !keyOfFile.has(file));
  if (entryKeys.length === 0 || fetchedFiles.length === 0 || unknown.length > 0) {
    throw new Error(
      `The manifest has no entry, the page fetched no script, or scripts outside the build: ${unknown.join(', ')}`,
    );
  }
  const entryOnly = closure(entryKeys);
  const initial = new Set(fetchedFiles.map((file) => keyOfFile.get(file)!));
  const entrySize = await total(entryOnly);
  const initialSize = await total(initial);

  console.log(`\nInitial JavaScript of the sign-in page (/): ${initial.size} chunks`);
  const rows = [];
  for (const key of initial) {
    const chunk = manifest[key]!;
    if (!chunk.file.endsWith('.js')) {
      continue;
    }
    const size = await sizeOf(chunk.file);
    rows.push({
      chunk: chunk.file,
      source: chunk.src ?? key,
      loaded: entryOnly.has(key) ? 'entry (static)' : 'loaded by the boot entry for /',
      'raw kB': kb(size.raw),
      'gzip kB': kb(size.gzip),
    });
  }
  rows.sort((a, b) => b['gzip kB'] - a['gzip kB']);
  console.table(rows);

  const lazyAreas = [];
  for (const [key, chunk] of Object.entries(manifest)) {
    if (chunk.isDynamicEntry !== true || initial.has(key)) {
      continue;
    }
    const own = [...closure([key])].filter((dependency) => !initial.has(dependency));
    const size = await total(own);
    lazyAreas.push({
      area: chunk.src ?? key,
      chunks: own.length,
      'raw kB': kb(size.raw),
      'gzip kB': kb(size.gzip),
    });
  }
  lazyAreas.sort((a, b) => b['gzip kB'] - a['gzip kB']);
  console.log('\nLazy areas, split off the first download (their own chunks beyond the initial set):');
  console.table(lazyAreas);

  const met = initialSize.gzip / 1024 <= budgetKb;
  console.log(
    `\nsign-in page initial JS: ${kb(initialSize.gzip)} kB gzip (${kb(initialSize.raw)} kB raw) — ` +
      `${met ? 'meets' : 'OVER'} the ${budgetKb} kB budget; entry alone ${kb(entrySize.gzip)} kB gzip; ` +
      `${lazyAreas.length} lazy areas totalling ${kb(lazyAreas.reduce((sum, area) => sum + area['gzip kB'] * 1024, 0))} kB gzip.`,
  );
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      name: 'js-budget',
      metrics: [
        {
          label: 'sign-in page initial JS, gzip -9 (baseline: entry chunks alone)',
          value: kb(initialSize.gzip),
          unit: 'kB',
          baseline: kb(entrySize.gzip),
          ratio: Number((initialSize.gzip / entrySize.gzip).toFixed(2)),
          target: `≤ ${budgetKb} kB`,
        },
        {
          label: `lazy areas split off (${lazyAreas.length}), largest: ${lazyAreas[0]?.area ?? 'none'}`,
          value: lazyAreas[0]?.['gzip kB'] ?? 0,
          unit: 'kB',
          baseline: null,
          ratio: null,
          target: null,
        },
      ],
    })}`,
  );
}
