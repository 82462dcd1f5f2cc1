import type { Database } from '../../db/client.js';
import { auditEvents } from '../../db/schema.js';

export type AuditEventRow = typeof auditEvents.$inferInsert;

/** Appends one event; the table accepts nothing else (see migration 0002). */
export async function insertAuditEvent(db: Database, event: AuditEventRow): Promise<void> {
  await db.insert(auditEvents).values(event);
}
