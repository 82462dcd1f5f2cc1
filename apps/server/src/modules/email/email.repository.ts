import { and, count, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { emailOutbox, type OutboxStatus } from '../../db/schema.js';

export type OutboxRow = typeof emailOutbox.$inferSelect;

export async function insertOutboxMessage(
  db: Database,
  message: Omit<typeof emailOutbox.$inferInsert, 'id'>,
): Promise<OutboxRow> {
  const [row] = await db.insert(emailOutbox).values(message).returning();
  if (row === undefined) {
    throw new Error('insert into email_outbox returned nothing');
  }
  return row;
}

export async function updateOutboxStatus(
  db: Database,
  id: string,
  update: { status: OutboxStatus; error: string | null; sentAt: Date | null },
): Promise<void> {
  await db
    .update(emailOutbox)
    .set({ ...update, attempts: sql`${emailOutbox.attempts} + 1` })
    .where(eq(emailOutbox.id, id));
}

/** Messages of one template sent to one address since `since` (per-recipient throttling). */
export async function countRecentMessages(
  db: Database,
  toAddress: string,
  template: string,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(emailOutbox)
    .where(
      and(
        eq(emailOutbox.toAddress, toAddress),
        eq(emailOutbox.template, template),
        gte(emailOutbox.createdAt, since),
      ),
    );
  return row?.value ?? 0;
}

export async function findOutboxMessage(db: Database, id: string): Promise<OutboxRow | null> {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id));
  return row ?? null;
}
