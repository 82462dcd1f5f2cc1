import { errorResponseSchema } from '@telemedicina/shared/api';
import {
  availabilityExceptionListSchema,
  availabilityExceptionSchema,
  availabilityRulesResponseSchema,
  slotsResponseSchema,
} from '@telemedicina/shared/booking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { createClock, createDoctor, type TestDoctor } from '../../test/booking-fixtures.js';
import { findFreeSlots } from './availability.service.js';

// Wednesday 2026-03-25 10:00 UTC: the weekend after holds Europe's spring-forward change.
const clock = createClock('2026-03-25T10:00:00Z');
let context: TestContext;
let doctor: TestDoctor;
let doctorClient: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  doctor = await createDoctor(context.app, { timeZone: 'Europe/Madrid' });
  doctorClient = await signIn(context.app, doctor);
});

afterAll(async () => {
  await context?.close();
});

function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

const rulesUrl = (id: string) => `/api/v1/doctors/${id}/availability/rules`;
const exceptionsUrl = (id: string) => `/api/v1/doctors/${id}/availability/exceptions`;

describe('weekly rules', () => {
  it('lets the doctor replace their rules, saved in their zone, and audits it', async () => {
    const response = await send(context.app, 'PUT', rulesUrl(doctor.id), {
      session: doctorClient.token,
      body: {
        rules: [
          { weekday: 6, start: '09:00', end: '10:00' },
          { weekday: 7, start: '09:00', end: '10:00' },
          { weekday: 1, start: '09:00', end: '10:00' },
          { weekday: 1, start: '16:00', end: '17:00', validFrom: '2026-03-30', validUntil: '2026-04-30' },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = availabilityRulesResponseSchema.parse(response.json());
    expect(body.timeZone).toBe('Europe/Madrid');
    expect(body.rules.map((rule) => [rule.weekday, rule.start, rule.end, rule.timeZone])).toEqual([
      [1, '09:00', '10:00', 'Europe/Madrid'],
      [1, '16:00', '17:00', 'Europe/Madrid'],
      [6, '09:00', '10:00', 'Europe/Madrid'],
      [7, '09:00', '10:00', 'Europe/Madrid'],
    ]);
    expect(body.rules[1]).toMatchObject({ validFrom: '2026-03-30', validUntil: '2026-04-30' });
    const read = await send(context.app, 'GET', rulesUrl(doctor.id), { session: doctorClient.token });
    expect(availabilityRulesResponseSchema.parse(read.json()).rules).toHaveLength(4);
    const events = (await auditEventsOf(context.app, 'availability.rules_replaced')).filter(
      (event) => event.targetId === doctor.id,
    );
    expect(events.at(-1)?.details).toMatchObject({ ruleCount: 4, timeZone: 'Europe/Madrid' });
  });

  it('refuses overlapping ranges of one day whose validity meets, not those that never meet', async () => {
    const overlapping = await send(context.app, 'PUT', rulesUrl(doctor.id), {
      session: doctorClient.token,
      body: {
        rules: [
          { weekday: 2, start: '09:00', end: '12:00' },
          { weekday: 2, start: '11:30', end: '13:00' },
        ],
      },
    });
    expect(overlapping.statusCode).toBe(400);
    expect(overlapping.json()).toMatchObject({
      error: {
        code: 'VALIDATION_FAILED',
        details: { issues: [{ path: 'rules.0.start' }, { path: 'rules.1.start' }] },
      },
    });
    const backwards = await send(context.app, 'PUT', rulesUrl(doctor.id), {
      session: doctorClient.token,
      body: { rules: [{ weekday: 2, start: '12:00', end: '09:00' }] },
    });
    expect(backwards.statusCode).toBe(400);
    const otherDoctor = await createDoctor(context.app);
    const admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
    const separate = await send(context.app, 'PUT', rulesUrl(otherDoctor.id), {
      session: admin.token,
      body: {
        rules: [
          { weekday: 2, start: '09:00', end: '12:00', validUntil: '2026-05-31' },
          { weekday: 2, start: '10:00', end: '13:00', validFrom: '2026-06-01' },
          { weekday: 3, start: '09:00', end: '12:00' },
          { weekday: 3, start: '12:00', end: '13:00' },
        ],
      },
    });
    expect(separate.statusCode, separate.body).toBe(200);
  });

  it('keeps other doctors, patients and staff out; 404 for an id that is not a doctor', async () => {
    const otherDoctor = await signIn(context.app, await createDoctor(context.app));
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    for (const client of [otherDoctor, patient, staff]) {
      const response = await send(context.app, 'PUT', rulesUrl(doctor.id), {
        session: client.token,
        body: { rules: [] },
      });
      expect(response.statusCode).toBe(403);
      expect(codeOf(response)).toBe('FORBIDDEN');
    }
    const notDoctor = await send(context.app, 'GET', rulesUrl(patient.me.user.id), {
      session: doctorClient.token,
    });
    expect(notDoctor.statusCode).toBe(404);
    const admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
    expect((await send(context.app, 'GET', rulesUrl(doctor.id), { session: admin.token })).statusCode).toBe(
      200,
    );
  });
});

describe('exceptions and slots', () => {
  it('serves slots across the DST change as instants labelled in the viewer zone and the doctor zone', async () => {
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const response = await send(
      context.app,
      'GET',
      `/api/v1/doctors/${doctor.id}/slots?from=2026-03-28T00:00:00Z&to=2026-03-31T00:00:00Z&tz=Asia/Tokyo`,
      { session: patient.token },
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = slotsResponseSchema.parse(response.json());
    expect(body).toMatchObject({
      doctorTimeZone: 'Europe/Madrid',
      viewerTimeZone: 'Asia/Tokyo',
      visitMinutes: 30,
    });
    expect(body.slots.map((slot) => [slot.startsAt, slot.localStart, slot.doctorLocalStart])).toEqual([
      ['2026-03-28T08:00:00.000Z', '2026-03-28T17:00+09:00', '2026-03-28T09:00+01:00'],
      ['2026-03-28T08:30:00.000Z', '2026-03-28T17:30+09:00', '2026-03-28T09:30+01:00'],
      ['2026-03-29T07:00:00.000Z', '2026-03-29T16:00+09:00', '2026-03-29T09:00+02:00'],
      ['2026-03-29T07:30:00.000Z', '2026-03-29T16:30+09:00', '2026-03-29T09:30+02:00'],
      ['2026-03-30T07:00:00.000Z', '2026-03-30T16:00+09:00', '2026-03-30T09:00+02:00'],
      ['2026-03-30T07:30:00.000Z', '2026-03-30T16:30+09:00', '2026-03-30T09:30+02:00'],
      ['2026-03-30T14:00:00.000Z', '2026-03-30T23:00+09:00', '2026-03-30T16:00+02:00'],
      ['2026-03-30T14:30:00.000Z', '2026-03-30T23:30+09:00', '2026-03-30T16:30+02:00'],
    ]);
    // Without tz, the viewer's own zone (test users live in America/Mexico_City).
    const own = slotsResponseSchema.parse(
      (
        await send(
          context.app,
          'GET',
          `/api/v1/doctors/${doctor.id}/slots?from=2026-03-30T00:00:00Z&to=2026-03-30T08:00:00Z`,
          { session: patient.token },
        )
      ).json(),
    );
    expect(own.viewerTimeZone).toBe('America/Mexico_City');
    expect(own.slots[0]?.localStart).toBe('2026-03-30T01:00-06:00');
  });

  it('takes time off and extra hours into account, and deletes exceptions', async () => {
    const timeOff = await send(context.app, 'POST', exceptionsUrl(doctor.id), {
      session: doctorClient.token,
      body: {
        kind: 'time_off',
        startsAt: '2026-03-30T07:30:00Z',
        endsAt: '2026-03-30T08:00:00Z',
        reason: 'Dentista',
      },
    });
    expect(timeOff.statusCode, timeOff.body).toBe(201);
    const extra = await send(context.app, 'POST', exceptionsUrl(doctor.id), {
      session: doctorClient.token,
      body: { kind: 'extra', startsAt: '2026-03-31T16:00:00Z', endsAt: '2026-03-31T17:00:00Z' },
    });
    expect(extra.statusCode).toBe(201);
    const slotStarts = async () =>
      slotsResponseSchema
        .parse(
          (
            await send(
              context.app,
              'GET',
              `/api/v1/doctors/${doctor.id}/slots?from=2026-03-30T00:00:00Z&to=2026-04-01T00:00:00Z`,
              { session: doctorClient.token },
            )
          ).json(),
        )
        .slots.map((slot) => slot.startsAt.slice(0, 16));
    expect(await slotStarts()).toEqual([
      '2026-03-30T07:00',
      '2026-03-30T14:00',
      '2026-03-30T14:30',
      '2026-03-31T16:00',
      '2026-03-31T16:30',
    ]);
    const list = availabilityExceptionListSchema.parse(
      (
        await send(context.app, 'GET', `${exceptionsUrl(doctor.id)}?from=2026-03-30T00:00:00Z`, {
          session: doctorClient.token,
        })
      ).json(),
    );
    expect(list.data.map((entry) => entry.kind)).toEqual(['time_off', 'extra']);
    const timeOffId = availabilityExceptionSchema.parse(timeOff.json()).id;
    const removed = await send(context.app, 'DELETE', `${exceptionsUrl(doctor.id)}/${timeOffId}`, {
      session: doctorClient.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(await slotStarts()).toContain('2026-03-30T07:30');
    const again = await send(context.app, 'DELETE', `${exceptionsUrl(doctor.id)}/${timeOffId}`, {
      session: doctorClient.token,
    });
    expect(again.statusCode).toBe(404);
    expect(
      (await auditEventsOf(context.app, 'availability.exception_deleted')).some(
        (event) => (event.details as { exceptionId?: string }).exceptionId === timeOffId,
      ),
    ).toBe(true);
    // The function the directory uses answers the same slots.
    const direct = await findFreeSlots(context.db, {
      doctorId: doctor.id,
      from: new Date('2026-03-31T00:00:00Z'),
      to: new Date('2026-04-01T00:00:00Z'),
      now: clock.now(),
      limit: 1,
    });
    expect(direct.map((slot) => slot.startsAt.toISOString())).toEqual(['2026-03-31T16:00:00.000Z']);
  });

  it('answers 400 for a window over 31 days or backwards, 404 for a non-doctor, 401 anonymous', async () => {
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const get = (id: string, query: string, session: string | null = patient.token) =>
      send(context.app, 'GET', `/api/v1/doctors/${id}/slots?${query}`, { session });
    expect((await get(doctor.id, 'from=2026-04-01T00:00:00Z&to=2026-05-03T00:00:00Z')).statusCode).toBe(400);
    expect((await get(doctor.id, 'from=2026-04-02T00:00:00Z&to=2026-04-01T00:00:00Z')).statusCode).toBe(400);
    expect((await get(doctor.id, 'from=yesterday&to=2026-04-01T00:00:00Z')).statusCode).toBe(400);
    expect(
      (await get(doctor.id, 'from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z&tz=Mars/Base')).statusCode,
    ).toBe(400);
    expect(
      (await get(patient.me.user.id, 'from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z')).statusCode,
    ).toBe(404);
    expect((await get('not-a-uuid', 'from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z')).statusCode).toBe(
      404,
    );
    expect((await get(doctor.id, 'from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z', null)).statusCode).toBe(
      401,
    );
  });

  it('hides slots inside the minimum notice', async () => {
    // 10:00 UTC now + 120 minutes notice: a doctor open all of today in UTC starts at 12:00.
    const early = await createDoctor(context.app, { timeZone: 'UTC', rules: [[3, '08:00', '14:00']] });
    const slots = await findFreeSlots(context.db, {
      doctorId: early.id,
      from: new Date('2026-03-25T00:00:00Z'),
      to: new Date('2026-03-26T00:00:00Z'),
      now: clock.now(),
    });
    expect(slots.map((slot) => slot.startsAt.toISOString().slice(11, 16))).toEqual([
      '12:00',
      '12:30',
      '13:00',
      '13:30',
    ]);
  });
});
