import type { VisitState } from '@telemedicina/shared/visits';
import { beforeAll, describe, expect, it } from 'vitest';
import { createUser, send, signIn } from '../../test/factories.js';
import type { TestContext } from '../../test/test-context.js';
import {
  ask,
  collectEvents,
  createVisit,
  nextEvent,
  openVisitSocket,
  sessionCookie,
  settle,
} from '../../test/visit-fixtures.js';
import {
  callReadingWriteIntervalMs,
  combineReadings,
  mergeCallReading,
} from './visit-call-readings.service.js';
import { findVisit } from './visits.repository.js';
import {
  callInProgress,
  clock,
  inMinutes,
  inviteAndRedeem,
  setUpVisitSockets,
  socketTestApp,
} from './visit-sockets-test-support.js';

let context: TestContext;
let port: number;

setUpVisitSockets();
beforeAll(() => {
  ({ context, port } = socketTestApp());
});

const media = { audio: true, video: true, screen: false, quality: 'high' } as const;
const weak = { indicator: 'weak', rttMs: 420, packetLoss: 0.05, relayed: false } as const;

/** Moves the shared clock past the write interval (the next report is written at once). */
function afterWriteInterval(): void {
  clock.set(new Date(clock.now().getTime() + callReadingWriteIntervalMs).toISOString());
}

async function stateAs(token: string, appointmentId: string): Promise<VisitState> {
  const answer = await send(context.app, 'GET', `/api/v1/visits/${appointmentId}`, { session: token });
  expect(answer.statusCode).toBe(200);
  return answer.json<VisitState>();
}

describe('connection readings', () => {
  it('relays a participant’s reading to the others and keeps the worst values on the visit, for the doctor and staff only', async () => {
    const { visit, doctor, patient } = await callInProgress();
    afterWriteInterval();
    const relayed = nextEvent(doctor, 'visit.media');
    expect(
      await ask(patient, 'visit.media', { appointmentId: visit.appointmentId, ...media, reading: weak }),
    ).toEqual({ ok: true, data: null });
    expect(await relayed).toMatchObject({ key: `user:${visit.patient.id}`, reading: weak });

    // A better reading later does not hide the worst one; relayed once is kept.
    afterWriteInterval();
    await ask(patient, 'visit.media', {
      appointmentId: visit.appointmentId,
      ...media,
      reading: { indicator: 'good', rttMs: 40, packetLoss: 0.3, relayed: true },
    });
    afterWriteInterval();
    await ask(doctor, 'visit.media', {
      appointmentId: visit.appointmentId,
      ...media,
      reading: { indicator: 'good', rttMs: 30, packetLoss: 0, relayed: false },
    });

    const seenByDoctor = await stateAs(visit.doctorSession.token, visit.appointmentId);
    expect(seenByDoctor.callReadings).toHaveLength(2);
    expect(seenByDoctor.callReadings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: `user:${visit.doctor.id}`,
          role: 'doctor',
          worstRttMs: 30,
          worstPacketLoss: 0,
          relayed: false,
          lastIndicator: 'good',
        }),
        expect.objectContaining({
          key: `user:${visit.patient.id}`,
          role: 'patient',
          worstRttMs: 420,
          worstPacketLoss: 0.3,
          relayed: true,
          lastIndicator: 'good',
        }),
      ]),
    );

    const admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
    const seenByStaff = await stateAs(admin.token, visit.appointmentId);
    expect(seenByStaff.callReadings).toHaveLength(2);

    const seenByPatient = await stateAs(visit.patientSession.token, visit.appointmentId);
    expect(seenByPatient).not.toHaveProperty('callReadings');

    const { cookie } = await inviteAndRedeem(visit);
    const guestView = await context.app.inject({
      method: 'GET',
      url: '/api/v1/visit-guests/current',
      headers: { cookie },
    });
    expect(guestView.statusCode).toBe(200);
    expect(guestView.json()).not.toHaveProperty('callReadings');
  });

  it('writes at most once per interval per connection, combining what came in between', async () => {
    const { visit, patient } = await callInProgress();
    afterWriteInterval();
    const report = (reading: typeof weak | Record<string, unknown>) =>
      ask(patient, 'visit.media', { appointmentId: visit.appointmentId, ...media, reading } as never);
    await report({ indicator: 'good', rttMs: 50, packetLoss: 0, relayed: false });
    // Within the interval: held, not written.
    await report({ indicator: 'weak', rttMs: 900, packetLoss: 0.1, relayed: false });
    const key = `user:${visit.patient.id}`;
    expect(
      (await findVisit(context.app.services.db, visit.appointmentId))?.callReadings?.[key],
    ).toMatchObject({ worstRttMs: 50, worstPacketLoss: 0 });
    afterWriteInterval();
    await report({ indicator: 'good', rttMs: 60, packetLoss: 0.01, relayed: false });
    expect(
      (await findVisit(context.app.services.db, visit.appointmentId))?.callReadings?.[key],
    ).toMatchObject({ worstRttMs: 900, worstPacketLoss: 0.1, lastIndicator: 'good' });
  });

  it('refuses readings from an outsider, a guest not admitted and for another visit; keeps nothing', async () => {
    const { visit } = await callInProgress();
    const other = await createVisit(context.app, { startsAt: inMinutes(0), status: 'in_progress' });
    const otherPatient = await openVisitSocket(port, sessionCookie(other.patientSession));
    expect(
      await ask(otherPatient, 'visit.join', { appointmentId: other.appointmentId, lastSeq: 0 }),
    ).toMatchObject({
      ok: true,
    });
    const outsider = await openVisitSocket(
      port,
      sessionCookie(await signIn(context.app, await createUser(context.app, { roles: ['patient'] }))),
    );
    const { cookie } = await inviteAndRedeem(visit);
    const guest = await openVisitSocket(port, cookie);
    expect(await ask(guest, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject({
      ok: true,
      data: { inCall: false },
    });
    afterWriteInterval();
    for (const socket of [outsider, guest, otherPatient]) {
      expect(
        await ask(socket, 'visit.media', { appointmentId: visit.appointmentId, ...media, reading: weak }),
      ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect((await findVisit(context.app.services.db, visit.appointmentId))?.callReadings ?? null).toBeNull();
  });

  it('answers a hostile reading with VALIDATION_FAILED, relays and keeps nothing', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const received = collectEvents(doctor, 'visit.media');
    afterWriteInterval();
    const hostile: unknown[] = [
      { ...weak, rttMs: -1 },
      { ...weak, rttMs: 1e12 },
      { ...weak, rttMs: 1.5 },
      { ...weak, packetLoss: 7 },
      { ...weak, packetLoss: 'NaN' },
      { ...weak, indicator: 'excellent' },
      { ...weak, relayed: 'yes' },
      'weak',
      [weak],
      { indicator: 'weak' },
    ];
    for (const reading of hostile) {
      expect(
        await ask(patient, 'visit.media', { appointmentId: visit.appointmentId, ...media, reading } as never),
      ).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    }
    expect(
      await ask(patient, 'visit.media', {
        appointmentId: 'not-a-visit',
        ...media,
        reading: weak,
      }),
    ).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    await settle();
    expect(received).toEqual([]);
    expect((await findVisit(context.app.services.db, visit.appointmentId))?.callReadings ?? null).toBeNull();
  });
});

describe('combining readings', () => {
  it('keeps the worst round trip and loss, relayed once relayed, the latest indicator', () => {
    const at = new Date('2026-06-15T10:00:00.000Z');
    const first = mergeCallReading(
      null,
      'patient',
      { indicator: 'weak', rttMs: null, packetLoss: 0.2, relayed: null },
      at,
    );
    expect(first).toEqual({
      role: 'patient',
      worstRttMs: null,
      worstPacketLoss: 0.2,
      relayed: false,
      lastIndicator: 'weak',
      updatedAt: at.toISOString(),
    });
    const second = mergeCallReading(
      first,
      'patient',
      { indicator: 'good', rttMs: 80, packetLoss: 0, relayed: true },
      at,
    );
    expect(second).toMatchObject({
      worstRttMs: 80,
      worstPacketLoss: 0.2,
      relayed: true,
      lastIndicator: 'good',
    });
    const third = mergeCallReading(
      second,
      'patient',
      { indicator: 'lost', rttMs: 20, packetLoss: null, relayed: false },
      at,
    );
    expect(third).toMatchObject({
      worstRttMs: 80,
      worstPacketLoss: 0.2,
      relayed: true,
      lastIndicator: 'lost',
    });
    expect(
      combineReadings(
        { indicator: 'weak', rttMs: 500, packetLoss: 0.1, relayed: true },
        { indicator: 'good', rttMs: 50, packetLoss: null, relayed: false },
      ),
    ).toEqual({ indicator: 'good', rttMs: 500, packetLoss: 0.1, relayed: true });
  });
});
