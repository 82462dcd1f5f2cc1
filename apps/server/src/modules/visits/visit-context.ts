import type { Permission } from '@telemedicina/shared/permission-catalogue';
import type { FastifyRequest } from 'fastify';
import { requestMeta } from '../../http/service-context.js';
import type { VisitRealtime } from '../../realtime/visit-rooms.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { AuditEventInput, AppServices, RequestMeta, RequestScope } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import type { VisitCaller } from './visits.policy.js';

/** What the visit services need besides the app's collaborators. */
export interface VisitDependencies extends AppServices {
  /** Rooms and pushes of the real-time server. */
  realtime: VisitRealtime;
  storage: FileStorage;
}

/**
 * The explicit context of a visit use case: the same request scope as a
 * `ServiceContext` (collaborators, where from, audit writer), the visit's
 * collaborators, and who is asking as a caller (a user or a guest; null =
 * anonymous) instead of an actor, since a guest has no account.
 */
export interface VisitContext extends RequestScope, VisitDependencies {
  caller: VisitCaller | null;
}

function auditWriter(
  deps: VisitDependencies,
  actorUserId: string | null,
  request: RequestMeta,
): (event: AuditEventInput) => Promise<void> {
  return (event) => recordAuditEvent(deps.db, { now: deps.now, actorUserId, request }, event);
}

/** The context of a REST request: its actor (if any) as the caller. */
export function visitContextFor(deps: VisitDependencies, request: FastifyRequest): VisitContext {
  const meta = requestMeta(request);
  const actor = request.actor;
  return {
    ...deps,
    caller: actor === null ? null : { kind: 'user', userId: actor.userId, permissions: actor.permissions },
    request: meta,
    audit: auditWriter(deps, actor?.userId ?? null, meta),
  };
}

/** The context of a socket event: the user or guest the handshake identified. */
export function visitContextForSocket(
  deps: VisitDependencies,
  identity: {
    userId: string | null;
    permissions: readonly Permission[];
    guest: { id: string; appointmentId: string } | null;
  },
  request: RequestMeta,
): VisitContext {
  let caller: VisitCaller | null = null;
  if (identity.userId !== null) {
    caller = { kind: 'user', userId: identity.userId, permissions: new Set(identity.permissions) };
  } else if (identity.guest !== null) {
    caller = { kind: 'guest', guestId: identity.guest.id, appointmentId: identity.guest.appointmentId };
  }
  return { ...deps, caller, request, audit: auditWriter(deps, identity.userId, request) };
}
