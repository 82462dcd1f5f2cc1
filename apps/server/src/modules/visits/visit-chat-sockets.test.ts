import type { ChatMessage } from '@telemedicina/shared/visits';
import { beforeAll, describe, expect, it } from 'vitest';
import { send } from '../../test/factories.js';
import type { TestContext } from '../../test/test-context.js';
import { ask, collectEvents, openVisitSocket, sessionCookie, settle } from '../../test/visit-fixtures.js';
import { callInProgress, setUpVisitSockets, socketTestApp } from './visit-sockets-test-support.js';

let context: TestContext;
let port: number;

setUpVisitSockets();
beforeAll(() => {
  ({ context, port } = socketTestApp());
});

describe('chat', () => {
  it('replays what was sent while a participant was away, once, and resends are idempotent', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const first = await ask(patient, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'p-1',
      body: 'Buenos días',
    });
    expect(first).toMatchObject({ ok: true, data: { seq: 1, sender: { role: 'patient' } } });
    patient.disconnect();
    await settle();
    const second = await ask(doctor, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'd-1',
      body: 'Hola',
    });
    const third = await ask(doctor, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'd-2',
      body: '¿Sigue ahí?',
    });
    expect([second, third].map((result) => result.ok && result.data.seq)).toEqual([2, 3]);

    const back = await openVisitSocket(port, sessionCookie(visit.patientSession));
    const joined = await ask(back, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 1 });
    expect(
      joined.ok && joined.data.messages.map((message: ChatMessage) => [message.seq, message.body]),
    ).toEqual([
      [2, 'Hola'],
      [3, '¿Sigue ahí?'],
    ]);
    // The ack of the first send got lost, say: resending answers the stored message, no new number.
    const others = collectEvents(doctor, 'chat.message');
    const resent = await ask(back, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'p-1',
      body: 'Buenos días',
    });
    expect(resent).toMatchObject({ ok: true, data: { seq: 1 } });
    await settle();
    expect(others).toEqual([]);
    const history = await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}/messages?after=0`, {
      session: visit.doctorSession.token,
    });
    expect(history.json<{ data: ChatMessage[]; lastSeq: number }>()).toMatchObject({ lastSeq: 3 });
    expect(history.json<{ data: ChatMessage[] }>().data.map((message) => message.seq)).toEqual([1, 2, 3]);
    expect(
      await ask(back, 'chat.send', { appointmentId: visit.appointmentId, clientId: 'p-2', body: '   ' }),
    ).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it('numbers 50 concurrent messages from two participants 1..50 without gaps or duplicates', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const sends = Array.from({ length: 50 }, (_, index) =>
      ask(index % 2 === 0 ? doctor : patient, 'chat.send', {
        appointmentId: visit.appointmentId,
        clientId: `m-${index}`,
        body: `mensaje ${index}`,
      }),
    );
    const results = await Promise.all(sends);
    const seqs = results.map((result) => (result.ok ? result.data.seq : -1)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    const history = await send(
      context.app,
      'GET',
      `/api/v1/visits/${visit.appointmentId}/messages?limit=500`,
      {
        session: visit.patientSession.token,
      },
    );
    expect(history.json<{ data: ChatMessage[] }>().data).toHaveLength(50);
  });
});
