import { z } from 'zod';
import type { ErrorCode } from './errors.js';
import type { Notification } from './notifications.js';

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
}

/**
 * Events the server emits; the domain issues add theirs here
 * (`message.created`, `waitingRoom.updated`…).
 */
export interface ServerToClientEvents {
  /** A new in-app notification for the user (room `user:<id>`). */
  'notification.created': (payload: Notification) => void;
}
