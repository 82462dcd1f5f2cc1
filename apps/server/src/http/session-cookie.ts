import type { FastifyReply, FastifyRequest } from 'fastify';
import { isSecureRequest, setSessionCookie } from './cookies.js';
import { rotateXsrfCookie } from './xsrf.js';

/** Sets the new session's cookie and a fresh XSRF token on a sign-in answer (sign-in, invitation, re-authentication). */
export function applySessionCookie(
  services: { config: { publicOrigin: string }; now: () => Date },
  request: FastifyRequest,
  reply: FastifyReply,
  started: { token: string; session: { expiresAt: Date } },
): void {
  const isSecure = isSecureRequest(request, services.config.publicOrigin);
  setSessionCookie(reply, started.token, {
    isSecure,
    expiresAt: started.session.expiresAt,
    now: services.now(),
  });
  rotateXsrfCookie(reply, isSecure);
}
