import type { Permission } from '@telemedicina/shared/permission-catalogue';
import type { ClientToServerEvents, ServerToClientEvents } from '@telemedicina/shared/realtime';
import type { VisitParticipant } from '@telemedicina/shared/visits';
import type { Server, Socket } from 'socket.io';

/** Events between server instances (Redis/PostgreSQL adapter); none yet. */
export type InterServerEvents = Record<never, never>;

/** Per-connection state set by the handshake middleware (and by `visit.join`). */
export interface SocketData {
  /** The signed-in user (set by the handshake; null for a visit guest and before it). */
  userId: string | null;
  /** The session whose cookie opened this connection; ending the session disconnects the socket. */
  sessionId: string | null;
  /** The user's permissions when the connection was opened (re-checked by the session sweep). */
  permissions: readonly Permission[];
  /** A redeemed visit guest (`tm_guest` cookie): only their visit's events are allowed. */
  guest: { id: string; appointmentId: string } | null;
  /** The visit this connection entered with `visit.join`, and who it is there. */
  visit: { appointmentId: string; participant: VisitParticipant } | null;
}

export type TypedServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type TypedSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
