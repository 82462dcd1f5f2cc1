import type { GuestInvite } from '@telemedicina/shared/visits';
import { beforeAll, describe, expect, it } from 'vitest';
import { createDoctor } from '../../test/booking-fixtures.js';
import { auditEventsOf, createUser, send, signIn } from '../../test/factories.js';
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

describe('socket authorization', () => {
  it('keeps a non-participant out: no join, no chat history, no chat messages, no signalling', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const outsiders = [
      await signIn(context.app, await createUser(context.app, { roles: ['patient'] })),
      await signIn(context.app, await createDoctor(context.app)),
    ];
    for (const outsider of outsiders) {
      const socket = await openVisitSocket(port, sessionCookie(outsider));
      const received = collectEvents(socket, 'chat.message');
      const signals = collectEvents(socket, 'visit.signal');
      expect(
        await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 }),
      ).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND' },
      });
      expect(
        await ask(socket, 'visit.signal', {
          appointmentId: visit.appointmentId,
          to: `user:${visit.patient.id}`,
          description: { type: 'offer', sdp: 'v=0' },
        }),
      ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect(
        await ask(socket, 'chat.send', {
          appointmentId: visit.appointmentId,
          clientId: 'x',
          body: 'intruso',
        }),
      ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      const history = await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}/messages`, {
        session: outsider.token,
      });
      expect(history.statusCode).toBe(404);
      // Traffic in the call does not reach them.
      await ask(patient, 'chat.send', {
        appointmentId: visit.appointmentId,
        clientId: `c-${socket.id}`,
        body: 'Hola',
      });
      await ask(doctor, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: `user:${visit.patient.id}`,
        candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host' },
      });
      await settle();
      expect(received).toEqual([]);
      expect(signals).toEqual([]);
    }
  });

  it('relays signalling only between participants in the call, to the named one, with the sender', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const signal = nextEvent(patient, 'visit.signal');
    expect(
      await ask(doctor, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: `user:${visit.patient.id}`,
        description: { type: 'offer', sdp: 'v=0 offer' },
      }),
    ).toEqual({ ok: true, data: null });
    expect(await signal).toEqual({
      appointmentId: visit.appointmentId,
      from: `user:${visit.doctor.id}`,
      description: { type: 'offer', sdp: 'v=0 offer' },
    });
    expect(
      await ask(doctor, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: 'user:00000000-0000-4000-8000-000000000000',
        restart: true,
      }),
    ).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(
      await ask(doctor, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: `user:${visit.patient.id}`,
      }),
    ).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
    const media = nextEvent(doctor, 'visit.media');
    await ask(patient, 'visit.media', {
      appointmentId: visit.appointmentId,
      audio: false,
      video: true,
      screen: false,
      quality: 'low',
    });
    expect(await media).toMatchObject({ key: `user:${visit.patient.id}`, audio: false, quality: 'low' });
    const typing = nextEvent(doctor, 'chat.typing');
    patient.emit('chat.typing', { appointmentId: visit.appointmentId, typing: true });
    expect(await typing).toMatchObject({ key: `user:${visit.patient.id}`, typing: true });
  });

  it('relays nothing to a patient still waiting to be admitted and takes no signal from them; admitted, it flows', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(0), status: 'checked_in' });
    const doctor = await openVisitSocket(port, sessionCookie(visit.doctorSession));
    const patient = await openVisitSocket(port, sessionCookie(visit.patientSession));
    expect(await ask(doctor, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject(
      {
        ok: true,
        data: { inCall: true },
      },
    );
    expect(
      await ask(patient, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 }),
    ).toMatchObject({ ok: true, data: { inCall: false } });
    const patientKey = `user:${visit.patient.id}`;
    const doctorKey = `user:${visit.doctor.id}`;
    const toPatient = collectEvents(patient, 'visit.signal');
    const toDoctor = collectEvents(doctor, 'visit.signal');
    // The host's offer and candidates for someone who waits are not relayed.
    for (const signal of [
      { description: { type: 'offer' as const, sdp: 'v=0 early offer' } },
      { candidate: { candidate: 'candidate:1 1 udp 1 192.0.2.2 5000 typ host' } },
      { restart: true },
    ]) {
      expect(
        await ask(doctor, 'visit.signal', { appointmentId: visit.appointmentId, to: patientKey, ...signal }),
      ).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    }
    // Nor can the waiting patient reach the host.
    expect(
      await ask(patient, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: doctorKey,
        description: { type: 'offer', sdp: 'v=0 patient offer' },
      }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    await settle();
    expect(toPatient).toEqual([]);
    expect(toDoctor).toEqual([]);

    const admitted = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
      session: visit.doctorSession.token,
      body: {},
    });
    expect(admitted.statusCode).toBe(200);
    expect(
      await ask(doctor, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: patientKey,
        description: { type: 'offer', sdp: 'v=0 offer' },
      }),
    ).toEqual({ ok: true, data: null });
    await settle();
    expect(toPatient).toEqual([
      {
        appointmentId: visit.appointmentId,
        from: doctorKey,
        description: { type: 'offer', sdp: 'v=0 offer' },
      },
    ]);
  });

  it('replaces a participant’s previous connection: the others see them leave and come back', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const events: string[] = [];
    doctor.on('visit.participantLeft', () => events.push('left'));
    doctor.on('visit.participantJoined', () => events.push('joined'));
    const second = await openVisitSocket(port, sessionCookie(visit.patientSession));
    const oldMessages = collectEvents(patient, 'chat.message');
    expect(await ask(second, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject(
      {
        ok: true,
        data: { inCall: true },
      },
    );
    await settle();
    expect(events).toEqual(['left', 'joined']);
    const newMessages = collectEvents(second, 'chat.message');
    await ask(doctor, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'after-reload',
      body: '¿Me oye?',
    });
    await settle();
    expect(newMessages.map((message) => message.body)).toEqual(['¿Me oye?']);
    expect(oldMessages).toEqual([]);
    // The replaced connection cannot act in the call any more.
    expect(
      await ask(patient, 'chat.send', { appointmentId: visit.appointmentId, clientId: 'old', body: 'viejo' }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('refuses guests everything but their own visit', async () => {
    const { visit } = await callInProgress();
    const other = await createVisit(context.app, { startsAt: inMinutes(0), status: 'in_progress' });
    const { cookie } = await inviteAndRedeem(other);
    const guest = await openVisitSocket(port, cookie);
    expect(await ask(guest, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(
      await ask(guest, 'visit.signal', {
        appointmentId: visit.appointmentId,
        to: `user:${visit.doctor.id}`,
        description: { type: 'offer', sdp: 'v=0' },
      }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await ask(guest, 'waitingRoom.watch', { doctorId: visit.doctor.id })).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(
      await ask(guest, 'chat.send', { appointmentId: visit.appointmentId, clientId: 'g', body: 'hola' }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    // Guests have no REST access to visits.
    const rest = await context.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${other.appointmentId}`,
      headers: { cookie },
    });
    expect(rest.statusCode).toBe(401);
  });
});

describe('guests', () => {
  it('lets a guest in once through the link, through the waiting room, audited', async () => {
    const { visit, doctor, patient } = await callInProgress();
    const { invite, token, cookie } = await inviteAndRedeem(visit);
    expect(invite.url).toMatch(/^http:\/\/app\.test\/guest#[A-Za-z0-9_-]{43}$/);
    const reused = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', { body: { token } });
    expect(reused.statusCode).toBe(410);
    expect(reused.json()).toMatchObject({ error: { code: 'GUEST_LINK_USED' } });
    const unknown = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', {
      body: { token: 'x'.repeat(43) },
    });
    expect(unknown.statusCode).toBe(404);

    // Before joining, the guest page reads its state (ICE servers for the device check, phase).
    const current = await context.app.inject({
      method: 'GET',
      url: '/api/v1/visit-guests/current',
      headers: { cookie },
    });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({
      appointmentId: visit.appointmentId,
      phase: 'waiting',
      self: { role: 'interpreter' },
    });
    expect(
      (await context.app.inject({ method: 'GET', url: '/api/v1/visit-guests/current' })).statusCode,
    ).toBe(404);
    const guest = await openVisitSocket(port, cookie);
    const joined = await ask(guest, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    expect(joined).toMatchObject({
      ok: true,
      data: {
        inCall: false,
        messages: [],
        state: { phase: 'waiting', self: { key: `guest:${invite.id}`, role: 'interpreter' } },
      },
    });
    // Not admitted yet: nothing in the call.
    expect(
      await ask(guest, 'chat.send', { appointmentId: visit.appointmentId, clientId: 'g1', body: 'Hello' }),
    ).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const room = await ask(doctor, 'waitingRoom.watch', { doctorId: visit.doctor.id });
    expect(room.ok && room.data.entries[0]?.waitingGuests).toEqual([
      { key: `guest:${invite.id}`, name: 'Intérprete Invitada', role: 'interpreter' },
    ]);

    const admittedState = nextEvent(guest, 'visit.state', { where: (state) => state.phase === 'in_call' });
    const patientSees = nextEvent(patient, 'visit.participantJoined');
    const admit = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
      session: visit.doctorSession.token,
      body: { participantKey: `guest:${invite.id}` },
    });
    expect(admit.statusCode).toBe(200);
    await admittedState;
    expect((await patientSees).participant.key).toBe(`guest:${invite.id}`);
    const rejoin = await ask(guest, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    expect(rejoin.ok && rejoin.data.participants.map((participant) => participant.role).sort()).toEqual([
      'doctor',
      'patient',
    ]);
    const fromGuest = nextEvent(patient, 'chat.message');
    const sent = await ask(guest, 'chat.send', {
      appointmentId: visit.appointmentId,
      clientId: 'g2',
      body: 'Hello',
    });
    expect(sent).toMatchObject({ ok: true, data: { sender: { role: 'interpreter' } } });
    expect((await fromGuest).body).toBe('Hello');

    for (const action of [
      'visit.guest_invited',
      'visit.guest_redeemed',
      'visit.guest_joined',
      'visit.guest_admitted',
    ]) {
      const events = (await auditEventsOf(context.app, action)).filter(
        (event) => event.targetId === invite.id,
      );
      expect(events.length, action).toBeGreaterThanOrEqual(1);
    }
    const failed = (await auditEventsOf(context.app, 'visit.guest_redeemed')).filter(
      (event) => event.targetId === invite.id && event.outcome === 'failure',
    );
    expect(failed).toHaveLength(1);
  });

  it('expires a link that was not used in time', async () => {
    const visit = await createVisit(context.app, { startsAt: inMinutes(30) });
    const created = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
      session: visit.patientSession.token,
      body: { name: 'Acompañante', role: 'companion', language: 'es', expiresInMinutes: 10 },
    });
    expect(created.statusCode).toBe(201);
    const invite = created.json<GuestInvite>();
    expect(invite.expiresAt).toBe(inMinutes(10).toISOString());
    const start = clock.now().toISOString();
    clock.set(inMinutes(11).toISOString());
    try {
      const late = await send(context.app, 'POST', '/api/v1/visit-guests/redeem', {
        body: { token: invite.url?.split('#')[1] },
      });
      expect(late.statusCode).toBe(410);
      expect(late.json()).toMatchObject({ error: { code: 'GUEST_LINK_EXPIRED' } });
    } finally {
      clock.set(start);
    }
    // Never past the visit's grace period.
    const long = await send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/guests`, {
      session: visit.doctorSession.token,
      body: { name: 'Acompañante', role: 'companion', language: 'es', expiresInMinutes: 7 * 24 * 60 },
    });
    expect(long.json<GuestInvite>().expiresAt).toBe(inMinutes(30 + 30 + 60).toISOString());
    const list = await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}/guests`, {
      session: visit.doctorSession.token,
    });
    expect(list.json<{ data: GuestInvite[] }>().data).toHaveLength(2);
    expect(list.json<{ data: GuestInvite[] }>().data.every((entry) => entry.url === undefined)).toBe(true);
    // Someone else's visit: 404.
    const stranger = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(
      (
        await send(context.app, 'GET', `/api/v1/visits/${visit.appointmentId}/guests`, {
          session: stranger.token,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('disconnects a revoked guest and refuses the cookie afterwards', async () => {
    const { visit } = await callInProgress();
    const { invite, cookie } = await inviteAndRedeem(visit);
    const guest = await openVisitSocket(port, cookie);
    await ask(guest, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
    const closed = new Promise<string>((resolve) => guest.once('disconnect', (reason) => resolve(reason)));
    const revoked = await send(
      context.app,
      'DELETE',
      `/api/v1/visits/${visit.appointmentId}/guests/${invite.id}`,
      {
        session: visit.doctorSession.token,
      },
    );
    expect(revoked.statusCode).toBe(204);
    expect(await closed).toBe('io server disconnect');
    await expect(openVisitSocket(port, cookie)).rejects.toThrow('UNAUTHENTICATED');
    expect(
      (await auditEventsOf(context.app, 'visit.guest_revoked')).some((event) => event.targetId === invite.id),
    ).toBe(true);
  });
});

describe('limits', () => {
  it('admits at most four participants into the call', async () => {
    const { visit } = await callInProgress();
    const guests = [];
    for (let index = 0; index < 3; index += 1) {
      const { invite, cookie } = await inviteAndRedeem(visit);
      const socket = await openVisitSocket(port, cookie);
      await ask(socket, 'visit.join', { appointmentId: visit.appointmentId, lastSeq: 0 });
      guests.push(invite);
    }
    const admit = (guestId: string) =>
      send(context.app, 'POST', `/api/v1/visits/${visit.appointmentId}/admit`, {
        session: visit.doctorSession.token,
        body: { participantKey: `guest:${guestId}` },
      });
    expect((await admit(guests[0]!.id)).statusCode).toBe(200);
    expect((await admit(guests[1]!.id)).statusCode).toBe(200);
    const full = await admit(guests[2]!.id);
    expect(full.statusCode).toBe(409);
    expect(full.json()).toMatchObject({ error: { code: 'VISIT_FULL' } });
    // Someone who is not a guest of this visit is not admitted either.
    const unknown = await admit('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
  });

  it('disconnects a guest at the sweep once the invitation has expired', async () => {
    const { visit } = await callInProgress();
    const { cookie } = await inviteAndRedeem(visit, { expiresInMinutes: 5 });
    const guest = await openVisitSocket(port, cookie);
    expect(await context.app.realtime.sweepExpiredSessions()).toBe(0);
    const closed = new Promise<string>((resolve) => guest.once('disconnect', (reason) => resolve(reason)));
    const start = clock.now().toISOString();
    clock.set(inMinutes(6).toISOString());
    try {
      expect(await context.app.realtime.sweepExpiredSessions()).toBeGreaterThanOrEqual(1);
      expect(await closed).toBe('io server disconnect');
      await expect(openVisitSocket(port, cookie)).rejects.toThrow('UNAUTHENTICATED');
    } finally {
      clock.set(start);
    }
  });
});
