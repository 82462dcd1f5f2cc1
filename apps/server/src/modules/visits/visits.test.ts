import type { VisitState, WaitingRoom } from '@telemedicina/shared/visits';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../db/schema.js';
import { createClock, createDoctor } from '../../test/booking-fixtures.js';
import { auditEventsOf, createUser, send, signIn } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import {
  ask,
  closeVisitSockets,
  createVisit,
  nextEvent,
  openVisitSocket,
  sessionCookie,
} from '../../test/visit-fixtures.js';

const clock = createClock('2026-06-15T10:00:00.000Z');
const minute = 60_000;
let context: TestContext;
let port: number;

/** An instant `minutes` from the test clock's now. */
const inMinutes = (minutes: number): Date => new Date(clock.now().getTime() + minutes * minute);

beforeAll(async () => {
  context = await createTestContext({ now: clock.now });
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  const address = context.app.server.address();
  port = typeof address === 'object' && address !== null ? address.port : 0;
});

afterEach(() => {
  closeVisitSockets();
});

afterAll(async () => {
  await context?.close();
});

async function appointmentRow(id: string): Promise<typeof appointments.$inferSelect> {
  const [row] = await context.db.select().from(appointments).where(eq(appointments.id, id));
  if (row === undefined) {
    throw new Error('no appointment');
  }
  return row;
}

describe('visit state and check-in', () => {
  it('answers the visit to its doctor, its patient and staff, and 404 to anyone else', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(5) });
    const url = `/api/v1/visits/${visit.appointmentId}`;
    const asPatient = await send(context.app, 'GET', url, { session: visit.patientSession.token });
    expect(asPatient.statusCode).toBe(200);
    const state = asPatient.json<VisitState>();
    expect(state).toMatchObject({
      phase: 'check_in_open',
      self: { key: `user:${visit.patient.id}`, role: 'patient' },
      canHost: false,
      canInvite: true,
      canShareFiles: false,
      queuePosition: null,
    });
    expect(state.checkInOpensAt).toBe(new Date(inMinutes(5).getTime() - 15 * minute).toISOString());
    const asDoctor = (
      await send(context.app, 'GET', url, { session: visit.doctorSession.token })
    ).json<VisitState>();
    expect(asDoctor).toMatchObject({ phase: 'in_call', canHost: true, self: { role: 'doctor' } });

    const staff = await signIn(context.app, await createUser(context.app, { roles: ['staff'] }));
    expect((await send(context.app, 'GET', url, { session: staff.token })).json()).toMatchObject({
      self: { role: 'staff' },
      canHost: false,
    });
    const otherPatient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect((await send(context.app, 'GET', url, { session: otherPatient.token })).statusCode).toBe(404);
    const otherDoctor = await signIn(context.app, await createDoctor(context.app));
    expect((await send(context.app, 'GET', url, { session: otherDoctor.token })).statusCode).toBe(404);
    expect(
      (await send(context.app, 'GET', '/api/v1/visits/not-a-uuid', { session: visit.patientSession.token }))
        .statusCode,
    ).toBe(404);
  });

  it('opens check-in 15 minutes before the start and closes it 60 minutes after the end', async () => {
    const early = await createVisit(context.app, { startsAt: inMinutes(16) });
    const tooEarly = await send(context.app, 'POST', `/api/v1/visits/${early.appointmentId}/check-in`, {
      session: early.patientSession.token,
    });
    expect(tooEarly.statusCode).toBe(409);
    expect(tooEarly.json()).toMatchObject({ error: { code: 'VISIT_NOT_OPEN' } });
    expect((await appointmentRow(early.appointmentId)).status).toBe('confirmed');

    const late = await createVisit(context.app, { startsAt: inMinutes(-91), minutes: 30 });
    const tooLate = await send(context.app, 'POST', `/api/v1/visits/${late.appointmentId}/check-in`, {
      session: late.patientSession.token,
    });
    expect(tooLate.json()).toMatchObject({ error: { code: 'VISIT_NOT_OPEN' } });

    const lastMinute = await createVisit(context.app, { startsAt: inMinutes(-89), minutes: 30 });
    expect(
      (
        await send(context.app, 'POST', `/api/v1/visits/${lastMinute.appointmentId}/check-in`, {
          session: lastMinute.patientSession.token,
        })
      ).statusCode,
    ).toBe(200);

    const onTime = await createVisit(context.app, { startsAt: inMinutes(15) });
    const first = await send(context.app, 'POST', `/api/v1/visits/${onTime.appointmentId}/check-in`, {
      session: onTime.patientSession.token,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json<VisitState>()).toMatchObject({
      phase: 'waiting',
      status: 'checked_in',
      queuePosition: 1,
    });
    const row = await appointmentRow(onTime.appointmentId);
    expect(row.status).toBe('checked_in');
    expect(row.checkedInAt?.toISOString()).toBe(clock.now().toISOString());
    // Idempotent: the same state, the first check-in time kept.
    const again = await send(context.app, 'POST', `/api/v1/visits/${onTime.appointmentId}/check-in`, {
      session: onTime.patientSession.token,
    });
    expect(again.json<VisitState>().checkedInAt).toBe(first.json<VisitState>().checkedInAt);
    expect(
      (await auditEventsOf(context.app, 'visit.checked_in')).filter(
        (event) => event.targetId === onTime.appointmentId,
      ),
    ).toHaveLength(1);
    // Only the patient checks in.
    const byDoctor = await send(context.app, 'POST', `/api/v1/visits/${onTime.appointmentId}/check-in`, {
      session: onTime.doctorSession.token,
    });
    expect(byDoctor.statusCode).toBe(403);
  });

  it.each(['cancelled', 'no_show', 'completed'] as const)(
    'refuses check-in of a %s visit with VISIT_ENDED',
    async (status) => {
      const visit = await createVisit(context.app, { startsAt: inMinutes(5), status });
      const response = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/check-in`, {
        session: visit.patientSession.token,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ error: { code: 'VISIT_ENDED' } });
    },
  );

  it('stores the patient device check with its risk, shown in the waiting room', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(5) });
    const response = await send(context.app, 'PUT', `/api/v1/visits/${visit.appointmentId}/device-check`, {
      session: visit.patientSession.token,
      body: {
        browserSupported: true,
        camera: 'denied',
        microphone: 'ok',
        speaker: 'ok',
        connectivity: 'direct',
        realtimeRttMs: 40,
        browser: 'Chrome 150 on Linux',
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ risk: 'warning', result: { camera: 'denied' } });
    const invalid = await send(context.app, 'PUT', `/api/v1/visits/${visit.appointmentId}/device-check`, {
      session: visit.patientSession.token,
      body: { browserSupported: true, camera: 'maybe' },
    });
    expect(invalid.statusCode).toBe(400);
    const room = await send(context.app, 'GET', `/api/v1/doctors/${visit.doctor.id}/waiting-room`, {
      session: visit.doctorSession.token,
    });
    expect(room.statusCode).toBe(200);
    const entry = room
      .json<WaitingRoom>()
      .entries.find((candidate) => candidate.appointmentId === visit.appointmentId);
    expect(entry?.deviceCheck?.risk).toBe('warning');
    expect(entry?.online).toBe(false);
    // Another doctor's waiting room is not this doctor's to see.
    const other = await signIn(context.app, await createDoctor(context.app));
    expect(
      (
        await send(context.app, 'GET', `/api/v1/doctors/${visit.doctor.id}/waiting-room`, {
          session: other.token,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('admission and end', () => {
  it('admits only a checked-in patient, and only the visit’s own doctor', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(5) });
    const admitUrl = `/api/v1/visits/${visit.appointmentId}/admit`;
    const notCheckedIn = await send(context.app, 'POST', admitUrl, {
      session: visit.doctorSession.token,
      body: {},
    });
    expect(notCheckedIn.statusCode).toBe(409);
    expect(notCheckedIn.json()).toMatchObject({ error: { code: 'INVALID_TRANSITION' } });

    await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/check-in`, {
      session: visit.patientSession.token,
    });
    const byPatient = await send(context.app, 'POST', admitUrl, {
      session: visit.patientSession.token,
      body: {},
    });
    expect(byPatient.statusCode).toBe(403);
    const otherDoctor = await signIn(context.app, await createDoctor(context.app));
    expect(
      (await send(context.app, 'POST', admitUrl, { session: otherDoctor.token, body: {} })).statusCode,
    ).toBe(404);
    expect((await appointmentRow(visit.appointmentId)).status).toBe('checked_in');

    const admitted = await send(context.app, 'POST', admitUrl, {
      session: visit.doctorSession.token,
      body: {},
    });
    expect(admitted.statusCode).toBe(200);
    const row = await appointmentRow(visit.appointmentId);
    expect(row.status).toBe('in_progress');
    expect(row.admittedAt?.toISOString()).toBe(clock.now().toISOString());
    const patientView = (
      await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}`, {
        session: visit.patientSession.token,
      })
    ).json<VisitState>();
    expect(patientView).toMatchObject({ phase: 'in_call', canShareFiles: true });
  });

  it('moves the waiting patient into the call, stores start and end, and ends the call for everyone', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(2) });
    const checkedInAt = clock.now().toISOString();
    await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/check-in`, {
      session: visit.patientSession.token,
    });
    const doctorSocket = await openVisitSocket(port, sessionCookie(visit.doctorSession));
    const patientSocket = await openVisitSocket(port, sessionCookie(visit.patientSession));
    const doctorJoin = await ask(doctorSocket, 'visit.join', {
      appointmentId: visit.appointmentId,
      lastSeq: 0,
    });
    expect(doctorJoin).toMatchObject({ ok: true, data: { inCall: true, participants: [] } });
    const patientJoin = await ask(patientSocket, 'visit.join', {
      appointmentId: visit.appointmentId,
      lastSeq: 0,
    });
    expect(patientJoin).toMatchObject({ ok: true, data: { inCall: false, state: { phase: 'waiting' } } });
    // Waiting: no chat, no signalling.
    expect(
      await ask(patientSocket, 'chat.send', {
        appointmentId: visit.appointmentId,
        clientId: 'early',
        body: 'Hola',
      }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });

    clock.set(new Date(clock.now().getTime() + 3 * minute).toISOString());
    const admittedAt = clock.now().toISOString();
    const patientState = nextEvent(patientSocket, 'visit.state', {
      where: (state) => state.phase === 'in_call',
    });
    const joined = nextEvent(doctorSocket, 'visit.participantJoined');
    const admit = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
      session: visit.doctorSession.token,
      body: {},
    });
    expect(admit.statusCode).toBe(200);
    expect((await patientState).phase).toBe('in_call');
    expect((await joined).participant).toMatchObject({ key: `user:${visit.patient.id}`, role: 'patient' });
    // The patient's connection is in the call now: signalling reaches the doctor.
    const signal = nextEvent(doctorSocket, 'visit.signal');
    expect(
      await ask(patientSocket, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: `user:${visit.doctor.id}`,
        description: { type: 'offer', sdp: 'v=0' },
      }),
    ).toEqual({ ok: true, data: null });
    expect(await signal).toMatchObject({ from: `user:${visit.patient.id}`, description: { type: 'offer' } });
    const started = await appointmentRow(visit.appointmentId);
    expect(started.startedAt?.toISOString()).toBe(admittedAt);

    clock.set(new Date(clock.now().getTime() + 10 * minute).toISOString());
    const ended = nextEvent(patientSocket, 'visit.state', { where: (state) => state.phase === 'ended' });
    const end = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/end`, {
      session: visit.doctorSession.token,
    });
    expect(end.statusCode).toBe(200);
    expect(end.json<VisitState>()).toMatchObject({ status: 'completed', phase: 'ended' });
    expect((await ended).status).toBe('completed');
    const row = await appointmentRow(visit.appointmentId);
    expect(row.status).toBe('completed');
    expect(row.checkedInAt?.toISOString()).toBe(checkedInAt);
    expect(row.admittedAt?.toISOString()).toBe(admittedAt);
    expect(row.startedAt?.toISOString()).toBe(admittedAt);
    expect(row.endedAt?.toISOString()).toBe(clock.now().toISOString());
    // Out of the call: nothing more to send, and joining again is refused.
    expect(
      await ask(patientSocket, 'chat.send', {
        appointmentId: visit.appointmentId,
        clientId: 'after',
        body: 'Adiós',
      }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(
      await ask(patientSocket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'VISIT_ENDED' },
    });
    // Ending again answers the same ended state.
    const again = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/end`, {
      session: visit.doctorSession.token,
    });
    expect(again.statusCode).toBe(200);
  });

  it('refuses to end a visit that never started', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(5), status: 'checked_in' });
    const response = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/end`, {
      session: visit.doctorSession.token,
    });
    expect(response.statusCode).toBe(409);
    expect((await appointmentRow(visit.appointmentId)).status).toBe('checked_in');
  });
});

describe('queue and running late', () => {
  it('gives each waiting patient a place in the doctor’s queue and an estimate that follows a delay', async () => {
    const doctor = await createDoctor(context.app, { timeZone: 'UTC' });
    const doctorSession = await signIn(context.app, doctor);
    // Now 10:00 + offsets: one visit in progress until +20, two waiting at +20 and +50.
    const base = clock.now().getTime();
    const current = await createVisit(context.app, {
      startsAt: new Date(base - 10 * minute),
      status: 'in_progress',
      doctor,
      doctorSession,
    });
    const second = await createVisit(context.app, {
      startsAt: new Date(base + 20 * minute),
      status: 'checked_in',
      doctor,
      doctorSession,
    });
    const third = await createVisit(context.app, {
      startsAt: new Date(base + 50 * minute),
      status: 'checked_in',
      doctor,
      doctorSession,
    });
    const stateOf = async (visit: typeof second): Promise<VisitState> =>
      (
        await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}`, {
          session: visit.patientSession.token,
        })
      ).json<VisitState>();

    expect(await stateOf(second)).toMatchObject({
      phase: 'waiting',
      queuePosition: 1,
      estimatedWaitMinutes: 20,
    });
    expect(await stateOf(third)).toMatchObject({
      phase: 'waiting',
      queuePosition: 2,
      estimatedWaitMinutes: 50,
    });

    const thirdSocket = await openVisitSocket(port, sessionCookie(third.patientSession));
    await ask(thirdSocket, 'visit.join', { appointmentId: third.appointmentId, lastSeq: 0 });
    const pushed = nextEvent(thirdSocket, 'visit.state', {
      where: (state) => state.runningLateMinutes === 15,
    });
    const late = await send(context.app, 'POST', `/api/v1/visits/${current.appointmentId}/running-late`, {
      session: doctorSession.token,
      body: { minutes: 15 },
    });
    expect(late.statusCode).toBe(200);
    expect(await pushed).toMatchObject({ queuePosition: 2, estimatedWaitMinutes: 65 });
    expect(await stateOf(second)).toMatchObject({
      queuePosition: 1,
      estimatedWaitMinutes: 35,
      runningLateMinutes: 15,
    });
    const room = (
      await send(context.app, 'GET', `/api/v1/doctors/${doctor.id}/waiting-room`, {
        session: doctorSession.token,
      })
    ).json<WaitingRoom>();
    expect(room.runningLateMinutes).toBe(15);
    expect(room.entries.map((entry) => entry.appointmentId)).toEqual([
      current.appointmentId,
      second.appointmentId,
      third.appointmentId,
    ]);
    expect(room.entries.find((entry) => entry.appointmentId === third.appointmentId)?.online).toBe(true);

    // Clearing the notice; the next patient admitted moves the third up.
    await send(context.app, 'POST', `/api/v1/visits/${current.appointmentId}/running-late`, {
      session: doctorSession.token,
      body: { minutes: 0 },
    });
    await send(context.app, 'POST', `/api/v1/visits/${current.appointmentId}/end`, {
      session: doctorSession.token,
    });
    const moved = nextEvent(thirdSocket, 'visit.state', { where: (state) => state.queuePosition === 1 });
    await send(context.app, 'POST', `/api/v1/visits/${second.appointmentId}/admit`, {
      session: doctorSession.token,
      body: {},
    });
    expect(await moved).toMatchObject({ runningLateMinutes: null });
  });

  it('pushes the waiting room to its watchers when a patient checks in', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(10) });
    const watcher = await openVisitSocket(port, sessionCookie(visit.doctorSession));
    const watched = await ask(watcher, 'waitingRoom.watch', { doctorId: visit.doctor.id });
    expect(watched).toMatchObject({ ok: true, data: { doctorId: visit.doctor.id } });
    const updated = nextEvent(watcher, 'waitingRoom.updated', {
      where: (room) => room.entries.some((entry) => entry.status === 'checked_in'),
    });
    await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/check-in`, {
      session: visit.patientSession.token,
    });
    expect((await updated).entries[0]).toMatchObject({
      appointmentId: visit.appointmentId,
      status: 'checked_in',
    });

    const patient = await openVisitSocket(port, sessionCookie(visit.patientSession));
    expect(await ask(patient, 'waitingRoom.watch', { doctorId: visit.doctor.id })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    const message = nextEvent(patient, 'waitingRoom.message');
    await ask(patient, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    expect(
      await ask(watcher, 'waitingRoom.message', {
        appointmentId: visit.appointmentId,
        text: 'Enseguida le atiendo',
      }),
    ).toEqual({ ok: true, data: null });
    expect(await message).toMatchObject({ text: 'Enseguida le atiendo', appointmentId: visit.appointmentId });
    expect(
      await ask(patient, 'waitingRoom.message', { appointmentId: visit.appointmentId, text: 'Hola' }),
    ).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
