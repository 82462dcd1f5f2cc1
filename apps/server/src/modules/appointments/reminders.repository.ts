import { and, asc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { appointmentReminders } from '../../db/schema.js';

export type ReminderKind = '24h' | '1h' | 'intake';
export type ReminderRow = typeof appointmentReminders.$inferSelect;

/** How long before the start each reminder is due. */
export const reminderOffsetsMs: Record<ReminderKind, number> = {
  '24h': 24 * 3_600_000,
  '1h': 3_600_000,
  intake: 24 * 3_600_000,
};
/** The appointment reminders every booking gets (`intake` only when forms were due). */
export const reminderKinds: ReminderKind[] = ['24h', '1h'];

/** Inserts the reminders still in the future (an existing pair is left as it is). */
export async function insertReminders(
  db: Database,
  appointmentId: string,
  startsAt: Date,
  now: Date,
  kinds: readonly ReminderKind[] = reminderKinds,
): Promise<void> {
  const rows = kinds
    .map((kind) => ({ appointmentId, kind, dueAt: new Date(startsAt.getTime() - reminderOffsetsMs[kind]) }))
    .filter((row) => row.dueAt > now);
  if (rows.length > 0) {
    await db.insert(appointmentReminders).values(rows).onConflictDoNothing();
  }
}

/**
 * After a reschedule: every reminder moves with the start; one already sent is
 * sent again only when the visit moved later (its new time is still ahead).
 * Reminders that were never created (past at booking) are added when now ahead.
 */
export async function moveReminders(
  db: Database,
  appointmentId: string,
  previousStartsAt: Date,
  startsAt: Date,
  now: Date,
): Promise<void> {
  const later = startsAt > previousStartsAt;
  // Every kind the visit has moves (an update touches no row of a kind it never got).
  for (const kind of Object.keys(reminderOffsetsMs) as ReminderKind[]) {
    const dueAt = new Date(startsAt.getTime() - reminderOffsetsMs[kind]);
    await db
      .update(appointmentReminders)
      .set({
        dueAt,
        ...(later ? { sentAt: null, attempts: 0, lastError: null } : {}),
      })
      .where(and(eq(appointmentReminders.appointmentId, appointmentId), eq(appointmentReminders.kind, kind)));
  }
  await insertReminders(db, appointmentId, startsAt, now);
}

export async function deleteReminders(db: Database, appointmentId: string): Promise<void> {
  await db.delete(appointmentReminders).where(eq(appointmentReminders.appointmentId, appointmentId));
}

export async function remindersOf(db: Database, appointmentId: string): Promise<ReminderRow[]> {
  return db
    .select()
    .from(appointmentReminders)
    .where(eq(appointmentReminders.appointmentId, appointmentId))
    .orderBy(asc(appointmentReminders.dueAt));
}

/** A reminder failing this many passes is given up (left unsent, with its last error). */
export const maxReminderAttempts = 5;

function dueCondition(now: Date) {
  return and(isNull(appointmentReminders.sentAt), lte(appointmentReminders.dueAt, now));
}

/**
 * After a failed pass (rolled back): counts an attempt and keeps the error on
 * the rows that pass would have taken, so a reminder that always fails stops
 * blocking the others after {@link maxReminderAttempts} passes.
 */
export async function recordReminderFailure(
  db: Database,
  now: Date,
  limit: number,
  error: string,
): Promise<void> {
  const due = await db
    .select({ appointmentId: appointmentReminders.appointmentId, kind: appointmentReminders.kind })
    .from(appointmentReminders)
    .where(and(dueCondition(now), lt(appointmentReminders.attempts, maxReminderAttempts)))
    .orderBy(asc(appointmentReminders.dueAt))
    .limit(limit);
  for (const key of due) {
    await db
      .update(appointmentReminders)
      .set({ attempts: sql`${appointmentReminders.attempts} + 1`, lastError: error.slice(0, 500) })
      .where(
        and(
          eq(appointmentReminders.appointmentId, key.appointmentId),
          eq(appointmentReminders.kind, key.kind),
        ),
      );
  }
}

/**
 * Locks up to `limit` unsent reminders due by `now`, skipping rows another
 * worker holds (`FOR UPDATE SKIP LOCKED`): call inside a transaction.
 */
export async function claimDueReminders(db: Database, now: Date, limit: number): Promise<ReminderRow[]> {
  return db
    .select()
    .from(appointmentReminders)
    .where(and(dueCondition(now), lt(appointmentReminders.attempts, maxReminderAttempts)))
    .orderBy(asc(appointmentReminders.dueAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markRemindersSent(
  db: Database,
  keys: readonly Pick<ReminderRow, 'appointmentId' | 'kind'>[],
  now: Date,
): Promise<void> {
  for (const key of keys) {
    await db
      .update(appointmentReminders)
      .set({ sentAt: now, attempts: sql`${appointmentReminders.attempts} + 1`, lastError: null })
      .where(
        and(
          eq(appointmentReminders.appointmentId, key.appointmentId),
          inArray(appointmentReminders.kind, [key.kind]),
        ),
      );
  }
}
