import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { apiReferencePath } from './openapi.js';

export interface SecurityHeadersOptions {
  /** Only production sends HSTS (a developer's localhost must not be pinned to HTTPS). */
  isProduction: boolean;
  /**
   * The configured public origin: when it is https, every answer carries HSTS (a TLS proxy in front
   * may not say so in a header the server trusts); otherwise only answers to HTTPS requests do.
   */
  publicOrigin: string;
  /** Port of the separate Socket.IO server (null when disabled); the page must be allowed to connect to it. */
  getRealtimePort: () => number | null;
  /**
   * Also echo the request's id in this header (e.g. `x-request-id`), in the same hook: one hook
   * for every header an answer always carries.
   */
  requestIdHeader?: string;
}

/** Browser features the app may use: the visit room needs camera, microphone and screen sharing. */
export const permissionsPolicy = [
  'camera=(self)',
  'microphone=(self)',
  'display-capture=(self)',
  'fullscreen=(self)',
  'geolocation=()',
  'payment=()',
  'usb=()',
  // Powerful features the app never uses: denied outright (unlisted ones default to the page's origin).
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'hid=()',
  'serial=()',
  'midi=()',
  'idle-detection=()',
  'xr-spatial-tracking=()',
  'browsing-topics=()',
].join(', ');

const hostnamePattern = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])$/;

/**
 * Helmet's headers with a strict Content-Security-Policy, plus Permissions-Policy.
 *
 * - script-src 'self' only: Vite's build has no inline scripts, nor has the
 *   Swagger UI of @fastify/swagger-ui (it loads swagger-initializer.js).
 * - style-src allows 'unsafe-inline': Mantine injects `<style>` elements for
 *   its CSS variables and many components set `style` attributes; nonces
 *   cannot cover style attributes. Inline styles cannot run script, so the
 *   remaining risk is CSS-based data exfiltration from injected markup, which
 *   server- and client-side sanitizing (no `style` attribute allowed) address.
 * - connect-src adds the separate real-time port on the host the page was
 *   loaded from ('self' does not cover another port).
 * - No upgrade-insecure-requests: a clinic may run the app over plain HTTP on
 *   a LAN during evaluation; production should sit behind TLS (camera and
 *   microphone need a secure context anyway), where HSTS is sent.
 * - HSTS (production only) on answers to a request that came over HTTPS —
 *   `request.protocol`, which believes X-Forwarded-Proto only from a proxy
 *   TRUST_PROXY names — or on every answer when PUBLIC_ORIGIN is https. Never
 *   over plain HTTP otherwise: the header means nothing there (RFC 6797 §8.1)
 *   and only tells a scanner the server is misconfigured.
 *
 * API data (JSON under /api, except the HTML reference at /api/v1/docs) is
 * never a document: it gets a short, stricter fixed set instead (CSP
 * `default-src 'none'`, as the OWASP REST cheat sheet advises), which also
 * keeps a kilobyte of page-only headers off every API answer.
 *
 * Performance: @fastify/helmet builds a new helmet middleware (re-validating
 * every option) for each request, then helmet sets a dozen headers one by one
 * on the raw response; together that measured at about 40% of the health
 * route's throughput here. Helmet still decides the headers, but only once:
 * its middleware runs against a recording response at start (and once per
 * page host when the separate real-time port needs a host-specific
 * connect-src), and each request gets the recorded set in one call.
 */
export const securityHeaders = fp<SecurityHeadersOptions>(
  (app: FastifyInstance, options, done) => {
    const connectSources = (request: IncomingMessage): string => {
      const port = options.getRealtimePort();
      const hostname = requestHostname(request);
      if (port === null || hostname === null) {
        return "'self'";
      }
      return isTlsRequest(request)
        ? `'self' https://${hostname}:${port} wss://${hostname}:${port}`
        : `'self' http://${hostname}:${port} ws://${hostname}:${port}`;
    };

    const applyHelmet = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          baseUri: ["'self'"],
          scriptSrc: ["'self'"],
          scriptSrcAttr: ["'none'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: [connectSources],
          mediaSrc: ["'self'", 'blob:'],
          workerSrc: ["'self'", 'blob:'],
          frameSrc: ["'self'"],
          objectSrc: ["'none'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          manifestSrc: ["'self'"],
        },
      },
      // Consistent with frame-ancestors 'none' for browsers that only know X-Frame-Options.
      xFrameOptions: { action: 'deny' },
      // Invitation and reset links carry tokens in their URL: never leak them as a referrer.
      referrerPolicy: { policy: 'no-referrer' },
      // Added per request below: it depends on how the request came.
      strictTransportSecurity: false,
      // Cross-origin isolation would block the separate real-time port's responses and media.
      crossOriginEmbedderPolicy: false,
    });

    const headersFor = createHeaderCache((host, isTls) => {
      const recorded = recordHeaders(applyHelmet, host, isTls);
      recorded['permissions-policy'] = permissionsPolicy;
      return recorded;
    });
    const apiHeaders: Record<string, string> = {
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'permissions-policy': permissionsPolicy,
    };
    const isHttpsOrigin = options.publicOrigin.startsWith('https:');

    // Names and values apart, computed once: each request sets them in one loop.
    const apiHeaderNames = Object.keys(apiHeaders);
    const apiHeaderValues = Object.values(apiHeaders);
    const requestIdHeader = options.requestIdHeader;

    app.addHook('onRequest', (request, reply, next) => {
      if (requestIdHeader !== undefined) {
        void reply.header(requestIdHeader, request.id);
      }
      if (options.isProduction && (isHttpsOrigin || request.protocol === 'https')) {
        void reply.header('strict-transport-security', strictTransportSecurity);
      }
      const raw = request.raw;
      if (isApiDataPath(raw.url ?? '/')) {
        for (let index = 0; index < apiHeaderNames.length; index += 1) {
          void reply.header(apiHeaderNames[index]!, apiHeaderValues[index]);
        }
        next();
        return;
      }
      const realtimePort = options.getRealtimePort();
      // Without a separate real-time port every page gets the same policy.
      const headers =
        realtimePort === null
          ? headersFor(null, false, null)
          : headersFor(requestHostname(raw), isTlsRequest(raw), realtimePort);
      void reply.headers(headers);
      next();
    });
    done();
  },
  { name: 'security-headers' },
);

/** One year, subdomains included (no `preload`: that is the clinic's decision to submit). */
const strictTransportSecurity = 'max-age=31536000; includeSubDomains';

/** JSON answers under /api (not the HTML API reference and its assets). */
function isApiDataPath(url: string): boolean {
  return (
    (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) &&
    !url.startsWith(apiReferencePath)
  );
}

/** Most distinct page hosts whose headers are kept; the Host header is client-controlled. */
const maxCachedHosts = 32;

/**
 * Memoizes the header set per (hostname, TLS, real-time port), bounded so a
 * flood of forged Host headers cannot grow it.
 */
function createHeaderCache(
  build: (host: string | null, isTls: boolean) => Record<string, string>,
): (host: string | null, isTls: boolean, realtimePort: number | null) => Record<string, string> {
  const cache = new Map<string, Record<string, string>>();
  return (host, isTls, realtimePort) => {
    const key = `${realtimePort ?? ''}|${isTls ? 's' : ''}|${host ?? ''}`;
    let headers = cache.get(key);
    if (headers === undefined) {
      if (cache.size >= maxCachedHosts) {
        cache.clear();
      }
      headers = build(host, isTls);
      cache.set(key, headers);
    }
    return headers;
  };
}

/** Runs the helmet middleware against a detached request and response, and reads the headers it set. */
function recordHeaders(
  middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void,
  host: string | null,
  isTls: boolean,
): Record<string, string> {
  // Never connected and never written: only the headers set on it are read back.
  const request = new IncomingMessage(new Socket());
  request.headers = host === null ? {} : { host, ...(isTls ? { 'x-forwarded-proto': 'https' } : {}) };
  const response = new ServerResponse(request);
  // Helmet 8 throws invalid options itself; `next` only ever signals completion.
  middleware(request, response, () => undefined);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.getHeaders())) {
    if (value !== undefined) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
  }
  return headers;
}

function isTlsRequest(request: IncomingMessage): boolean {
  return 'encrypted' in request.socket || request.headers['x-forwarded-proto'] === 'https';
}

/** The hostname (no port) the browser used, when it is a plain hostname or IP literal. */
function requestHostname(request: Pick<IncomingMessage, 'headers'>): string | null {
  const host = request.headers.host;
  if (host === undefined) {
    return null;
  }
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return hostname !== undefined && hostnamePattern.test(hostname) ? hostname : null;
}
