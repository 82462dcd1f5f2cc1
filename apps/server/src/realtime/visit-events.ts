import type { ErrorCode } from '@telemedicina/shared/errors';
import type { AckResult } from '@telemedicina/shared/realtime';
import { maxVisitParticipants } from '@telemedicina/shared/visit-timing';
import {
  chatSendSchema,
  chatTypingSchema,
  visitJoinSchema,
  visitMediaStateSchema,
  visitRefSchema,
  visitSignalSchema,
  waitingMessageSchema,
  waitingRoomWatchSchema,
  type VisitJoinResult,
  type VisitParticipant,
} from '@telemedicina/shared/visits';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { isAppError } from '../lib/app-error.js';
import { isDatabaseUnavailable } from '../lib/database-errors.js';
import type { RequestMeta } from '../modules/context.js';
import {
  prepareJoin,
  prepareWaitingMessage,
  sendChatMessage,
  watchWaitingRoom,
} from '../modules/visits/visit-calls.service.js';
import {
  visitContextForSocket,
  type VisitContext,
  type VisitDependencies,
} from '../modules/visits/visit-context.js';
import { markStartedIfTogether } from '../modules/visits/visit-admission.service.js';
import {
  createCallReadingRecorder,
  type CallReadingRecorder,
} from '../modules/visits/visit-call-readings.service.js';
import { notifyWaitingRoom } from '../modules/visits/visit-waiting-room.service.js';
import type { TypedServer, TypedSocket } from './types.js';
import {
  visitCallKeyRoom,
  visitCallRoom,
  visitKeyRoom,
  visitWaitingRoom,
  waitingRoomWatchRoom,
} from './visit-rooms.js';

type Reply<T> = (result: AckResult<T>) => void;

class EventError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Events a visit guest may send; everything else is refused (FORBIDDEN). */
const guestEvents = new Set([
  'visit.join',
  'visit.leave',
  'visit.signal',
  'visit.media',
  'chat.send',
  'chat.typing',
  'system.ping',
]);

/**
 * Registers the video-visit events on one connection: joining (waiting room
 * or call), leaving, WebRTC signalling between participants in the call,
 * media state, chat, typing, and the doctor's waiting-room view. Every
 * payload is checked with the shared schemas and every failure is answered
 * as `{ ok: false, error }`, never thrown.
 */
export function registerVisitEvents(
  socket: TypedSocket,
  io: TypedServer,
  deps: VisitDependencies,
  logger: FastifyBaseLogger,
): void {
  const meta: RequestMeta = {
    ip: socket.handshake.address || null,
    userAgent: socket.handshake.headers['user-agent']?.slice(0, 512) ?? null,
    requestId: null,
  };
  const contextOf = (): VisitContext => visitContextForSocket(deps, socket.data, meta);

  /** Wraps a handler: guest gate, payload check, errors as acknowledgements. */
  function on<S extends z.ZodType, T>(
    event: string,
    schema: S,
    handler: (payload: z.infer<S>) => Promise<T>,
  ): void {
    (socket as unknown as { on(event: string, listener: (...args: unknown[]) => void): void }).on(
      event,
      (payload: unknown, ack: unknown) => {
        const reply: Reply<T> | null = typeof ack === 'function' ? (ack as Reply<T>) : null;
        const fail = (code: ErrorCode, message: string, details?: unknown): void => {
          reply?.({ ok: false, error: { code, message, ...(details === undefined ? {} : { details }) } });
        };
        if (socket.data.guest !== null && !guestEvents.has(event)) {
          fail('FORBIDDEN', 'Guests cannot do this.');
          return;
        }
        const parsed = schema.safeParse(payload);
        if (!parsed.success) {
          fail('VALIDATION_FAILED', `Invalid ${event} payload.`, z.treeifyError(parsed.error));
          return;
        }
        handler(parsed.data).then(
          (data) => reply?.({ ok: true, data }),
          (error: unknown) => {
            if (error instanceof EventError) {
              fail(error.code, error.message, error.details);
            } else if (isAppError(error)) {
              fail(error.code, error.message, error.details);
            } else if (isDatabaseUnavailable(error)) {
              // An outage, not a bug: the same event works again once the pool has reconnected.
              logger.warn({ err: error, event }, 'real-time visit event: database unavailable');
              fail('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable. Try again shortly.');
            } else {
              logger.error({ err: error, event }, 'real-time visit event failed');
              fail('INTERNAL_ERROR', 'Something went wrong.');
            }
          },
        );
      },
    );
  }

  /** The participant this connection is in a visit, when it is in that visit's call. */
  const inCallAs = (appointmentId: string): VisitParticipant | null => {
    const visit = socket.data.visit;
    if (visit?.appointmentId !== appointmentId || !socket.rooms.has(visitCallRoom(appointmentId))) {
      return null;
    }
    return visit.participant;
  };

  /** Takes this connection out of its visit's rooms; tells the call and the waiting room's watchers. */
  const leaveCurrentVisit = async (): Promise<void> => {
    const visit = socket.data.visit;
    if (visit === null) {
      return;
    }
    const { appointmentId, participant } = visit;
    const wasInCall = socket.rooms.has(visitCallRoom(appointmentId));
    socket.data.visit = null;
    await Promise.all([
      socket.leave(visitCallRoom(appointmentId)),
      socket.leave(visitWaitingRoom(appointmentId)),
      socket.leave(visitKeyRoom(appointmentId, participant.key)),
      socket.leave(visitCallKeyRoom(appointmentId, participant.key)),
    ]);
    if (wasInCall) {
      io.to(visitCallRoom(appointmentId)).emit('visit.participantLeft', {
        appointmentId,
        key: participant.key,
        reason: 'left',
      });
    }
    await notifyDoctorOf(appointmentId);
  };

  /** The waiting room of the visit's doctor changed (someone came or went). */
  const notifyDoctorOf = async (appointmentId: string): Promise<void> => {
    const doctorId = doctorOfVisit.get(appointmentId);
    if (doctorId !== undefined) {
      await notifyWaitingRoom(deps, doctorId);
    }
  };
  const doctorOfVisit = new Map<string, string>();

  on('visit.join', visitJoinSchema, async (payload): Promise<VisitJoinResult> => {
    const ctx = contextOf();
    const prepared = await prepareJoin(ctx, payload.appointmentId, payload.lastSeq);
    const { visit, state, messages } = prepared;
    const appointmentId = visit.appointment.id;
    const self = visit.self;
    doctorOfVisit.set(appointmentId, visit.appointment.doctorUserId);
    const callRoom = visitCallRoom(appointmentId);

    // One live connection per participant: a previous one (another tab, a page before reload) leaves.
    const previous = (await io.in(visitKeyRoom(appointmentId, self.key)).fetchSockets()).filter(
      (other) => other.id !== socket.id,
    );
    let wasReplacedInCall = false;
    for (const other of previous) {
      wasReplacedInCall ||= other.rooms.has(callRoom);
      other.leave(callRoom);
      other.leave(visitWaitingRoom(appointmentId));
      other.leave(visitKeyRoom(appointmentId, self.key));
      other.leave(visitCallKeyRoom(appointmentId, self.key));
    }
    if (wasReplacedInCall) {
      socket.to(callRoom).emit('visit.participantLeft', { appointmentId, key: self.key, reason: 'lost' });
    }
    // This connection was in another visit: leave that one first.
    if (socket.data.visit !== null && socket.data.visit.appointmentId !== appointmentId) {
      await leaveCurrentVisit();
    }

    const wasInCall = socket.rooms.has(callRoom);
    let participants: VisitParticipant[] = [];
    if (prepared.inCall) {
      const others = new Map<string, VisitParticipant>();
      for (const other of await io.in(callRoom).fetchSockets()) {
        const participant = other.data.visit?.participant;
        if (participant !== undefined && participant.key !== self.key && other.id !== socket.id) {
          others.set(participant.key, participant);
        }
      }
      if (!wasInCall && others.size >= maxVisitParticipants) {
        throw new EventError('VISIT_FULL', 'The call already has four participants.', {
          max: maxVisitParticipants,
        });
      }
      participants = [...others.values()];
    }

    socket.data.visit = { appointmentId, participant: self };
    if (prepared.inCall) {
      await Promise.all([
        socket.join([
          visitKeyRoom(appointmentId, self.key),
          callRoom,
          visitCallKeyRoom(appointmentId, self.key),
        ]),
        socket.leave(visitWaitingRoom(appointmentId)),
      ]);
      if (!wasInCall) {
        socket.to(callRoom).emit('visit.participantJoined', { appointmentId, participant: self });
      }
      await markStartedIfTogether(deps, visit.appointment);
    } else {
      await Promise.all([
        socket.join([visitKeyRoom(appointmentId, self.key), visitWaitingRoom(appointmentId)]),
        socket.leave(callRoom),
      ]);
    }
    if (!prepared.inCall || visit.capacity === 'patient') {
      await notifyWaitingRoom(deps, visit.appointment.doctorUserId);
    }
    return { state, inCall: prepared.inCall, participants, messages };
  });

  on('visit.leave', visitRefSchema, async (payload): Promise<null> => {
    if (socket.data.visit?.appointmentId === payload.appointmentId) {
      await leaveCurrentVisit();
    }
    return null;
  });

  on('visit.signal', visitSignalSchema, async (payload): Promise<null> => {
    const sender = inCallAs(payload.appointmentId);
    if (sender === null) {
      throw new EventError('FORBIDDEN', 'Join the call before signalling.');
    }
    const target = visitCallKeyRoom(payload.appointmentId, payload.to);
    const isLocal = (io.of('/').adapter.rooms.get(target)?.size ?? 0) > 0;
    if (payload.to === sender.key || (!isLocal && (await io.in(target).fetchSockets()).length === 0)) {
      throw new EventError('NOT_FOUND', 'That participant is not in the call.');
    }
    const { to: _to, ...rest } = payload;
    io.to(target).emit('visit.signal', { ...rest, from: sender.key });
    return null;
  });

  /** This connection's reported readings, kept on its visit (see createCallReadingRecorder). */
  let readings: { appointmentId: string; key: string; recorder: CallReadingRecorder } | null = null;
  const flushReadings = (): void => {
    readings?.recorder.flush().catch((error: unknown) => {
      logger.warn({ err: error }, 'keeping the call readings failed');
    });
  };

  on('visit.media', visitMediaStateSchema, async (payload): Promise<null> => {
    const sender = inCallAs(payload.appointmentId);
    if (sender === null) {
      throw new EventError('FORBIDDEN', 'Join the call first.');
    }
    socket.to(visitCallRoom(payload.appointmentId)).emit('visit.media', { ...payload, key: sender.key });
    if (payload.reading !== undefined) {
      if (readings?.appointmentId !== payload.appointmentId || readings.key !== sender.key) {
        flushReadings();
        readings = {
          appointmentId: payload.appointmentId,
          key: sender.key,
          recorder: createCallReadingRecorder(deps, payload.appointmentId, sender),
        };
      }
      await readings.recorder.report(payload.reading);
    }
    return null;
  });

  on('chat.send', chatSendSchema, async (payload) => {
    const sender = inCallAs(payload.appointmentId);
    if (sender === null) {
      throw new EventError('FORBIDDEN', 'Only participants in the call can write in the chat.');
    }
    const { message, created } = await sendChatMessage(contextOf(), sender, payload);
    if (created) {
      socket.to(visitCallRoom(payload.appointmentId)).emit('chat.message', message);
    }
    return message;
  });

  on('chat.typing', chatTypingSchema, async (payload): Promise<null> => {
    const sender = inCallAs(payload.appointmentId);
    if (sender !== null) {
      socket.to(visitCallRoom(payload.appointmentId)).emit('chat.typing', {
        appointmentId: payload.appointmentId,
        key: sender.key,
        name: sender.name,
        typing: payload.typing,
      });
    }
    return Promise.resolve(null);
  });

  on('waitingRoom.watch', waitingRoomWatchSchema, async (payload) => {
    const room = await watchWaitingRoom(contextOf(), payload.doctorId);
    await socket.join(waitingRoomWatchRoom(payload.doctorId));
    return room;
  });

  on('waitingRoom.message', waitingMessageSchema, async (payload): Promise<null> => {
    const { visit, patientKey } = await prepareWaitingMessage(contextOf(), payload.appointmentId);
    io.to(visitKeyRoom(visit.appointment.id, patientKey)).emit('waitingRoom.message', {
      appointmentId: visit.appointment.id,
      text: payload.text,
      from: visit.appointment.doctorName,
      at: deps.now().toISOString(),
    });
    return null;
  });

  socket.on('disconnecting', () => {
    const visit = socket.data.visit;
    if (visit === null) {
      return;
    }
    if (socket.rooms.has(visitCallRoom(visit.appointmentId))) {
      socket.to(visitCallRoom(visit.appointmentId)).emit('visit.participantLeft', {
        appointmentId: visit.appointmentId,
        key: visit.participant.key,
        reason: 'lost',
      });
    }
  });
  socket.on('disconnect', () => {
    flushReadings();
    const visit = socket.data.visit;
    if (visit === null) {
      return;
    }
    notifyDoctorOf(visit.appointmentId).catch((error: unknown) => {
      logger.warn({ err: error }, 'waiting room update after a disconnect failed');
    });
  });
}
