import type { Database } from '../../db/client.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { AuditEventInput, ServiceContext } from '../context.js';

/** Writes an audit event with `db` (a transaction), so it commits or rolls back with the change. */
export function auditIn(ctx: ServiceContext, db: Database, event: AuditEventInput): Promise<void> {
  return recordAuditEvent(
    db,
    { now: ctx.now, actorUserId: ctx.actor?.userId ?? null, request: ctx.request },
    event,
  );
}
