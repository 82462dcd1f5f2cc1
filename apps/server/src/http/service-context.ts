import type { FastifyRequest } from 'fastify';
import type { AppServices, RequestMeta, ServiceContext } from '../modules/context.js';
import { recordAuditEvent } from '../modules/audit/audit.service.js';

/** Where the request came from (the proxy-aware IP when TRUST_PROXY says so). */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null,
    requestId: request.id,
  };
}

/** The service context for one request: the app's collaborators, the actor, and a bound audit writer. */
export function contextFor(services: AppServices, request: FastifyRequest): ServiceContext {
  const meta = requestMeta(request);
  const actor = request.actor;
  return {
    ...services,
    actor,
    request: meta,
    audit: (event) =>
      recordAuditEvent(
        services.db,
        { now: services.now, actorUserId: actor?.userId ?? null, request: meta },
        event,
      ),
  };
}
