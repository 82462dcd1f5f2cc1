import type { ErrorCode } from '@telemedicina/shared/errors';
import type { Permission } from '@telemedicina/shared/permission-catalogue';
import { isDatabaseUnavailable } from '../lib/database-errors.js';
import type { TypedSocket } from './types.js';

/** What the session lookup tells the handshake: a user, a visit guest, or why not. */
export type HandshakeIdentity =
  | { ok: true; kind: 'user'; userId: string; sessionId: string; permissions: readonly Permission[] }
  | { ok: true; kind: 'guest'; guestId: string; appointmentId: string }
  | { ok: false; code: ErrorCode; message: string };

/**
 * Resolves the cookies of a handshake (without counting it as activity): a
 * live `tm_session` makes a user; otherwise a live `tm_guest` a visit guest.
 */
export type HandshakeResolver = (cookieHeader: string | undefined) => Promise<HandshakeIdentity>;

/** An error Socket.IO hands to the client's `connect_error`: `message` is the code, `data` has both. */
export function handshakeError(
  code: ErrorCode,
  message: string,
): Error & { data: { code: ErrorCode; message: string } } {
  const error = new Error(code) as Error & { data: { code: ErrorCode; message: string } };
  error.data = { code, message };
  return error;
}

/**
 * Socket.IO handshake middleware: the one place a connection is accepted or
 * refused before any event handler runs. It reads the same `tm_session`
 * cookie as the REST API (browsers send it with the WebSocket and polling
 * requests; origins are already restricted by `allowRequest`). Without a live
 * session the connection is refused with `UNAUTHENTICATED` or
 * `SESSION_EXPIRED` (`MFA_ENROLLMENT_REQUIRED` while the second factor is
 * still to be set up); otherwise the socket carries the user and session ids
 * and joins `user:<id>` and `session:<id>`, so ending a session can
 * disconnect exactly its sockets. Without a session, a live `tm_guest`
 * cookie (a redeemed visit invitation) makes the socket a guest of that one
 * visit: it joins `guest:<id>` (revoking the invitation disconnects it) and
 * the visit handlers allow it nothing but its own visit's events.
 */
export function createHandshakeAuthenticator(
  resolve: HandshakeResolver,
  onError: (error: unknown) => void,
): (socket: TypedSocket, next: (error?: Error) => void) => void {
  return (socket, next) => {
    socket.data.userId = null;
    socket.data.sessionId = null;
    socket.data.permissions = [];
    socket.data.guest = null;
    socket.data.visit = null;
    resolve(socket.handshake.headers.cookie).then(
      (identity) => {
        if (!identity.ok) {
          next(handshakeError(identity.code, identity.message));
          return;
        }
        if (identity.kind === 'guest') {
          socket.data.guest = { id: identity.guestId, appointmentId: identity.appointmentId };
        } else {
          socket.data.userId = identity.userId;
          socket.data.sessionId = identity.sessionId;
          socket.data.permissions = identity.permissions;
        }
        next();
      },
      (error: unknown) => {
        onError(error);
        next(
          isDatabaseUnavailable(error)
            ? handshakeError(
                'SERVICE_UNAVAILABLE',
                'The service is temporarily unavailable. Try again shortly.',
              )
            : handshakeError('INTERNAL_ERROR', 'The session could not be checked.'),
        );
      },
    );
  };
}

export const userRoom = (userId: string): string => `user:${userId}`;
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
export const guestRoom = (guestId: string): string => `guest:${guestId}`;
