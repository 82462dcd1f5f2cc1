import type { ClientConfigResponse } from '@telemedicina/shared/api';
import type { AckResult, ClientToServerEvents, ServerToClientEvents } from '@telemedicina/shared/realtime';
import { realtimePath } from '@telemedicina/shared/realtime';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { Socket } from 'socket.io-client';
import { requestClientConfig } from './config-request';
import { sessionState } from './session-state';

/** The typed Socket.IO connection of this page. */
export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: RealtimeSocket | null = null;
let connecting: Promise<RealtimeSocket> | null = null;
let stopReconnecting: (() => void) | null = null;
const listeners = new Set<() => void>();
let connected = false;

function setConnected(value: boolean): void {
  if (connected !== value) {
    connected = value;
    for (const listener of listeners) {
      listener();
    }
  }
}

/**
 * Where the real-time endpoint is: its own port on the page's host when the server runs one
 * (the specification's separate endpoint; `GET /config` says which), else the page's origin.
 * Cookies are per host, not per port, so the session cookie goes with it either way.
 */
export function realtimeUrl(config: Pick<ClientConfigResponse, 'realtime'>, location: Location): string {
  const port = config.realtime.port;
  if (port === null || String(port) === location.port) {
    return location.origin;
  }
  return `${location.protocol}//${location.hostname}:${port}`;
}

/** How long the page waits before reconnecting after the server closed its connection. */
export const serverDisconnectRetryMs = 2_000;

/** What {@link reconnectAfterServerDisconnect} needs of a socket. */
export interface ReconnectableSocket {
  on(event: 'connect', listener: () => void): unknown;
  on(event: 'disconnect', listener: (reason: string) => void): unknown;
  off(event: 'connect', listener: () => void): unknown;
  off(event: 'disconnect', listener: (reason: string) => void): unknown;
  connect(): unknown;
}

/**
 * Socket.IO does not reconnect by itself when the server closed the connection
 * (`io server disconnect`): the server does that when the session behind it ended or was replaced
 * — enabling the second factor rotates the session, and the page already holds the new cookie.
 * While the page still has a session, this tries once, after a short delay (so the answer that
 * set the new cookie has arrived): a rotated session's handshake goes through; an ended one's is
 * refused (`connect_error`, the socket stays inactive) and the page stays disconnected. A
 * successful connection allows one more try next time. Returns a function that removes the
 * listeners and any pending try.
 */
export function reconnectAfterServerDisconnect(
  target: ReconnectableSocket,
  hasSession: () => boolean,
  delayMs: number = serverDisconnectRetryMs,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let hasTried = false;
  const handleDisconnect = (reason: string): void => {
    if (reason !== 'io server disconnect' || hasTried || timer !== null || !hasSession()) {
      return;
    }
    hasTried = true;
    timer = setTimeout(() => {
      timer = null;
      // Signed out meanwhile (sign-out also ends the session on the server): stay disconnected.
      if (hasSession()) {
        target.connect();
      }
    }, delayMs);
  };
  const handleConnect = (): void => {
    hasTried = false;
  };
  target.on('disconnect', handleDisconnect);
  target.on('connect', handleConnect);
  return () => {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    target.off('disconnect', handleDisconnect);
    target.off('connect', handleConnect);
  };
}

/**
 * The page's one real-time connection, opened on first use (after sign-in: the handshake is
 * authenticated by the session cookie, or by a visit guest's cookie). Socket.IO reconnects by
 * itself after a network failure, and {@link reconnectAfterServerDisconnect} once after the
 * server closed it while the page is signed in; features re-join their rooms on `connect`.
 */
export function getRealtimeSocket(): Promise<RealtimeSocket> {
  if (socket !== null) {
    return Promise.resolve(socket);
  }
  connecting ??= (async () => {
    // The Socket.IO client is a chunk of its own, fetched with the configuration: a page draws its
    // first screen without it (nothing waits for the connection to render).
    const [config, { io }] = await Promise.all([
      requestClientConfig() as Promise<ClientConfigResponse>,
      import('socket.io-client'),
    ]);
    const created: RealtimeSocket = io(realtimeUrl(config, window.location), {
      path: config.realtime.path ?? realtimePath,
      withCredentials: true,
      // WebSocket first; behind a proxy that blocks it, HTTP long-polling instead of no real-time at all.
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
    });
    created.on('connect', () => setConnected(true));
    created.on('disconnect', () => setConnected(false));
    stopReconnecting = reconnectAfterServerDisconnect(created, () => sessionState.getState().isSignedIn);
    // The network came back: connect now instead of at the next back-off attempt (up to 5 s away).
    window.addEventListener('online', () => {
      if (socket === created && created.active && !created.connected) {
        created.disconnect().connect();
      }
    });
    socket = created;
    return created;
  })().finally(() => {
    connecting = null;
  });
  return connecting;
}

/** Closes the connection (sign-out); the next `getRealtimeSocket` opens a new one. */
export function closeRealtimeSocket(): void {
  stopReconnecting?.();
  stopReconnecting = null;
  socket?.disconnect();
  socket = null;
  setConnected(false);
}

// Signing out (or a session that expired or idled out) closes the connection: the server has ended
// that session's sockets, and the next sign-in on this page must open a new one with its cookie.
sessionState.subscribe((state, previous) => {
  if (previous.isSignedIn && !state.isSignedIn) {
    closeRealtimeSocket();
  }
});

/** Whether the real-time connection is up (re-renders on change). */
export function useRealtimeConnected(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => connected,
  );
}

/**
 * Subscribes to a server event while mounted (opening the connection if needed). The latest
 * handler is always called, so it may close over state without re-subscribing.
 */
export function useRealtimeEvent<E extends keyof ServerToClientEvents>(
  event: E,
  handler: ServerToClientEvents[E],
  enabled = true,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    if (!enabled) {
      return;
    }
    let active = true;
    let attached: RealtimeSocket | null = null;
    const forward = ((...args: unknown[]) =>
      (latest.current as (...a: unknown[]) => void)(...args)) as ServerToClientEvents[E];
    void getRealtimeSocket().then((opened) => {
      if (active) {
        attached = opened;
        // Socket.IO's typed `on` cannot relate a generic event name to its listener.
        (opened.on as (name: string, listener: unknown) => void)(event, forward);
      }
    });
    return () => {
      active = false;
      (attached?.off as ((name: string, listener: unknown) => void) | undefined)?.call(
        attached,
        event,
        forward,
      );
    };
  }, [event, enabled]);
}

/** The error an {@link emitWithAck} rejects with: the server's error, or a timeout/disconnect. */
export class RealtimeError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

type AckPayload<E extends keyof ClientToServerEvents> =
  Parameters<ClientToServerEvents[E]> extends [infer P, (result: AckResult<infer R>) => void]
    ? [P, R]
    : never;

/**
 * Emits a client event and resolves with its acknowledged data; rejects with a
 * {@link RealtimeError} carrying the server's error code, or `TIMEOUT` when no answer came.
 */
export async function emitWithAck<E extends keyof ClientToServerEvents>(
  event: E,
  payload: AckPayload<E>[0],
  timeoutMs = 10_000,
): Promise<AckPayload<E>[1]> {
  const opened = await getRealtimeSocket();
  const emitter = opened.timeout(timeoutMs) as unknown as {
    emit(name: string, data: unknown, ack: (error: Error | null, result: AckResult<unknown>) => void): void;
  };
  return new Promise((resolve, reject) => {
    emitter.emit(event, payload, (error, result) => {
      if (error !== null) {
        reject(new RealtimeError('TIMEOUT', 'No answer from the server in time.'));
      } else if (result.ok) {
        resolve(result.data);
      } else {
        reject(new RealtimeError(result.error.code, result.error.message, result.error.details));
      }
    });
  });
}
