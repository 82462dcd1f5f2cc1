import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import { isExclusionViolation } from '../../lib/database-errors.js';
import { createDoctor } from '../../test/booking-fixtures.js';
import { createUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { insertAppointment, lockDoctorAgenda, type AppointmentRow } from './appointments.repository.js';

/**
 * The doctor's agenda lock against the race the SIGKILL suite found on PostgreSQL: a transaction
 * holding a new appointment rolls back (its request failed, or its server was killed) while
 * several others wait to insert the same slot. Without the lock each waiter has already put its
 * row in the exclusion constraint's index; once the first is gone they find one another's rows
 * and wait on one another, and PostgreSQL aborts one with a deadlock (40P01, a 500). With it,
 * they insert one after the other: exactly one gets the slot, the others a clean exclusion
 * violation (23P01, answered 409 SLOT_TAKEN). On PGlite (one connection) transactions run one
 * at a time, so the same outcome holds trivially there.
 */

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext();
});

afterAll(async () => {
  await context?.close();
});

/** Resolves once `count` backends of this database wait on a lock (PostgreSQL), or after a pause (PGlite). */
async function untilWaiting(count: number): Promise<void> {
  if (context.database.client.kind !== 'postgres') {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return;
  }
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const result = (await context.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    )) as { rows: { waiting: number }[] };
    if ((result.rows[0]?.waiting ?? 0) >= count) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} transactions came to wait on a lock`);
}

describe("the doctor's agenda lock", () => {
  it('turns a rolled-back holder and several waiting bookings of one slot into one winner and clean exclusion violations', async () => {
    const doctor = await createDoctor(context.app, { timeZone: 'UTC' });
    const patients = await Promise.all(
      Array.from({ length: 3 }, () => createUser(context.app, { roles: ['patient'] })),
    );
    const startsAt = new Date('2026-05-04T09:00:00Z');
    const endsAt = new Date('2026-05-04T09:30:00Z');
    const book = async (db: Database, patientId: string): Promise<AppointmentRow> => {
      await lockDoctorAgenda(db, doctor.id);
      return insertAppointment(db, {
        doctorUserId: doctor.id,
        patientUserId: patientId,
        startsAt,
        endsAt,
        status: 'confirmed',
        reason: 'Misma hora',
        createdByUserId: patientId,
      });
    };

    // The first holds the slot in an open transaction, then fails (rolls back) once the others wait.
    let failFirst!: () => void;
    const firstMayFail = new Promise<void>((resolve) => (failFirst = resolve));
    let firstHolds!: () => void;
    const firstHolding = new Promise<void>((resolve) => (firstHolds = resolve));
    const first = context.db
      .transaction(async (db) => {
        await book(db, patients[0]!.id);
        firstHolds();
        await firstMayFail;
        throw new Error('the first booking fails after inserting');
      })
      .then(
        () => 'committed',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
    await firstHolding;
    const waiters = patients.slice(1).map((patient) =>
      context.db
        .transaction((db) => book(db, patient.id))
        .then(
          (row) => ({ outcome: 'booked' as const, row, error: null }),
          (error: unknown) => ({ outcome: 'refused' as const, row: null, error }),
        ),
    );
    await untilWaiting(waiters.length);
    failFirst();

    expect(await first).toBe('the first booking fails after inserting');
    const outcomes = await Promise.all(waiters);
    expect(outcomes.filter((outcome) => outcome.outcome === 'booked')).toHaveLength(1);
    const refusals = outcomes.filter((outcome) => outcome.outcome === 'refused');
    expect(refusals).toHaveLength(waiters.length - 1);
    for (const refusal of refusals) {
      // An exclusion violation (409 SLOT_TAKEN), never a deadlock (40P01) or anything else.
      expect(isExclusionViolation(refusal.error), String(refusal.error)).toBe(true);
    }
  });
});
