import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { startPageCookieName } from '@telemedicina/shared/api';
import { realtimePath } from '@telemedicina/shared/realtime';
import { isWebRoute } from '@telemedicina/shared/web-routes';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readCookie, sessionCookieName } from './cookies.js';
import { routeNotFound } from './error-handler.js';
import { createPageHints, languageCookieName, pageLanguage } from './page-hints.js';

export interface StaticWebOptions {
  /** Absolute folder of the web app's production build (holding index.html). */
  webDistDir: string;
}

const immutableCache = 'public, max-age=31536000, immutable';
const revalidate = 'no-cache';

export const missingBuildMessage =
  'Telemedicina: the web app has not been built yet.\n\n' +
  'Run `npm run build` in the project folder, then restart the server.\n' +
  'The API is available under /api/v1 (reference: /api/v1/docs).\n';

/**
 * Serves the web build and the SPA history fallback, and answers every
 * unmatched request:
 *
 * - /api/*, /socket.io/* and non-GET requests → 404 JSON `ROUTE_NOT_FOUND`, never the page.
 * - a missing file under /assets/ → plain 404 (a script URL answered with HTML
 *   only produces a confusing MIME error in the browser);
 * - any other GET/HEAD → index.html, so deep links (/admin/users/<id>, /error-500) load the app:
 *   with 200 when the app's router has a page there (`isWebRoute`, the shared list its routes are
 *   tested against), else with 404 — the app shows its not-found page, and crawlers, scanners and
 *   monitors are told the truth;
 * - no build at all → a plain 503 message saying to run `npm run build`.
 *
 * Vite fingerprints files under /assets/, so they are cached for a year and
 * immutable; index.html and the translations (/assets/i18n/, fixed names)
 * revalidate on every load.
 */
export const staticWeb = fp<StaticWebOptions>(
  async (app: FastifyInstance, options) => {
    const root = path.resolve(options.webDistDir);
    const hasBuild = existsSync(path.join(root, 'index.html'));
    // index.html per address: on the signed-out start page with the pre-rendered sign-in screen
    // (page-hints.ts), when the build describes its boot; otherwise sent as built.
    const pageFor = hasBuild ? createPageHints(root) : null;

    if (hasBuild) {
      await app.register(fastifyStatic, {
        root,
        prefix: '/',
        wildcard: true,
        // The page itself (`/` included) is answered by `sendPage` below.
        index: pageFor ? false : 'index.html',
        redirect: false,
        dotfiles: 'ignore',
        cacheControl: false,
        // The web build writes .br and .gz beside each text file: sent when the browser accepts them.
        preCompressed: true,
        allowedPath: (pathName) => !isReservedPath(pathName),
        setHeaders: (reply, filePath) => {
          const relative = path.relative(root, filePath).split(path.sep).join('/');
          void reply.header('cache-control', isFingerprinted(relative) ? immutableCache : revalidate);
        },
      });
    }

    /** The page for this address (page-hints.ts), compressed as the browser accepts. */
    const sendPage = (request: FastifyRequest, reply: FastifyReply, pathName: string) => {
      const page = pageFor!(
        pathName,
        pageLanguage(
          readCookie(request.headers.cookie, languageCookieName),
          request.headers['accept-language'],
        ),
        readCookie(request.headers.cookie, sessionCookieName) !== null,
        readCookie(request.headers.cookie, startPageCookieName) === 'dashboard',
      );
      const accepted = String(request.headers['accept-encoding'] ?? '');
      void reply
        .header('cache-control', revalidate)
        .header('vary', 'accept-encoding, accept-language, cookie')
        .type('text/html; charset=utf-8');
      if (/\bbr\b/.test(accepted)) {
        return reply.header('content-encoding', 'br').send(page.brotli);
      }
      if (/\bgzip\b/.test(accepted)) {
        return reply.header('content-encoding', 'gzip').send(page.gzip);
      }
      return reply.send(page.html);
    };
    if (pageFor) {
      app.get('/', (request, reply) => sendPage(request, reply, '/'));
    }

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const pathName = request.url.split('?')[0] ?? '/';
      const isPageRequest = request.method === 'GET' || request.method === 'HEAD';
      if (!isPageRequest || isReservedPath(pathName)) {
        return reply.status(404).send(routeNotFound(request));
      }
      if (pathName.startsWith('/assets/')) {
        return reply.status(404).type('text/plain; charset=utf-8').send('Not found\n');
      }
      if (!hasBuild) {
        return reply
          .status(503)
          .header('cache-control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(missingBuildMessage);
      }
      const status = isWebRoute(pathName) ? 200 : 404;
      if (pageFor) {
        return sendPage(request, reply.status(status), pathName);
      }
      return reply.status(status).header('cache-control', revalidate).sendFile('index.html');
    });
  },
  { name: 'static-web' },
);

/** Paths that belong to the API or the real-time endpoint and never fall back to the page. */
function isReservedPath(pathName: string): boolean {
  return (
    pathName === '/api' ||
    pathName.startsWith('/api/') ||
    pathName === realtimePath ||
    pathName.startsWith(`${realtimePath}/`)
  );
}

function isFingerprinted(relativePath: string): boolean {
  return relativePath.startsWith('assets/') && !relativePath.startsWith('assets/i18n/');
}
