import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test/test-context.js';
import { createPageHints, pageLanguage, type BootHints } from './page-hints.js';

const indexHtml =
  '<!doctype html><html><head><title>Telemedicina</title>\n</head><body><div id="root"></div></body></html>';
const hints: BootHints = {
  signIn: {
    scripts: ['/assets/start-A.js', '/assets/SignInForm-B.js'],
    styles: ['/assets/SignInForm-C.css'],
  },
  app: {
    scripts: ['/assets/start-app-D.js', '/assets/AdminShell-E.js'],
    styles: ['/assets/AdminShell-F.css'],
  },
  home: { scripts: ['/assets/HomeRoute-G.js', '/assets/AdminShell-E.js'], styles: ['/assets/home-I.css'] },
  idle: { scripts: ['/assets/Modal-J.js'], styles: ['/assets/AdminShell-F.css', '/assets/Modal-K.css'] },
  portal: {
    scripts: ['/assets/start-app-D.js', '/assets/PortalShell-P.js'],
    styles: ['/assets/PortalShell-Q.css'],
  },
};

const splashHtml =
  '<!doctype html><html lang="es" data-mantine-color-scheme="light"><head><title>Telemedicina</title>\n' +
  '    <link rel="modulepreload" crossorigin href="/assets/react-H.js">\n</head>' +
  '<body><div id="root"><!--boot--><div class="boot-splash"></div><!--/boot--></div></body></html>';
const prerendered = {
  es: '<div class="signin-prerender" inert><h1>Iniciar sesión</h1></div>',
  en: '<div class="signin-prerender" inert><h1>Sign in</h1></div>',
};

const homePrerendered = {
  es: '<div class="home-prerender" inert><main><h1>Inicio</h1></main></div>',
  en: '<div class="home-prerender" inert><main><h1>Home</h1></main></div>',
};

const portalPrerendered = {
  es: '<div class="portal-prerender" inert><main><h1>Inicio</h1></main></div>',
  en: '<div class="portal-prerender" inert><main><h1>Home</h1></main></div>',
};

async function makeDist(withHints: boolean, withPrerender = false, withStyles = true): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'telemedicina-hints-'));
  if (withStyles) {
    await mkdir(path.join(dist, 'assets'), { recursive: true });
    await writeFile(path.join(dist, 'assets', 'SignInForm-C.css'), '.form{color:red}');
    await writeFile(path.join(dist, 'assets', 'AdminShell-F.css'), '.shell{color:blue}');
    await writeFile(path.join(dist, 'assets', 'home-I.css'), '.home{color:green}');
    await writeFile(path.join(dist, 'assets', 'Modal-K.css'), '.modal{color:gray}');
    await writeFile(path.join(dist, 'assets', 'PortalShell-Q.css'), '.portal{color:teal}');
  }
  await writeFile(path.join(dist, 'index.html'), withPrerender ? splashHtml : indexHtml);
  if (withHints) {
    await writeFile(path.join(dist, 'boot-hints.json'), JSON.stringify(hints));
  }
  if (withPrerender) {
    await writeFile(path.join(dist, 'sign-in-prerender.json'), JSON.stringify(prerendered));
    await writeFile(path.join(dist, 'home-prerender.json'), JSON.stringify(homePrerendered));
    await writeFile(path.join(dist, 'portal-prerender.json'), JSON.stringify(portalPrerendered));
  }
  return dist;
}

/**
 * The addresses the page makes the browser fetch (a `disabled` stylesheet link is not fetched, nor
 * is `rel="expect"`, which names an element of the page).
 */
const preloads = (html: string) =>
  [...html.matchAll(/<link [^>]*href="([^"]+)"[^>]*>/g)]
    .filter((match) => !/\sdisabled[\s/>]/.test(match[0]) && !match[0].startsWith('<link rel="expect"'))
    .map((match) => match[1]);
/** The inlined style files marked as loaded for Vite's loader: `disabled` stylesheet links. */
const disabledStyles = (html: string) =>
  [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)" disabled \/>/g)].map(
    (match) => match[1],
  );

describe('pageLanguage', () => {
  it.each([
    [null, 'es-ES,es;q=0.9,en;q=0.8', 'es'],
    [null, 'en-US,en;q=0.9', 'en'],
    [null, 'de-DE,es;q=0.5', 'en'],
    [null, undefined, 'en'],
    ['en', 'es-MX', 'en'],
    ['es', 'de', 'es'],
    ['fr', 'es', 'es'],
  ] as const)('cookie %s, Accept-Language %s → %s', (cookie, header, expected) => {
    expect(pageLanguage(cookie, header)).toBe(expected);
  });
});

describe('createPageHints', () => {
  it('is off without boot-hints.json', async () => {
    expect(createPageHints(await makeDist(false))).toBeNull();
  });

  it('hints the start page with the sign-in screen and its texts, in the head; other pages as built', async () => {
    const pageFor = createPageHints(await makeDist(true))!;
    const signIn = pageFor('/', 'es', false).html;
    expect(preloads(signIn)).toEqual([
      '/assets/SignInForm-C.css',
      '/assets/start-A.js',
      '/assets/SignInForm-B.js',
      '/assets/i18n/es.json',
    ]);
    expect(signIn).toContain('<link rel="modulepreload" crossorigin href="/assets/start-A.js" />');
    expect(signIn).toContain('<link rel="preload" as="fetch" crossorigin href="/assets/i18n/es.json" />');
    expect(signIn.indexOf('es.json')).toBeLessThan(signIn.indexOf('</head>'));
    expect(preloads(pageFor('/', 'en', false).html)).toContain('/assets/i18n/en.json');
    for (const other of ['/admin', '/admin/users', '/register']) {
      expect(pageFor(other, 'es', false).html).toBe(indexHtml);
    }
    const page = pageFor('/admin', 'en', false);
    expect(brotliDecompressSync(page.brotli).toString()).toBe(page.html);
    expect(gunzipSync(page.gzip).toString()).toBe(page.html);
  });
});

describe('a page that starts signed in (session cookie)', () => {
  it('hints the application, the admin frame and, on /admin, the home page, each file once', async () => {
    const pageFor = createPageHints(await makeDist(true))!;
    const home = pageFor('/admin', 'es', true).html;
    expect(preloads(home)).toEqual([
      '/assets/AdminShell-F.css',
      '/assets/start-app-D.js',
      '/assets/AdminShell-E.js',
      '/assets/home-I.css',
      '/assets/HomeRoute-G.js',
    ]);
    expect(home).toContain('<link rel="preload" as="style" crossorigin href="/assets/AdminShell-F.css" />');
    expect(home).toContain('<link rel="modulepreload" crossorigin href="/assets/HomeRoute-G.js" />');
    expect(home.indexOf('HomeRoute-G.js')).toBeLessThan(home.indexOf('</head>'));
    expect(preloads(pageFor('/admin/', 'es', true).html)).toEqual(preloads(home));
    // Another admin page, and the start page (which moves them on): the application and frame only.
    for (const signedIn of ['/admin/users', '/']) {
      expect(preloads(pageFor(signedIn, 'en', true).html)).toEqual([
        '/assets/AdminShell-F.css',
        '/assets/start-app-D.js',
        '/assets/AdminShell-E.js',
      ]);
    }
    // The patient's portal: the application and the portal's light frame, nothing of the
    // admin area's frame.
    for (const portal of ['/portal', '/portal/', '/portal/appointments/a1']) {
      expect(preloads(pageFor(portal, 'es', true).html)).toEqual([
        '/assets/PortalShell-Q.css',
        '/assets/start-app-D.js',
        '/assets/PortalShell-P.js',
      ]);
    }
    expect(pageFor('/portal', 'es', false).html).toBe(indexHtml);
    expect(pageFor('/portals', 'es', true).html).toBe(indexHtml);
    // Outside the admin area (a visit or booking link): as built.
    expect(pageFor('/register', 'es', true).html).toBe(indexHtml);
    expect(pageFor('/administrator', 'es', true).html).toBe(indexHtml);
  });
});

describe('the pre-rendered sign-in screen', () => {
  it('replaces the splash on the start page, in its language, with its styles in the page', async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    const es = pageFor('/', 'es', false).html;
    expect(es).toContain(
      '<div id="root"><div class="signin-prerender" inert><h1>Iniciar sesión</h1></div>' +
        '<span id="prerendered-end" hidden></span></div>',
    );
    // The first paint waits for the whole screen: never a half-parsed one laid out again later.
    expect(es).toMatch(/<link rel="expect" href="#prerendered-end" blocking="render" \/>\n<\/head>/);
    expect(es).not.toContain('boot-splash');
    expect(es).toContain('<html lang="es"');
    expect(es).toContain('<style>.form{color:red}</style>');
    // Nothing competes with the first paint: scripts and texts are found by the entry as it runs.
    expect(preloads(es)).toEqual([]);
    // The live screen's loader does not link the inlined files again.
    expect(disabledStyles(es)).toEqual(['/assets/SignInForm-C.css']);
    const en = pageFor('/', 'en', false).html;
    expect(en).toContain('<h1>Sign in</h1>');
    expect(en).toContain('<html lang="en" data-mantine-color-scheme="light">');
  });

  it('links its styles render-blocking when a style file cannot be read', async () => {
    const pageFor = createPageHints(await makeDist(true, true, false))!;
    const es = pageFor('/', 'es', false).html;
    expect(es).toContain('signin-prerender');
    expect(es).toContain('<link rel="stylesheet" crossorigin href="/assets/SignInForm-C.css" />');
    expect(preloads(es)).toEqual(['/assets/SignInForm-C.css']);
  });

  it('is not sent to a visitor with a session (moved on into the app) nor on other pages', async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    const signedIn = pageFor('/', 'es', true).html;
    expect(signedIn).toContain('boot-splash');
    expect(signedIn).not.toContain('signin-prerender');
    expect(preloads(signedIn)).toEqual([
      '/assets/react-H.js',
      '/assets/AdminShell-F.css',
      '/assets/start-app-D.js',
      '/assets/AdminShell-E.js',
    ]);
    expect(pageFor('/register', 'es', false).html).toContain('boot-splash');
  });
});

describe('the pre-rendered signed-in home', () => {
  it('replaces the splash on /admin with a session, in its language, with its styles in the page', async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    const es = pageFor('/admin', 'es', true).html;
    expect(es).toContain(
      '<div id="root"><div class="home-prerender" inert><main><h1>Inicio</h1></main></div>' +
        '<span id="prerendered-end" hidden></span></div>',
    );
    expect(es).toContain('<link rel="expect" href="#prerendered-end" blocking="render" />');
    expect(es).not.toContain('boot-splash');
    expect(es).toContain('<html lang="es"');
    // The frame's, the page's and what the frame loads when idle, each file once, in that order.
    expect(es).toContain('<style>.shell{color:blue}\n.home{color:green}\n.modal{color:gray}</style>');
    // Nothing competes with the first paint: the scripts are found by the entry as it runs.
    expect(preloads(es)).toEqual([]);
    expect(es).not.toContain('Modal-J.js');
    expect(disabledStyles(es)).toEqual([
      '/assets/AdminShell-F.css',
      '/assets/home-I.css',
      '/assets/Modal-K.css',
    ]);
    expect(pageFor('/admin/', 'en', true).html).toContain('<h1>Home</h1>');
  });

  it('is not sent to a browser whose start page was the clinic dashboard (the app frame is hinted)', async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    const html = pageFor('/admin', 'es', true, true).html;
    expect(html).toContain('boot-splash');
    expect(html).not.toContain('home-prerender');
    expect(html).not.toContain('rel="expect"');
    expect(preloads(html)).toEqual([
      '/assets/react-H.js',
      '/assets/AdminShell-F.css',
      '/assets/start-app-D.js',
      '/assets/AdminShell-E.js',
    ]);
  });

  it('is not sent without a session, nor on other signed-in pages', async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    for (const [pathName, hasSession] of [
      ['/admin', false],
      ['/admin/users', true],
      ['/', true],
    ] as const) {
      const html = pageFor(pathName, 'es', hasSession).html;
      expect(html).toContain('boot-splash');
      expect(html).not.toContain('home-prerender');
    }
  });

  it('links its styles render-blocking when a style file cannot be read', async () => {
    const pageFor = createPageHints(await makeDist(true, true, false))!;
    const es = pageFor('/admin', 'es', true).html;
    expect(es).toContain('home-prerender');
    expect(es).toContain('<link rel="stylesheet" crossorigin href="/assets/AdminShell-F.css" />');
    expect(preloads(es)).toEqual(['/assets/AdminShell-F.css', '/assets/home-I.css']);
  });
});

describe("the pre-rendered patient's home", () => {
  it('replaces the splash on /portal with a session, in its language, with the portal styles in the page', async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    const es = pageFor('/portal', 'es', true).html;
    expect(es).toContain(
      '<div id="root"><div class="portal-prerender" inert><main><h1>Inicio</h1></main></div>' +
        '<span id="prerendered-end" hidden></span></div>',
    );
    expect(es).toContain('<link rel="expect" href="#prerendered-end" blocking="render" />');
    expect(es).not.toContain('boot-splash');
    // Only the portal's styles: nothing of the admin frame.
    expect(es).toContain('<style>.portal{color:teal}</style>');
    expect(es).not.toContain('.shell{color:blue}');
    expect(preloads(es)).toEqual([]);
    expect(disabledStyles(es)).toEqual(['/assets/PortalShell-Q.css']);
    expect(pageFor('/portal/', 'en', true).html).toContain('<h1>Home</h1>');
  });

  it("is not sent without a session, nor on the portal's other pages (which keep their hints)", async () => {
    const pageFor = createPageHints(await makeDist(true, true))!;
    expect(pageFor('/portal', 'es', false).html).not.toContain('portal-prerender');
    const other = pageFor('/portal/appointments', 'es', true).html;
    expect(other).toContain('boot-splash');
    expect(other).not.toContain('portal-prerender');
    expect(preloads(other)).toEqual([
      '/assets/react-H.js',
      '/assets/PortalShell-Q.css',
      '/assets/start-app-D.js',
      '/assets/PortalShell-P.js',
    ]);
  });
});

describe('the page with hints, served', () => {
  let context: TestContext;

  beforeAll(async () => {
    context = await createTestContext({ config: { webDistDir: await makeDist(true) } });
  });

  afterAll(async () => {
    await context?.close();
  });

  it('answers / in the visitor language, compressed as accepted, revalidated', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-language': 'es-ES,es;q=0.9', 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(String(response.headers.vary)).toContain('accept-language');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('/assets/i18n/es.json');
    const chosen = await context.app.inject({
      method: 'GET',
      url: '/?returnTo=%2Fadmin',
      headers: { 'accept-language': 'es-ES', cookie: 'tm_language=en' },
    });
    expect(chosen.headers['content-encoding']).toBeUndefined();
    expect(chosen.body).toContain('/assets/i18n/en.json');
  });

  it('answers deep links with the page as built, gzip when brotli is not accepted', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/admin',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toBe(indexHtml);
    const head = await context.app.inject({ method: 'HEAD', url: '/admin/users' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
