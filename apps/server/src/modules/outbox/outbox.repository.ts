import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailOutbox } from '../../db/schema.js';
import type { OutboxRow } from '../email/email.repository.js';
import { likePattern } from '../../lib/like-pattern.js';

/**
 * One page of the outbox, newest first; `q` matches the recipient or the
 * subject (wildcards literal), `status` keeps one delivery status.
 */
export async function listOutboxPage(
  db: Database,
  query: { page: number; pageSize: number; q?: string | undefined; status?: OutboxRow['status'] | undefined },
): Promise<{ rows: OutboxRow[]; total: number }> {
  const filter = and(
    query.q === undefined || query.q === ''
      ? undefined
      : or(
          ilike(emailOutbox.toAddress, likePattern(query.q)),
          ilike(emailOutbox.subject, likePattern(query.q)),
        ),
    query.status === undefined ? undefined : eq(emailOutbox.status, query.status),
  );
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(emailOutbox)
      .where(filter)
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(emailOutbox).where(filter),
  ]);
  return { rows, total: totalRow?.value ?? 0 };
}
