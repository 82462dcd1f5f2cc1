import { errorResponseSchema } from '@telemedicina/shared/api';
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, doctorProfiles } from '../../db/schema.js';
import { createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { createClock, createDoctor } from '../../test/booking-fixtures.js';

/**
 * Random sequences of book / cancel / reschedule (and changes of the
 * doctor's visit length, so new slots can half-overlap old appointments),
 * through the HTTP app by staff, against a model of the doctor's book. After
 * every sequence: no two live appointments of the doctor overlap (checked in
 * SQL) and the live ones are exactly those the model expects.
 */

const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let staff: SignedInClient;
const patientIds: string[] = [];

const dayStart = Date.parse('2026-03-27T08:00:00Z');
const dayEnd = Date.parse('2026-03-27T14:00:00Z');
const minuteMs = 60_000;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
  for (let index = 0; index < 3; index += 1) {
    patientIds.push((await createUser(context.app, { roles: ['patient'] })).id);
  }
});

afterAll(async () => {
  await context?.close();
});

type Command =
  | { op: 'book'; slot: number; patient: number }
  | { op: 'cancel'; target: number }
  | { op: 'reschedule'; target: number; slot: number }
  | { op: 'visitLength'; minutes: number };

const commandArbitrary: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('book' as const), slot: fc.nat(14), patient: fc.nat(2) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), target: fc.nat(20) }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant('reschedule' as const), target: fc.nat(20), slot: fc.nat(14) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('visitLength' as const), minutes: fc.constantFrom(20, 30, 45) }),
  },
);

interface ModelAppointment {
  id: string;
  start: number;
  end: number;
  live: boolean;
}

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

/** What the model says a request for [start, start + minutes) should get. */
function expectedFor(
  model: readonly ModelAppointment[],
  start: number,
  minutes: number,
  selfId: string | null,
): 'ok' | 'notSlot' | 'taken' {
  const end = start + minutes * minuteMs;
  if ((start - dayStart) % (minutes * minuteMs) !== 0 || end > dayEnd) {
    return 'notSlot';
  }
  const clash = model.some(
    (entry) => entry.live && entry.id !== selfId && entry.start < end && start < entry.end,
  );
  return clash ? 'taken' : 'ok';
}

describe('booking, cancelling and rescheduling at random', () => {
  it('never leaves two live appointments of one doctor overlapping', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(commandArbitrary, { minLength: 1, maxLength: 14 }), async (commands) => {
        const doctor = await createDoctor(context.app, { timeZone: 'UTC', rules: [[5, '08:00', '14:00']] });
        let minutes = 30;
        const model: ModelAppointment[] = [];
        for (const command of commands) {
          if (command.op === 'visitLength') {
            minutes = command.minutes;
            await context.db
              .update(doctorProfiles)
              .set({ visitMinutes: minutes })
              .where(eq(doctorProfiles.userId, doctor.id));
            continue;
          }
          if (command.op === 'book') {
            const start = dayStart + command.slot * minutes * minuteMs;
            const response = await send(context.app, 'POST', '/api/v1/appointments', {
              session: staff.token,
              body: {
                doctorId: doctor.id,
                startsAt: new Date(start).toISOString(),
                reason: 'Prueba aleatoria',
                patientId: patientIds[command.patient],
              },
            });
            const expected = expectedFor(model, start, minutes, null);
            if (expected === 'ok') {
              expect(response.statusCode, response.body).toBe(201);
              model.push({
                id: response.json<{ id: string }>().id,
                start,
                end: start + minutes * minuteMs,
                live: true,
              });
            } else {
              expect(response.statusCode, response.body).toBe(expected === 'taken' ? 409 : 400);
              if (expected === 'taken') {
                expect(codeOf(response)).toBe('SLOT_TAKEN');
              }
            }
            continue;
          }
          const target = model[command.target % Math.max(model.length, 1)];
          if (target === undefined) {
            continue;
          }
          if (command.op === 'cancel') {
            const response = await send(context.app, 'POST', `/api/v1/appointments/${target.id}/cancel`, {
              session: staff.token,
              body: { reason: 'Prueba aleatoria' },
            });
            if (target.live) {
              expect(response.statusCode, response.body).toBe(200);
              target.live = false;
            } else {
              expect(codeOf(response)).toBe('INVALID_TRANSITION');
            }
            continue;
          }
          const start = dayStart + command.slot * minutes * minuteMs;
          const response = await send(context.app, 'POST', `/api/v1/appointments/${target.id}/reschedule`, {
            session: staff.token,
            body: { startsAt: new Date(start).toISOString() },
          });
          if (!target.live) {
            expect(codeOf(response)).toBe('INVALID_TRANSITION');
            continue;
          }
          const expected = expectedFor(model, start, minutes, target.id);
          if (expected === 'ok') {
            expect(response.statusCode, response.body).toBe(200);
            target.start = start;
            target.end = start + minutes * minuteMs;
          } else {
            expect(response.statusCode, response.body).toBe(expected === 'taken' ? 409 : 400);
          }
        }
        const overlapping = await context.db.execute(sql`
          select count(*)::int as count
          from appointments a
          join appointments b
            on a.doctor_user_id = b.doctor_user_id
           and a.id < b.id
           and tstzrange(a.starts_at, a.ends_at, '[)') && tstzrange(b.starts_at, b.ends_at, '[)')
          where a.doctor_user_id = ${doctor.id}
            and a.status not in ('cancelled', 'no_show')
            and b.status not in ('cancelled', 'no_show')`);
        expect((overlapping as { rows: { count: number }[] }).rows[0]?.count).toBe(0);
        const live = await context.db
          .select({ id: appointments.id, startsAt: appointments.startsAt })
          .from(appointments)
          .where(
            and(
              eq(appointments.doctorUserId, doctor.id),
              notInArray(appointments.status, ['cancelled', 'no_show']),
            ),
          )
          .orderBy(asc(appointments.id));
        expect(live.map((row) => [row.id, row.startsAt.getTime()])).toEqual(
          model
            .filter((entry) => entry.live)
            .sort((a, b) => (a.id < b.id ? -1 : 1))
            .map((entry) => [entry.id, entry.start]),
        );
      }),
      { numRuns: 30 },
    );
  });
});
