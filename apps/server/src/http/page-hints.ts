import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { isLanguage, pickLanguage, type Language } from '@telemedicina/shared/i18n';

/** One step of the web app's boot: the scripts and styles it loads beyond the entry's. */
export interface BootStep {
  scripts: string[];
  styles: string[];
}

/** What the web build writes to `boot-hints.json` (apps/web/vite.config.ts, `bootHints`). */
export interface BootHints {
  /** The signed-out start page's sign-in screen. */
  signIn?: BootStep;
  /** A signed-in page: the application and the admin area's frame. */
  app?: BootStep;
  /** `/admin`: its home route and page. */
  home?: BootStep;
  /** A patient portal page (`/portal…`): the application, the portal's light frame and its home. */
  portal?: BootStep;
  /** What the signed-in frame loads once the page is idle (dialogs, the notifications' list). */
  idle?: BootStep;
}

/**
 * The page's variant: the signed-out start page (per language); a page that will most likely start
 * signed in (a session cookie) — the admin area's home, another admin page, the start page, which
 * moves them on; any other page (as built).
 */
type PageKind = 'signIn' | 'adminHome' | 'signedIn' | 'portalHome' | 'portal' | 'other';

/** Cookie the web app sets when the person picks a language with the switcher (apps/web/src/lib/i18n.ts). */
export const languageCookieName = 'tm_language';

/** A page variant ready to send: the HTML and its pre-compressed copies. */
export interface PageVariant {
  html: string;
  brotli: Buffer;
  gzip: Buffer;
}

/**
 * index.html for the signed-out start page (`/` without a session cookie), per language (the choice
 * made with the switcher, mirrored in a cookie, else the browser's language — specification §4, as
 * the app decides): the sign-in screen pre-rendered at build time takes the boot splash's place, so
 * the page is drawn before its scripts run (`main.tsx` renders the live screen over it), with its
 * styles render-blocking. Without the pre-rendered screen (an older build), hints instead:
 * `modulepreload` for the sign-in chunk's scripts, `preload` for its styles and translations, so
 * they come in the first wave instead of after the entry has downloaded and run.
 *
 * `/admin` with a session cookie, per language likewise: the signed-in frame and the home page's
 * heading pre-rendered at build time (apps/web/src/app/prerender-home.tsx) with their styles inline,
 * drawn from the HTML before the application's scripts (found by the entry as it runs, as on the
 * sign-in page: hinted as well, they shared a slow network with the first paint, which came at
 * 3.1–3.8 s instead of 1.4 s in Lighthouse's mobile run); not when the browser's last start page
 * was the clinic dashboard (`startsOnDashboard`, from `startPageCookieName`). Any other page is
 * index.html as built, with the hints above on signed-in pages.
 *
 * Returns null without `boot-hints.json` (an older build, or a test's): the page is then served as
 * built.
 */
export function createPageHints(
  root: string,
):
  | ((pathName: string, language: Language, hasSession: boolean, startsOnDashboard?: boolean) => PageVariant)
  | null {
  const hintsFile = path.join(root, 'boot-hints.json');
  if (!existsSync(hintsFile)) {
    return null;
  }
  let hints: BootHints;
  try {
    hints = JSON.parse(readFileSync(hintsFile, 'utf8')) as BootHints;
  } catch {
    return null;
  }
  const indexHtml = readFileSync(path.join(root, 'index.html'), 'utf8');
  if (!indexHtml.includes('</head>')) {
    return null;
  }
  const prerendered = {
    signIn: readPrerendered(path.join(root, 'sign-in-prerender.json')),
    adminHome: readPrerendered(path.join(root, 'home-prerender.json')),
    portalHome: readPrerendered(path.join(root, 'portal-prerender.json')),
  };
  const inlineStyles = {
    signIn: prerendered.signIn ? readStyles(root, hints.signIn?.styles ?? []) : null,
    adminHome: prerendered.adminHome
      ? readStyles(
          root,
          // The idle step's too: linked by the frame a few seconds later, each file would restyle
          // and lay out the whole page again (≈ 60–110 ms each at Lighthouse's 4× CPU).
          [
            ...new Set([
              ...(hints.app?.styles ?? []),
              ...(hints.home?.styles ?? []),
              ...(hints.idle?.styles ?? []),
            ]),
          ],
        )
      : null,
    portalHome: prerendered.portalHome ? readStyles(root, hints.portal?.styles ?? []) : null,
  };
  const variants = new Map<string, PageVariant>();
  return (pathName, language, hasSession, startsOnDashboard = false) => {
    // A visitor with a session cookie is most likely signed in: `/` moves them on into the app.
    const kind = pageKind(pathName, hasSession, startsOnDashboard);
    const isPrerenderable = kind === 'signIn' || kind === 'adminHome' || kind === 'portalHome';
    const key = isPrerenderable ? `${kind}:${language}` : kind;
    let variant = variants.get(key);
    if (!variant) {
      const markup = isPrerenderable ? prerendered[kind]?.[language] : undefined;
      const styles = isPrerenderable ? inlineStyles[kind] : null;
      const tags =
        markup !== undefined && styles !== null
          ? inlineStyleTags(styles)
          : hintTags(hints, kind, language, markup !== undefined);
      let html = indexHtml.replace('</head>', `${tags}</head>`);
      if (markup !== undefined) {
        html = withPrerendered(html, markup, language);
      }
      variant = {
        html,
        brotli: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(html, { level: 9 }),
      };
      variants.set(key, variant);
    }
    return variant;
  };
}

function pageKind(pathName: string, hasSession: boolean, startsOnDashboard: boolean): PageKind {
  if (!hasSession) {
    return pathName === '/' ? 'signIn' : 'other';
  }
  if (/^\/portal\/?$/i.test(pathName)) {
    // The patient's home: its frame and placeholder drawn from the HTML (prerender-portal.tsx).
    return 'portalHome';
  }
  if (/^\/portal(\/|$)/i.test(pathName)) {
    // The patient's portal: its own light frame, nothing of the admin area's.
    return 'portal';
  }
  if (/^\/admin\/?$/.test(pathName)) {
    // A clinic administrator's `/admin` is the dashboard (the web app's `startPageCookieName`):
    // neither the home page's frame nor its scripts.
    return startsOnDashboard ? 'signedIn' : 'adminHome';
  }
  return pathName === '/' || pathName.startsWith('/admin/') ? 'signedIn' : 'other';
}

/** The pre-rendered sign-in screen per language (apps/web/vite.config.ts, `prerenderSignIn`), if built. */
function readPrerendered(file: string): Partial<Record<Language, string>> | null {
  if (!existsSync(file)) {
    return null;
  }
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const markup: Partial<Record<Language, string>> = {};
    for (const [language, html] of Object.entries(parsed)) {
      if (isLanguage(language) && typeof html === 'string') {
        markup[language] = html;
      }
    }
    return markup;
  } catch {
    return null;
  }
}

/** Style files inlined in a page: their text, and the files it came from. */
interface InlineStyles {
  text: string;
  files: string[];
}

/**
 * The sign-in screen's styles, to put in the page with the pre-rendered screen: drawn from the
 * HTML alone, without a request per style file (the build keeps each shared component's styles
 * in a file of its own; on a slow network, several render-blocking requests would delay the first
 * paint). The CSP allows inline styles. Null when a file is missing or could not be inlined safely.
 */
function readStyles(root: string, styles: string[]): InlineStyles | null {
  const texts: string[] = [];
  for (const style of styles) {
    const file = path.join(root, style.replace(/^\/+/, ''));
    if (!file.startsWith(path.join(root, path.sep)) || !existsSync(file)) {
      return null;
    }
    const text = readFileSync(file, 'utf8');
    if (/<\/style/i.test(text)) {
      return null;
    }
    texts.push(text);
  }
  return { text: texts.join('\n'), files: styles };
}

/**
 * The inlined styles, and for each file they came from a `disabled` stylesheet link, which the
 * browser does not fetch: Vite's loader (the preload helper) counts a file as loaded when a
 * stylesheet link with its address is in the page, so the live screen does not link the same
 * rules again — without these, the scripts added a link per file, each a request and a restyle of
 * the whole page while it boots (≈ 75 ms of main thread at Lighthouse's 4× CPU on `/admin`).
 */
function inlineStyleTags(styles: InlineStyles): string {
  const links = styles.files.map(
    (file) => `    <link rel="stylesheet" crossorigin href="${escapeAttribute(file)}" disabled />\n`,
  );
  return `    <style>${styles.text}</style>\n${links.join('')}`;
}

/**
 * Marks the end of a pre-rendered screen. The head's `<link rel="expect" blocking="render">` makes
 * the browser wait for it before the first paint: otherwise a page whose HTML arrived in two parts
 * could be drawn half parsed (the sign-in screen without its form's lower half), then laid out again
 * when the rest came — a layout shift of 0.2 in about one Lighthouse run in seven on `/`.
 */
const prerenderEndId = 'prerendered-end';

/**
 * Puts the pre-rendered screen in place of the boot splash (between index.html's `<!--boot-->`
 * markers) and the page's language on `<html>`. The build's `modulepreload` links for the entry's
 * imports are dropped: on a slow network they would share the bandwidth with the HTML and styles
 * the screen is drawn from (the entry script still loads them at once when it runs; the screen
 * stays a picture, `inert`, until the live one replaces it). Unchanged when the markers are missing.
 */
function withPrerendered(html: string, markup: string, language: Language): string {
  const start = html.indexOf('<!--boot-->');
  const end = html.indexOf('<!--/boot-->');
  if (start < 0 || end < start) {
    return html;
  }
  return (
    html.slice(0, start) +
    markup +
    `<span id="${prerenderEndId}" hidden></span>` +
    html.slice(end + '<!--/boot-->'.length)
  )
    .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
    .replace(/[ \t]*<link rel="modulepreload"[^>]*>\n?/g, '')
    .replace('</head>', `    <link rel="expect" href="#${prerenderEndId}" blocking="render" />\n</head>`);
}

/**
 * The boot steps whose files a page of this kind loads at once. A signed-in page draws nothing
 * useful before the application, its frame and its page have run (the splash is not what the person
 * came for), so their files are hinted in the HTML: they download while the entry does, instead of
 * one level of imports per network round trip after it. Other pages (a visit link opened signed
 * out, say) get none: there the scripts would only share the bandwidth with the first paint.
 */
function bootSteps(hints: BootHints, kind: PageKind): (BootStep | undefined)[] {
  switch (kind) {
    case 'signIn':
      return [hints.signIn];
    case 'adminHome':
      return [hints.app, hints.home];
    case 'signedIn':
      return [hints.app];
    case 'portalHome':
    case 'portal':
      return [hints.portal];
    case 'other':
      return [];
  }
}

function hintTags(hints: BootHints, kind: PageKind, language: Language, isPrerendered: boolean): string {
  const steps = bootSteps(hints, kind);
  // A file two steps share is hinted once.
  const tags = new Set<string>();
  for (const step of steps) {
    for (const style of step?.styles ?? []) {
      // The pre-rendered screen needs its styles before it is drawn: render-blocking, as the app
      // loads them (Vite's loader adds the same `<link rel="stylesheet" crossorigin>` later).
      tags.add(
        isPrerendered
          ? `<link rel="stylesheet" crossorigin href="${escapeAttribute(style)}" />`
          : `<link rel="preload" as="style" crossorigin href="${escapeAttribute(style)}" />`,
      );
    }
    // A pre-rendered screen is drawn from the HTML and its styles alone: nothing else may compete
    // with them for the network before that first paint, so its scripts and texts are left to be
    // discovered by the entry as it runs (see `withPrerendered`).
    for (const script of isPrerendered ? [] : (step?.scripts ?? [])) {
      tags.add(`<link rel="modulepreload" crossorigin href="${escapeAttribute(script)}" />`);
    }
  }
  if (kind === 'signIn' && !isPrerendered) {
    // Same request as the app's `fetch` (same-origin credentials), so the browser reuses it.
    tags.add(`<link rel="preload" as="fetch" crossorigin href="/assets/i18n/${language}.json" />`);
  }
  return [...tags].map((tag) => `    ${tag}\n`).join('');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The language the start page will show: the switcher's choice (cookie), else the first language
 * of Accept-Language (what `navigator.language` reports), en or es, else en.
 */
export function pageLanguage(cookieValue: string | null, acceptLanguage: string | undefined): Language {
  if (isLanguage(cookieValue)) {
    return cookieValue;
  }
  const first = (acceptLanguage ?? '').split(',')[0]?.split(';')[0];
  return pickLanguage(first);
}
