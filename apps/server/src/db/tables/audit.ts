import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail: append-only. Triggers (migration 0002) reject UPDATE,
 * DELETE and TRUNCATE, so not even the application can rewrite history.
 * `actor_user_id` deliberately has no foreign key: removing a user must not
 * need to touch their past events.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    actorUserId: uuid(),
    actorIp: text(),
    userAgent: text(),
    requestId: text(),
    action: text().notNull(),
    targetType: text(),
    targetId: text(),
    outcome: text().$type<'success' | 'failure' | 'denied'>().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  },
  (table) => [
    index('audit_events_at_idx').on(table.at),
    index('audit_events_actor_idx').on(table.actorUserId),
    index('audit_events_target_idx').on(table.targetType, table.targetId),
    check('audit_events_outcome_check', sql`${table.outcome} in ('success', 'failure', 'denied')`),
  ],
);
