import type { Database } from '../../db/client.js';
import type { AuditEventInput, RequestMeta } from '../context.js';
import { insertAuditEvent, insertAuditEvents, type AuditEventRow } from './audit.repository.js';

/** Every action the audit trail records: the shared list (the web has a label for each). */
export { auditActions, type AuditAction } from '@telemedicina/shared/audit-actions';

/**
 * Writes an audit event: who (actor), what (action, target), when, from where
 * (IP, user agent, request id) and the outcome. Used by every module; the
 * database refuses to change or delete what it writes.
 */
export async function recordAuditEvent(
  db: Database,
  context: { now: () => Date; actorUserId: string | null; request: RequestMeta },
  event: AuditEventInput,
): Promise<void> {
  await insertAuditEvent(db, auditRow(context, event));
}

/** Writes several events (each its own row, as `recordAuditEvent` would) in one INSERT. */
export async function recordAuditEvents(
  db: Database,
  context: { now: () => Date; actorUserId: string | null; request: RequestMeta },
  events: readonly AuditEventInput[],
): Promise<void> {
  await insertAuditEvents(
    db,
    events.map((event) => auditRow(context, event)),
  );
}

function auditRow(
  context: { now: () => Date; actorUserId: string | null; request: RequestMeta },
  event: AuditEventInput,
): AuditEventRow {
  return {
    at: context.now(),
    actorUserId: event.actorUserId === undefined ? context.actorUserId : event.actorUserId,
    actorIp: context.request.ip,
    userAgent: context.request.userAgent,
    requestId: context.request.requestId,
    action: event.action,
    targetType: event.targetType ?? null,
    targetId: event.targetId ?? null,
    outcome: event.outcome ?? 'success',
    details: event.details ?? {},
  };
}
