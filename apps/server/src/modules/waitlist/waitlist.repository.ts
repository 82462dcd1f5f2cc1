import { and, asc, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users, waitlistEntries } from '../../db/schema.js';

export type WaitlistRow = typeof waitlistEntries.$inferSelect;

/** Joins (or updates `before` of) the patient's entry for the doctor. */
export async function upsertWaitlistEntry(
  db: Database,
  entry: { doctorUserId: string; patientUserId: string; before: Date | null; createdAt: Date },
): Promise<WaitlistRow> {
  const [row] = await db
    .insert(waitlistEntries)
    .values(entry)
    .onConflictDoUpdate({
      target: [waitlistEntries.doctorUserId, waitlistEntries.patientUserId],
      set: { before: entry.before },
    })
    .returning();
  if (row === undefined) {
    throw new Error('upsert into waitlist_entries returned nothing');
  }
  return row;
}

export async function findWaitlistEntry(
  db: Database,
  doctorUserId: string,
  patientUserId: string,
): Promise<WaitlistRow | null> {
  const [row] = await db
    .select()
    .from(waitlistEntries)
    .where(
      and(eq(waitlistEntries.doctorUserId, doctorUserId), eq(waitlistEntries.patientUserId, patientUserId)),
    );
  return row ?? null;
}

export async function deleteWaitlistEntry(
  db: Database,
  doctorUserId: string,
  patientUserId: string,
): Promise<boolean> {
  const rows = await db
    .delete(waitlistEntries)
    .where(
      and(eq(waitlistEntries.doctorUserId, doctorUserId), eq(waitlistEntries.patientUserId, patientUserId)),
    )
    .returning({ id: waitlistEntries.id });
  return rows.length > 0;
}

/**
 * The patients to tell about a freed slot: waiting for this doctor, wanting a
 * slot before a time after it (or any slot), active, not the one who left it;
 * those never told first, then those told longest ago, then by joining order.
 */
export async function findWaitingFor(
  db: Database,
  doctorUserId: string,
  slotStartsAt: Date,
  exceptPatientUserId: string,
  limit: number,
) {
  return db
    .select({
      id: waitlistEntries.id,
      patientUserId: waitlistEntries.patientUserId,
      name: users.name,
      email: users.email,
      language: users.language,
      timeZone: users.timeZone,
    })
    .from(waitlistEntries)
    .innerJoin(users, eq(users.id, waitlistEntries.patientUserId))
    .where(
      and(
        eq(waitlistEntries.doctorUserId, doctorUserId),
        ne(waitlistEntries.patientUserId, exceptPatientUserId),
        eq(users.status, 'active'),
        or(isNull(waitlistEntries.before), gt(waitlistEntries.before, slotStartsAt)),
      ),
    )
    .orderBy(sql`${waitlistEntries.notifiedAt} asc nulls first`, asc(waitlistEntries.createdAt))
    .limit(limit);
}

export async function markWaitlistNotified(db: Database, id: string, now: Date): Promise<void> {
  await db.update(waitlistEntries).set({ notifiedAt: now }).where(eq(waitlistEntries.id, id));
}
