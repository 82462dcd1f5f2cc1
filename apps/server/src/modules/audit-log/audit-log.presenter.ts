import type { AuditEvent } from '@telemedicina/shared/admin';
import type { AuditEventListRow } from '../audit/audit.repository.js';

/** An audit event with its actor, as the viewer shows it. */
export function presentAuditEvent(row: AuditEventListRow): AuditEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actorUserId: row.actorUserId,
    actor:
      row.actorUserId === null || row.actorName === null || row.actorEmail === null
        ? null
        : { id: row.actorUserId, name: row.actorName, email: row.actorEmail },
    actorIp: row.actorIp,
    userAgent: row.userAgent,
    requestId: row.requestId,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    outcome: row.outcome,
    details: row.details,
  };
}
