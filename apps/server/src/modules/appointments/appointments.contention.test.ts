import { performance } from 'node:perf_hooks';
import { errorResponseSchema } from '@telemedicina/shared/api';
import { slotTakenDetailsSchema } from '@telemedicina/shared/booking';
import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../db/schema.js';
import { createUser, send, signIn } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { testDatabaseUrl } from '../../test/test-database.js';
import { createClock, createDoctor, everyDay } from '../../test/booking-fixtures.js';

/**
 * Many patients booking one slot at the same moment, through the whole HTTP
 * app: exactly one wins, every other request is a clean 409 SLOT_TAKEN
 * (whether the pre-check saw the winner or the exclusion constraint refused
 * the insert), never a 5xx. 200 requests on PostgreSQL (TEST_DATABASE_URL);
 * on the embedded PGlite, which runs one statement at a time, 25.
 */

const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
});

afterAll(async () => {
  await context?.close();
});

/**
 * PostgreSQL only: transactions rolled back in this test's database so far
 * (each insert the exclusion constraint refuses is one), after giving the
 * server's backends time to publish their statistics.
 */
async function rolledBackTransactions(): Promise<number | null> {
  if (context.database.client.kind !== 'postgres') {
    return null;
  }
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const result = (await context.db.execute(
    sql`select pg_stat_clear_snapshot(), xact_rollback::int as count from pg_stat_database where datname = current_database()`,
  )) as { rows: { count: number }[] };
  return result.rows[0]?.count ?? null;
}

async function contend(requests: number): Promise<void> {
  const doctor = await createDoctor(context.app, { timeZone: 'UTC', rules: everyDay('08:00', '12:00') });
  const sessions: string[] = [];
  for (let index = 0; index < requests; index += 1) {
    sessions.push((await signIn(context.app, await createUser(context.app, { roles: ['patient'] }))).token);
  }
  const startsAt = '2026-03-27T09:00:00.000Z';
  const rollbacksBefore = await rolledBackTransactions();
  const started = performance.now();
  const responses = await Promise.all(
    sessions.map((session) =>
      send(context.app, 'POST', '/api/v1/appointments', {
        session,
        body: { doctorId: doctor.id, startsAt, reason: 'Misma hora para todos' },
      }),
    ),
  );
  const elapsedMs = performance.now() - started;
  const statuses = responses.map((response) => response.statusCode);
  expect(statuses.filter((status) => status >= 500)).toEqual([]);
  expect(statuses.filter((status) => status === 201)).toHaveLength(1);
  const conflicts = responses.filter((response) => response.statusCode === 409);
  expect(conflicts).toHaveLength(requests - 1);
  for (const response of conflicts) {
    const error = errorResponseSchema.parse(response.json()).error;
    expect(error.code).toBe('SLOT_TAKEN');
    expect(slotTakenDetailsSchema.parse(error.details).nextSlots[0]?.startsAt).toBe(
      '2026-03-27T09:30:00.000Z',
    );
  }
  const live = await context.db
    .select({ id: appointments.id })
    .from(appointments)
    .where(and(eq(appointments.doctorUserId, doctor.id), ne(appointments.status, 'cancelled')));
  expect(live).toHaveLength(1);
  const refusedByConstraint =
    rollbacksBefore === null ? null : ((await rolledBackTransactions()) ?? rollbacksBefore) - rollbacksBefore;
  console.info(
    `contention (${context.database.description}): ${requests} concurrent bookings of one slot → 1 × 201, ` +
      `${conflicts.length} × 409 SLOT_TAKEN in ${elapsedMs.toFixed(0)} ms` +
      (refusedByConstraint === null
        ? ''
        : `; about ${refusedByConstraint} of the 409s came from the exclusion constraint (failed inserts), the rest from the pre-check`),
  );
}

/**
 * PostgreSQL (CI's second run): the 200 concurrent requests. PGlite has one connection, so
 * requests serialise there; 25 keep the same assertions meaningful without slowing the suite.
 */
const contenders = testDatabaseUrl === null ? 25 : 200;

describe('booking contention', () => {
  it(
    `gives exactly one of ${contenders} concurrent bookings of one slot the slot, the others clean 409 SLOT_TAKEN, no 5xx`,
    { timeout: 120_000 },
    async () => {
      await contend(contenders);
    },
  );
});
