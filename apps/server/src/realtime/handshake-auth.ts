import type { TypedSocket } from './types.js';

/**
 * Socket.IO handshake middleware: the one place a connection is accepted or
 * refused before any event handler runs.
 *
 * HOOK: accounts arrive in a later issue. Then this reads the session cookie
 * from `socket.handshake.headers.cookie`, loads the session, sets
 * `socket.data.userId` (and permissions), and calls
 * `next(new Error('UNAUTHENTICATED'))` for a missing or expired session
 * (guests get a visit-scoped token in `socket.handshake.auth`). Until then it
 * accepts every connection as anonymous; origins are already restricted by
 * the server's `allowRequest` check.
 */
export function authenticateHandshake(socket: TypedSocket, next: (error?: Error) => void): void {
  socket.data.userId = null;
  next();
}
