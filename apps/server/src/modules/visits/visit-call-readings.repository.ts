import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { visits, type StoredCallReading } from '../../db/schema.js';

export type { StoredCallReading };
export type StoredCallReadings = Record<string, StoredCallReading>;

/**
 * Folds one participant's reading into the visit's kept readings, in one transaction: the visit's
 * row is created when missing and locked while `merge` computes the new entry, so two reports at
 * once (two participants, two instances) never overwrite each other's worst values.
 */
export async function updateCallReading(
  db: Database,
  appointmentId: string,
  key: string,
  merge: (previous: StoredCallReading | null) => StoredCallReading,
  at: Date,
): Promise<StoredCallReadings> {
  return db.transaction(async (tx) => {
    await tx
      .insert(visits)
      .values({ appointmentId, createdAt: at, updatedAt: at })
      .onConflictDoNothing({ target: visits.appointmentId });
    const [row] = await tx
      .select({ callReadings: visits.callReadings })
      .from(visits)
      .where(eq(visits.appointmentId, appointmentId))
      .for('update');
    const readings: StoredCallReadings = { ...(row?.callReadings ?? {}) };
    readings[key] = merge(readings[key] ?? null);
    await tx.update(visits).set({ callReadings: readings }).where(eq(visits.appointmentId, appointmentId));
    return readings;
  });
}
