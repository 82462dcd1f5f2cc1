import type { ClientToServerEvents, ServerToClientEvents } from '@telemedicina/shared';
import type { Server, Socket } from 'socket.io';

/** Events between server instances (Redis/PostgreSQL adapter); none yet. */
export type InterServerEvents = Record<never, never>;

/** Per-connection state set by the handshake middleware. */
export interface SocketData {
  /** The signed-in user (set by the handshake; null only before it). */
  userId: string | null;
  /** The session whose cookie opened this connection; ending the session disconnects the socket. */
  sessionId: string | null;
}

export type TypedServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type TypedSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
