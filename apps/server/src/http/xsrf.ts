import { randomFillSync, timingSafeEqual } from 'node:crypto';
import { xsrfCookieName } from '@telemedicina/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error.js';
import { putCookie } from './cookies.js';

export interface XsrfOptions {
  /** Whether the cookie gets Secure on this request (it came over HTTPS, or the public origin is https). */
  isSecure: (request: FastifyRequest) => boolean;
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
 * Double-submit XSRF protection. Every response to a request without a valid
 * `XSRF-TOKEN` cookie sets one (readable by JS, SameSite=Lax); every unsafe
 * request under /api must repeat the cookie's value in `X-XSRF-TOKEN`, which a
 * cross-site page can neither read nor send. Mismatch → 403 XSRF_TOKEN_INVALID.
 *
 * Hashed files under /assets/ do not get the cookie: they are cached
 * `public, immutable`, and a shared cache must not store a Set-Cookie with them.
 * The page itself (index.html) and every API answer do.
 *
 * Reads and writes this one cookie directly rather than through
 * @fastify/cookie, whose per-request parse and serialize cost about a third
 * of the health route's throughput; sessions can register that plugin later
 * (its Set-Cookie handling appends to the header set here).
 */
export const xsrfProtection = fp<XsrfOptions>(
  (app: FastifyInstance, options, done) => {
    app.addHook('onRequest', (request, reply, next) => {
      const cookieToken = readCookieToken(request.headers.cookie);
      const url = request.url;
      if (cookieToken === null && !url.startsWith('/assets/')) {
        void reply.header('set-cookie', serializeXsrfCookie(createXsrfToken(), options.isSecure(request)));
      }
      if (safeMethods.has(request.method)) {
        next();
        return;
      }
      // The routed pattern too: the router decodes the path, so `/%61pi/v1/…` reaches /api routes.
      const isApi = isApiPath(url) || isApiPath(request.routeOptions.url ?? '');
      if (!isApi) {
        next();
        return;
      }
      const headerToken = request.headers['x-xsrf-token'];
      if (cookieToken === null || typeof headerToken !== 'string' || !isSameToken(headerToken, cookieToken)) {
        next(
          new AppError(
            403,
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
