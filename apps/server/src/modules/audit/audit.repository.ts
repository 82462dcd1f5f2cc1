import { and, asc, count, desc, eq, gt, gte, ilike, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { auditEvents, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export type AuditEventRow = typeof auditEvents.$inferInsert;

/** Appends one event; the table accepts nothing else (see migration 0002). */
export async function insertAuditEvent(db: Database, event: AuditEventRow): Promise<void> {
  await db.insert(auditEvents).values(event);
}

/** Appends several events in one multi-row INSERT (nothing for an empty list). */
export async function insertAuditEvents(db: Database, events: readonly AuditEventRow[]): Promise<void> {
  if (events.length > 0) {
    await db.insert(auditEvents).values([...events]);
  }
}

/** What the viewer filters on, already interpreted by the service. */
export interface AuditEventFilter {
  actorUserId?: string;
  /** Matched (ILIKE, wildcards literal) against the actor's name or email. */
  actorText?: string;
  action?: { exact: string } | { prefix: string };
  targetType?: string;
  targetId?: string;
  outcome?: 'success' | 'failure' | 'denied';
  /** Inclusive calendar dates, read in `timeZone`. */
  from?: string;
  to?: string;
  timeZone: string;
  /** Free text: action, record id, actor name or email. */
  q?: string;
}

/** An event with its actor (null when anonymous or the user is gone). */
export interface AuditEventListRow {
  id: number;
  at: Date;
  actorUserId: string | null;
  actorIp: string | null;
  userAgent: string | null;
  requestId: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  outcome: 'success' | 'failure' | 'denied';
  details: Record<string, unknown>;
  actorName: string | null;
  actorEmail: string | null;
}

const listColumns = {
  id: auditEvents.id,
  at: auditEvents.at,
  actorUserId: auditEvents.actorUserId,
  actorIp: auditEvents.actorIp,
  userAgent: auditEvents.userAgent,
  requestId: auditEvents.requestId,
  action: auditEvents.action,
  targetType: auditEvents.targetType,
  targetId: auditEvents.targetId,
  outcome: auditEvents.outcome,
  details: auditEvents.details,
  actorName: users.name,
  actorEmail: users.email,
};

/** `prefix%` with LIKE's wildcards in the prefix taken literally. */
function likePrefix(prefix: string): string {
  return `${likePattern(prefix).slice(1, -1)}%`;
}

function whereOf(filter: AuditEventFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.actorUserId !== undefined) {
    conditions.push(eq(auditEvents.actorUserId, filter.actorUserId));
  }
  if (filter.actorText !== undefined) {
    const pattern = likePattern(filter.actorText);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern)));
  }
  if (filter.action !== undefined) {
    conditions.push(
      'exact' in filter.action
        ? eq(auditEvents.action, filter.action.exact)
        : like(auditEvents.action, likePrefix(filter.action.prefix)),
    );
  }
  if (filter.targetType !== undefined) {
    conditions.push(eq(auditEvents.targetType, filter.targetType));
  }
  if (filter.targetId !== undefined) {
    conditions.push(eq(auditEvents.targetId, filter.targetId));
  }
  if (filter.outcome !== undefined) {
    conditions.push(eq(auditEvents.outcome, filter.outcome));
  }
  if (filter.from !== undefined) {
    conditions.push(
      gte(auditEvents.at, sql`(${filter.from}::date)::timestamp at time zone ${filter.timeZone}`),
    );
  }
  if (filter.to !== undefined) {
    conditions.push(
      lt(auditEvents.at, sql`(${filter.to}::date + 1)::timestamp at time zone ${filter.timeZone}`),
    );
  }
  if (filter.q !== undefined && filter.q !== '') {
    const pattern = likePattern(filter.q);
    conditions.push(
      or(
        ilike(auditEvents.action, pattern),
        ilike(auditEvents.targetId, pattern),
        ilike(users.name, pattern),
        ilike(users.email, pattern),
      ),
    );
  }
  return and(...conditions);
}

/** One page of events, newest first unless `order` is `asc`, with the total matching. */
export async function listAuditEvents(
  db: Database,
  filter: AuditEventFilter,
  page: { page: number; pageSize: number; order: 'asc' | 'desc' },
): Promise<{ rows: AuditEventListRow[]; total: number }> {
  const where = whereOf(filter);
  const direction = page.order === 'asc' ? asc : desc;
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(listColumns)
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorUserId))
      .where(where)
      .orderBy(direction(auditEvents.at), direction(auditEvents.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize),
    db
      .select({ value: count() })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorUserId))
      .where(where),
  ]);
  return { rows, total: totalRow?.value ?? 0 };
}

/**
 * The next `limit` matching events after `after` (keyset on `(at, id)` in the
 * given order), for exports that read a large log in batches without OFFSET.
 */
export async function listAuditEventsAfter(
  db: Database,
  filter: AuditEventFilter,
  order: 'asc' | 'desc',
  after: { at: Date; id: number } | null,
  limit: number,
): Promise<AuditEventListRow[]> {
  const direction = order === 'asc' ? asc : desc;
  const compare = order === 'asc' ? gt : lt;
  const keyset =
    after === null
      ? undefined
      : or(
          compare(auditEvents.at, after.at),
          and(eq(auditEvents.at, after.at), compare(auditEvents.id, after.id)),
        );
  return db
    .select(listColumns)
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .where(and(whereOf(filter), keyset))
    .orderBy(direction(auditEvents.at), direction(auditEvents.id))
    .limit(limit);
}

/**
 * Distinct actions and record types in the log, sorted. Record types walk the
 * `(target_type, target_id)` index one value at a time (a loose index scan),
 * so a long log does not mean a long wait.
 */
export async function findAuditFacets(db: Database): Promise<{ actions: string[]; targetTypes: string[] }> {
  const [actionRows, typeRows] = await Promise.all([
    db.selectDistinct({ value: auditEvents.action }).from(auditEvents).orderBy(asc(auditEvents.action)),
    db.execute(sql`
      with recursive types as (
        (select target_type as value from audit_events where target_type is not null order by target_type limit 1)
        union all
        select (select target_type from audit_events where target_type > types.value order by target_type limit 1)
        from types where types.value is not null
      )
      select value from types where value is not null`),
  ]);
  return {
    actions: actionRows.map((row) => row.value),
    targetTypes: rowsOf<{ value: string | null }>(typeRows).flatMap((row) =>
      row.value === null ? [] : [row.value],
    ),
  };
}

/** The rows of a raw `execute` (both drivers answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The language a user reads in (for export headers), or null when the user is gone. */
export async function findUserLanguage(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ language: users.language }).from(users).where(eq(users.id, userId));
  return row?.language ?? null;
}
