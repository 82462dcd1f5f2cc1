import { randomFillSync, timingSafeEqual } from 'node:crypto';
import { xsrfCookieName } from '@telemedicina/shared/api';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { appError } from '../lib/app-error.js';
import { putCookie } from './cookies.js';
import { apiReferencePath } from './openapi.js';

export interface XsrfOptions {
  /** Whether the cookie gets Secure on this request (it came over HTTPS, or the public origin is https). */
  isSecure: (request: FastifyRequest) => boolean;
  /**
   * API paths whose GET answer hands out the cookie: the reads a client makes
   * first (`/api/v1/config`, `/api/v1/me`), so one served by another origin's
   * page (the Vite dev server) gets a token too.
   */
  issueOn: readonly string[];
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;
const cookiePattern = new RegExp(`(?:^|;)\\s*${xsrfCookieName}=([^;]*)`);
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

const tokenBytes = 32;
/** CSPRNG bytes fetched 128 tokens at a time (as Node does for randomUUID); each slice is used once. */
const randomPool = Buffer.alloc(tokenBytes * 128);
let poolOffset = randomPool.length;

/** A fresh 256-bit token, base64url (43 characters, nothing to escape in a cookie). */
export function createXsrfToken(): string {
  if (poolOffset >= randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  const token = randomPool.toString('base64url', poolOffset, poolOffset + tokenBytes);
  poolOffset += tokenBytes;
  return token;
}

/**
 * Double-submit XSRF protection. Every unsafe request under /api must repeat
 * the `XSRF-TOKEN` cookie's value in `X-XSRF-TOKEN`, which a cross-site page
 * can neither read nor send. Mismatch → 403 XSRF_TOKEN_INVALID.
 *
 * The cookie (readable by JS, SameSite=Lax) is handed out, to a request
 * without a valid one, where a client looks for it:
 * - pages: any GET/HEAD outside /api (index.html and the history fallback)
 *   and the API reference under /api/v1/docs, except hashed files under
 *   /assets/, which are cached `public, immutable` — a shared cache must not
 *   store a Set-Cookie with them;
 * - the first reads of the web client (`issueOn`: GET /config, GET /me);
 * - the 403 XSRF_TOKEN_INVALID answer itself, so a client can copy it and retry;
 * - sign-in answers, which rotate it ({@link rotateXsrfCookie}).
 * Other API answers (data, health checks) do not: a token nobody asked for
 * is an extra header and a random draw on every call of a monitoring probe.
 *
 * Reads and writes this one cookie directly rather than through
 * @fastify/cookie, whose per-request parse and serialize cost about a third
 * of the health route's throughput; sessions can register that plugin later
 * (its Set-Cookie handling appends to the header set here).
 */
export const xsrfProtection = fp<XsrfOptions>(
  (app: FastifyInstance, options, done) => {
    const issueOn = new Set(options.issueOn);
    const issueToken = (request: FastifyRequest, reply: FastifyReply): void => {
      void reply.header('set-cookie', serializeXsrfCookie(createXsrfToken(), options.isSecure(request)));
    };

    app.addHook('onRequest', (request, reply, next) => {
      const url = request.url;
      if (safeMethods.has(request.method)) {
        if (wantsToken(url, issueOn) && readCookieToken(request.headers.cookie) === null) {
          issueToken(request, reply);
        }
        next();
        return;
      }
      // The routed pattern too: the router decodes the path, so `/%61pi/v1/…` reaches /api routes.
      const isApi = isApiPath(url) || isApiPath(request.routeOptions.url ?? '');
      if (!isApi) {
        next();
        return;
      }
      const cookieToken = readCookieToken(request.headers.cookie);
      const headerToken = request.headers['x-xsrf-token'];
      if (cookieToken === null || typeof headerToken !== 'string' || !isSameToken(headerToken, cookieToken)) {
        if (cookieToken === null) {
          issueToken(request, reply);
        }
        next(
          appError(
            'XSRF_TOKEN_INVALID',
            'Missing or invalid X-XSRF-TOKEN header: copy the XSRF-TOKEN cookie into it.',
          ),
        );
        return;
      }
      next();
    });
    done();
  },
  { name: 'xsrf-protection' },
);

/** Whether a safe request for `url` hands out the cookie (when it comes without one). */
function wantsToken(url: string, issueOn: ReadonlySet<string>): boolean {
  if (!isApiPath(url)) {
    return !url.startsWith('/assets/');
  }
  if (url.startsWith(apiReferencePath)) {
    return true;
  }
  const query = url.indexOf('?');
  return issueOn.has(query === -1 ? url : url.slice(0, query));
}

function serializeXsrfCookie(token: string, isSecure: boolean): string {
  return `${xsrfCookieName}=${token}; Path=/; SameSite=Lax${isSecure ? '; Secure' : ''}`;
}

/**
 * Issues a new XSRF token on this answer (replacing one set on arrival), so a
 * token seen before sign-in is not the one used after it.
 */
export function rotateXsrfCookie(reply: FastifyReply, isSecure: boolean): void {
  putCookie(reply, xsrfCookieName, serializeXsrfCookie(createXsrfToken(), isSecure));
}

/** The XSRF-TOKEN cookie's value when it is a well-formed token, else null. */
function readCookieToken(cookieHeader: string | undefined): string | null {
  if (cookieHeader === undefined) {
    return null;
  }
  const value = cookiePattern.exec(cookieHeader)?.[1];
  return value !== undefined && tokenPattern.test(value) ? value : null;
}

function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}

function isSameToken(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}
