import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { Notification } from './notifications.js';
import type {
  ChatMessage,
  ChatSend,
  ChatTyping,
  VisitJoin,
  VisitJoinResult,
  VisitMediaState,
  VisitParticipant,
  VisitRef,
  VisitSignal,
  VisitSignalDelivery,
  VisitState,
  WaitingMessage,
  WaitingRoom,
  WaitingRoomWatch,
} from './visits.js';

/**
 * Socket.IO contract. Event names are `resource.action`; rooms are
 * `kind:<id>` (e.g. `appointment:42`). Every client event that expects an
 * answer takes an acknowledgement callback receiving an {@link AckResult}.
 */
export const realtimePath = '/socket.io';

/** Answer to a client event: the payload, or an error in the API's error vocabulary. */
export type AckResult<T> =
  { ok: true; data: T } | { ok: false; error: { code: ErrorCode; message: string; details?: unknown } };

export const systemPingSchema = z.object({
  /** Echoed back so the caller can match the pong to its ping. */
  nonce: z.string().min(1).max(128),
});
export type SystemPing = z.infer<typeof systemPingSchema>;

export const systemPongSchema = z.object({
  nonce: z.string(),
  /** Server time when the ping was handled, ISO 8601 UTC. */
  at: z.iso.datetime(),
});
export type SystemPong = z.infer<typeof systemPongSchema>;

/** Events the browser emits. */
export interface ClientToServerEvents {
  /** Round trip check: acknowledged with the nonce and the server time. */
  'system.ping': (payload: SystemPing, ack: (result: AckResult<SystemPong>) => void) => void;
  /**
   * Enter a visit: a participant not yet admitted joins its waiting room, the host or an
   * admitted participant joins the call. Replaces this participant's previous connection.
   */
  'visit.join': (payload: VisitJoin, ack: (result: AckResult<VisitJoinResult>) => void) => void;
  /** Leave the visit (closing the page does the same). */
  'visit.leave': (payload: VisitRef, ack: (result: AckResult<null>) => void) => void;
  /** WebRTC signalling to one other participant in the call (relayed as `visit.signal`). */
  'visit.signal': (payload: VisitSignal, ack: (result: AckResult<null>) => void) => void;
  /** Own microphone/camera/screen state and quality level, relayed to the others. */
  'visit.media': (payload: VisitMediaState, ack: (result: AckResult<null>) => void) => void;
  /** Send a chat message; acknowledged with the stored message (idempotent by `clientId`). */
  'chat.send': (payload: ChatSend, ack: (result: AckResult<ChatMessage>) => void) => void;
  /** Typing indicator (not stored). */
  'chat.typing': (payload: ChatTyping) => void;
  /** Host or staff: follow a doctor's waiting room (acknowledged with its current state). */
  'waitingRoom.watch': (payload: WaitingRoomWatch, ack: (result: AckResult<WaitingRoom>) => void) => void;
  /** Host: a short message to a waiting patient. */
  'waitingRoom.message': (payload: WaitingMessage, ack: (result: AckResult<null>) => void) => void;
}

/**
 * Events the server emits; the domain issues add theirs here
 * (`message.created`, `waitingRoom.updated`…).
 */
export interface ServerToClientEvents {
  /** A new in-app notification for the user (room `user:<id>`). */
  'notification.created': (payload: Notification) => void;
  /** The visit changed (admitted, running late, queue moved, ended…): the receiver's own view. */
  'visit.state': (payload: VisitState) => void;
  /** Someone entered the call: open a peer connection with them. */
  'visit.participantJoined': (payload: { appointmentId: string; participant: VisitParticipant }) => void;
  /**
   * Someone left the call: `left` when they chose to (close that peer connection), `lost` when their
   * connection dropped or was replaced by a new one of theirs (they may be back in a moment: the
   * call shows them as reconnecting for a while). Absent = `left`.
   */
  'visit.participantLeft': (payload: {
    appointmentId: string;
    key: string;
    reason?: 'left' | 'lost';
  }) => void;
  'visit.signal': (payload: VisitSignalDelivery) => void;
  'visit.media': (payload: VisitMediaState & { key: string }) => void;
  'chat.message': (payload: ChatMessage) => void;
  'chat.typing': (payload: { appointmentId: string; key: string; name: string; typing: boolean }) => void;
  /** A watched waiting room changed (room `waiting-room:<doctorId>`). */
  'waitingRoom.updated': (payload: WaitingRoom) => void;
  /** The doctor wrote to the waiting patient. */
  'waitingRoom.message': (payload: { appointmentId: string; text: string; from: string; at: string }) => void;
}
