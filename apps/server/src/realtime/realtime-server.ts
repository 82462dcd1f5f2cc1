import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realtimePath } from '@telemedicina/shared/realtime';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server as EngineServer } from 'engine.io';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { oneRunAtATime } from '../lib/one-run-at-a-time.js';
import {
  createHandshakeAuthenticator,
  guestRoom,
  sessionRoom,
  userRoom,
  type HandshakeResolver,
} from './handshake-auth.js';
import { registerSystemEvents } from './system-events.js';
import type { TypedServer, TypedSocket } from './types.js';

export interface RealtimeOptions {
  /** The main HTTP server (fastify's); Socket.IO is attached to it at /socket.io. */
  mainServer: HttpServer;
  /** Whether to create a separate HTTP server for Socket.IO (REALTIME_PORT). */
  hasSeparatePort: boolean;
  /** Origins allowed to connect (besides the page's own origin). */
  allowedOrigins: readonly string[];
  /** Bound port of the main server: pages it served may connect to the separate port too. */
  getMainPort: () => number | null;
  logger: FastifyBaseLogger;
  now: () => Date;
  /** Session checks: at the handshake, and periodically for connected sockets. */
  sessions: {
    resolve: HandshakeResolver;
    /** Of the given session ids, those still open. */
    filterLive(sessionIds: readonly string[]): Promise<Set<string>>;
  };
  /** Visit guests: of the given guest ids, those whose invitation is still live (not revoked or expired). */
  guests?: { filterLive(guestIds: readonly string[]): Promise<Set<string>> };
  /** How often connected sockets' sessions are re-checked (idle and absolute expiry). Default 30 s. */
  sweepIntervalMs?: number;
  /**
   * Several instances: rooms and broadcasts shared through Redis (`@socket.io/redis-adapter`).
   * `key` prefixes the channels (instances that must see each other use the same one).
   */
  redis?: { url: string; key?: string } | null;
  /** Registers the domain's event handlers on each accepted connection. */
  onConnection?: (socket: TypedSocket, io: TypedServer) => void;
}

export interface RealtimeServer {
  readonly io: TypedServer;
  /** The separate port's HTTP server, or null when disabled. */
  readonly separateServer: HttpServer | null;
  /** Bound port of the separate server; null when disabled or not listening yet. */
  separatePort(): number | null;
  /** Starts the separate server (no-op when disabled) and resolves with its bound port. */
  listen(port: number, host: string): Promise<number | null>;
  /** Disconnects every socket opened by these sessions (on every instance, through the adapter). */
  disconnectSessions(sessionIds: readonly string[]): void;
  /**
   * Disconnects this instance's sockets whose session has ended meanwhile
   * (idle or past its lifetime) and those of guests whose invitation was
   * revoked or expired; runs periodically. Resolves with how many sessions
   * and guests were found ended.
   */
  sweepExpiredSessions(): Promise<number>;
  /**
   * With REDIS_URL: resolves true once rooms are shared through Redis, false when Redis could not be
   * reached at start (the instance then works alone until it can). Without: resolves false.
   */
  readonly adapterReady: Promise<boolean>;
  /** Disconnects every client and closes the separate server. Idempotent. */
  close(): Promise<void>;
}

/**
 * One Socket.IO server reachable two ways: on the main port at /socket.io
 * and, as the specification wants, on its own port. A single engine.io
 * instance is attached to both HTTP servers, so rooms, middleware and
 * handlers are shared and a client may use either.
 *
 * Origins are checked at the handshake (`allowRequest`), not only advertised
 * through CORS headers: a foreign page gets 403 before any session exists.
 */
export function createRealtimeServer(options: RealtimeOptions): RealtimeServer {
  const allowed = new Set(options.allowedOrigins);
  const isAllowedRequest = (request: IncomingMessage): boolean =>
    isOriginAllowed(request, allowed, options.getMainPort());
  const engine = new EngineServer({
    // Echo the origin only for allowed pages (polling needs it; WebSocket ignores CORS).
    cors: (request, callback) => {
      callback(null, { origin: isAllowedRequest(request as IncomingMessage), credentials: true });
    },
    allowRequest: (request, callback) => {
      const isAllowed = isAllowedRequest(request);
      if (!isAllowed) {
        options.logger.warn(
          { origin: request.headers.origin },
          'real-time connection from a foreign origin refused',
        );
      }
      callback(isAllowed ? null : 'Origin not allowed', isAllowed);
    },
    // Chat, signalling and notifications are small; uploads go over HTTP.
    maxHttpBufferSize: 1_000_000,
  });
  const io: TypedServer = new Server({ path: realtimePath, serveClient: false });
  const redisClients: Redis[] = [];
  let adapterReady: Promise<boolean> = Promise.resolve(false);
  if (options.redis) {
    const pub = new Redis(options.redis.url, { connectTimeout: 2_000, maxRetriesPerRequest: 2 });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) {
      client.on('error', (error: Error) => options.logger.warn({ err: error }, 'redis (real-time) error'));
      redisClients.push(client);
    }
    const key = options.redis.key ?? 'telemedicina:socket.io';
    // The adapter subscribes at once and does not handle a refused subscription: it is installed
    // only once the subscriber is connected. Until then (Redis down at start) this instance works on
    // its own; when Redis arrives, local clients are disconnected so they reconnect and rejoin their
    // rooms on the shared adapter.
    adapterReady = new Promise<boolean>((resolve) => {
      sub.once('ready', () => {
        io.adapter(createAdapter(pub, sub, { key }));
        io.local.disconnectSockets(false);
        resolve(true);
      });
      sub.once('error', () => resolve(false));
    });
  }
  io.bind(engine);
  engine.attach(options.mainServer, { path: realtimePath });

  let separateServer: HttpServer | null = null;
  if (options.hasSeparatePort) {
    separateServer = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      response.end(
        JSON.stringify({ error: { code: 'ROUTE_NOT_FOUND', message: 'Only /socket.io is served here.' } }),
      );
    });
    engine.attach(separateServer, { path: realtimePath });
  }

  io.use(
    createHandshakeAuthenticator(options.sessions.resolve, (error) =>
      options.logger.error({ err: error }, 'real-time handshake: session check failed'),
    ),
  );
  io.on('connection', (socket) => {
    const { userId, sessionId, guest } = socket.data;
    if (userId !== null && sessionId !== null) {
      void socket.join([userRoom(userId), sessionRoom(sessionId)]);
    }
    if (guest !== null) {
      void socket.join(guestRoom(guest.id));
    }
    registerSystemEvents(socket, options.now);
    options.onConnection?.(socket, io);
  });

  const disconnectSessions = (sessionIds: readonly string[]): void => {
    if (sessionIds.length > 0) {
      io.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
    }
  };

  /** Disconnects the sockets whose session or guest invitation has ended; resolves how many. */
  async function sweepOnce(): Promise<number> {
    const connected = new Set<string>();
    const guests = new Set<string>();
    for (const socket of io.of('/').sockets.values()) {
      if (socket.data.sessionId !== null) {
        connected.add(socket.data.sessionId);
      }
      if (socket.data.guest !== null) {
        guests.add(socket.data.guest.id);
      }
    }
    let endedCount = 0;
    if (connected.size > 0) {
      const live = await options.sessions.filterLive([...connected]);
      const ended = [...connected].filter((id) => !live.has(id));
      for (const id of ended) {
        io.of('/').in(sessionRoom(id)).local.disconnectSockets(true);
      }
      endedCount += ended.length;
    }
    if (guests.size > 0 && options.guests !== undefined) {
      const live = await options.guests.filterLive([...guests]);
      const ended = [...guests].filter((id) => !live.has(id));
      for (const id of ended) {
        io.of('/').in(guestRoom(id)).local.disconnectSockets(true);
      }
      endedCount += ended.length;
    }
    return endedCount;
  }

  // A sweep asked for while one runs gets the next one, not the one under way: that may have read
  // the sockets and the clock before what the caller wants swept had ended (seen: a test's sweep
  // right after moving the clock got the timer's sweep in flight, and 0).
  const sweepExpiredSessions = oneRunAtATime(sweepOnce);
  const sweepTimer = setInterval(() => {
    sweepExpiredSessions().catch((error: unknown) => {
      options.logger.warn({ err: error }, 'real-time session sweep failed');
    });
  }, options.sweepIntervalMs ?? 30_000);
  sweepTimer.unref();

  let closing: Promise<void> | null = null;
  return {
    io,
    separateServer,
    adapterReady,
    separatePort: () => {
      const address = separateServer?.address();
      return address !== null && typeof address === 'object' ? address.port : null;
    },
    listen: (port, host) => {
      const server = separateServer;
      if (server === null) {
        return Promise.resolve(null);
      }
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve((server.address() as AddressInfo).port);
        });
      });
    },
    disconnectSessions,
    sweepExpiredSessions,
    close: () =>
      (closing ??= (async () => {
        clearInterval(sweepTimer);
        await io.close();
        await Promise.all(redisClients.map((client) => client.quit().catch(() => undefined)));
        const server = separateServer;
        if (server?.listening) {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
        }
      })()),
  };
}

/**
 * Browsers always send Origin on cross-origin and WebSocket requests. A
 * request without one is not from a web page (curl, a native client) and
 * carries no ambient credentials to abuse. Besides the configured origins,
 * the app's own page is accepted however it was reached (a LAN address, a
 * host name): same host and port as the request (main port), or same host
 * and the main port (the separate real-time port).
 */
export function isOriginAllowed(
  request: IncomingMessage,
  allowed: ReadonlySet<string>,
  mainPort: number | null,
): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) {
    return true;
  }
  if (allowed.has(origin)) {
    return true;
  }
  const requestHost = request.headers.host;
  if (requestHost === undefined) {
    return false;
  }
  let originUrl: URL;
  let requestUrl: URL;
  try {
    originUrl = new URL(origin);
    requestUrl = new URL(`http://${requestHost}`);
  } catch {
    return false;
  }
  if (originUrl.host === requestUrl.host) {
    return true;
  }
  const originPort = originUrl.port === '' ? defaultPort(originUrl.protocol) : Number(originUrl.port);
  return originUrl.hostname === requestUrl.hostname && mainPort !== null && originPort === mainPort;
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}
