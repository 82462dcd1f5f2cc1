import { isPermission, type Permission } from '@telemedicina/shared/permission-catalogue';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { appError } from '../lib/app-error.js';
import type { Actor, AppServices } from '../modules/context.js';
import { recordAuditEvent } from '../modules/audit/audit.service.js';
import { resolveSessionToken } from '../modules/identity/sessions.service.js';
import { clearSessionCookie, isSecureRequest, readCookie, sessionCookieName } from './cookies.js';
import { apiReferencePath } from './openapi.js';
import { requestMeta } from './service-context.js';

/**
 * What a route needs: nothing (`public`), a live session (`authenticated`),
 * or a session holding at least one of the permissions (`anyOf`).
 */
export type RouteAccess = 'public' | 'authenticated' | { anyOf: readonly Permission[] };

export interface RouteAccessEntry {
  method: string;
  url: string;
  access: RouteAccess;
  allowDuringMfaEnrollment: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api route; buildApp throws for a route without it. */
    access?: RouteAccess;
    /** Reachable while the session must still enrol a second factor (GET /me, logout, /me/mfa/*). */
    allowDuringMfaEnrollment?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in user, or null (anonymous, or the session ended). */
    actor: Actor | null;
  }
  interface FastifyInstance {
    /** Every /api route with its declared access, for the authorisation matrix test and docs. */
    accessRegistry: readonly RouteAccessEntry[];
  }
}

export interface AuthenticationOptions {
  services: AppServices;
}

/**
 * Authentication and route authorisation.
 *
 * - At registration (`onRoute`): every route under /api must declare
 *   `config.access`; one without it makes the app fail to build, so an
 *   endpoint can never ship unguarded by omission. Permission names are
 *   checked against the catalogue. The API reference under /api/v1/docs is
 *   public by nature and marked so here.
 * - On each request to a route that declares its access (a route-level
 *   `onRequest` hook added at registration, so no per-request lookup of the
 *   route's options; before the body is even read): the
 *   `tm_session` cookie is resolved into `request.actor` (one query), ended
 *   sessions answer 401 SESSION_EXPIRED and lose their cookie, then the
 *   route's access is enforced: 401 UNAUTHENTICATED, 403
 *   MFA_ENROLLMENT_REQUIRED, or 403 FORBIDDEN with an `access.denied` audit
 *   event. Enforcing here rather than in a preHandler means an anonymous
 *   caller learns nothing from body validation and uploads are never parsed
 *   for someone who may not send them.
 */
export const authentication = fp<AuthenticationOptions>(
  (app: FastifyInstance, options, done) => {
    const { services } = options;
    const registry: RouteAccessEntry[] = [];
    app.decorate('accessRegistry', registry);
    app.decorateRequest('actor', null);

    app.addHook('onRoute', (route) => {
      if (!isApiPath(route.url ?? route.path)) {
        return;
      }
      const url = route.url ?? route.path;
      if (url.startsWith(apiReferencePath)) {
        route.config = { ...route.config, access: 'public' };
      }
      const access = route.config?.access;
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      if (access === undefined) {
        throw new Error(
          `Route ${methods.join(',')} ${url} declares no access: add config.access ('public', 'authenticated' or { anyOf: [...] }).`,
        );
      }
      if (typeof access === 'object') {
        const unknown = access.anyOf.filter((name) => !isPermission(name));
        if (access.anyOf.length === 0 || unknown.length > 0) {
          throw new Error(
            `Route ${methods.join(',')} ${url} requires unknown permissions: ${unknown.join(', ') || '(none listed)'}.`,
          );
        }
      }
      for (const method of methods) {
        if (method !== 'HEAD') {
          registry.push({
            method,
            url,
            access,
            allowDuringMfaEnrollment: route.config?.allowDuringMfaEnrollment === true,
          });
        }
      }
    });
    // Any route declaring its access (outside /api too) gets the check, first among its own hooks
    // (before a rate limit, as a global hook ran), with the access read once here.
    app.addHook('onRoute', (route) => {
      const access = route.config?.access;
      if (access === undefined) {
        return;
      }
      const own = route.onRequest;
      // A new array: the route's options (and fastify's copy for the HEAD route) may share the old one.
      route.onRequest = [checkAccess(access), ...(own === undefined ? [] : Array.isArray(own) ? own : [own])];
    });

    const authorize = async (
      request: FastifyRequest,
      reply: FastifyReply,
      access: RouteAccess,
      token: string | null,
    ): Promise<void> => {
      let hasEndedSession = false;
      if (token !== null) {
        const resolution = await resolveSessionToken(services, token);
        if (resolution.kind === 'live') {
          request.actor = resolution.actor;
        } else {
          hasEndedSession = resolution.kind === 'expired';
          clearSessionCookie(reply, { isSecure: isSecureRequest(request, services.config.publicOrigin) });
        }
      }
      if (access === 'public') {
        return;
      }
      const actor = request.actor;
      if (actor === null) {
        throw hasEndedSession
          ? appError('SESSION_EXPIRED', 'Your session has ended. Sign in again.')
          : appError('UNAUTHENTICATED', 'Sign in to continue.');
      }
      if (actor.mfaEnrollmentRequired && request.routeOptions.config.allowDuringMfaEnrollment !== true) {
        throw appError('MFA_ENROLLMENT_REQUIRED', 'Set up the second factor to continue.');
      }
      if (typeof access === 'object' && !access.anyOf.some((name) => actor.permissions.has(name))) {
        await recordDenial(services, request, actor, access.anyOf);
        throw appError('FORBIDDEN', 'You are not allowed to do this.');
      }
    };

    // Callback style so the common anonymous request to a public route (health
    // checks, sign-in) costs no promise and no query.
    const checkAccess =
      (access: RouteAccess): onRequestHookHandler =>
      (request, reply, next) => {
        const cookieHeader = request.raw.headers.cookie;
        const cookie = cookieHeader === undefined ? null : readCookie(cookieHeader, sessionCookieName);
        const token = cookie === null || cookie === '' ? null : cookie;
        if (access === 'public' && token === null) {
          next();
          return;
        }
        authorize(request, reply, access, token).then(() => next(), next);
      };
    done();
  },
  { name: 'authentication' },
);

async function recordDenial(
  services: AppServices,
  request: FastifyRequest,
  actor: Actor,
  required: readonly Permission[],
): Promise<void> {
  await recordAuditEvent(
    services.db,
    { now: services.now, actorUserId: actor.userId, request: requestMeta(request) },
    {
      action: 'access.denied',
      outcome: 'denied',
      targetType: 'route',
      targetId: `${request.method} ${request.routeOptions.url ?? request.url}`,
      details: { required: [...required] },
    },
  );
}

function isApiPath(url: string | undefined): boolean {
  return url !== undefined && (url === '/api' || url.startsWith('/api/'));
}
