import type {
  AckResult,
  ClientToServerEvents,
  ServerToClientEvents,
  SystemPong,
} from '@telemedicina/shared/realtime';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashSecretToken } from '../lib/tokens.js';
import { createUser, requestHeaders, signIn, type SignedInClient } from '../test/factories.js';
import { createTestContext, testAppOrigin, type TestContext } from '../test/test-context.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let context: TestContext;
let mainPort: number;
let separatePort: number;
const sockets: ClientSocket[] = [];
/** The injected clock follows real time (pongs carry it); tests shift it to make sessions idle. */
let clockOffsetMs = 0;
/** A signed-in patient whose cookie the sockets present by default. */
let client: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({
    config: { realtimePort: 0 },
    now: () => new Date(Date.now() + clockOffsetMs),
  });
  client = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
  await context.app.listen({ port: 0, host: '127.0.0.1' });
  separatePort = (await context.app.realtime.listen(0, '127.0.0.1')) ?? 0;
  const address = context.app.server.address();
  mainPort = typeof address === 'object' && address !== null ? address.port : 0;
});

afterEach(() => {
  for (const socket of sockets.splice(0)) {
    socket.disconnect();
  }
});

afterAll(async () => {
  await context?.close();
});

function open(
  port: number,
  options: { origin?: string; transports?: ('polling' | 'websocket')[]; sessionToken?: string | null } = {},
): ClientSocket {
  const sessionToken = options.sessionToken === undefined ? client.token : options.sessionToken;
  const socket: ClientSocket = connect(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: options.transports ?? ['polling', 'websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 20_000,
    extraHeaders: {
      origin: options.origin ?? testAppOrigin,
      ...(sessionToken === null ? {} : { cookie: `tm_session=${sessionToken}` }),
    },
  });
  sockets.push(socket);
  return socket;
}

function connected(socket: ClientSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

async function ping(socket: ClientSocket, nonce: string): Promise<AckResult<SystemPong>> {
  const result: AckResult<SystemPong> = await socket.timeout(5_000).emitWithAck('system.ping', { nonce });
  return result;
}

describe('real-time endpoint', () => {
  it.each([
    ['the separate port', () => separatePort, ['polling', 'websocket'] as const],
    ['the separate port (WebSocket only)', () => separatePort, ['websocket'] as const],
    ['the main port', () => mainPort, ['polling', 'websocket'] as const],
    ['the main port (WebSocket only)', () => mainPort, ['websocket'] as const],
  ])('answers system.ping with a pong on %s', async (_name, port, transports) => {
    expect(port()).toBeGreaterThan(0);
    const socket = open(port(), { transports: [...transports] });
    await connected(socket);
    const before = Date.now();
    const result = await ping(socket, `nonce-${port()}`);
    expect(result.ok).toBe(true);
    if (!result.ok) {
      return;
    }
    expect(result.data.nonce).toBe(`nonce-${port()}`);
    expect(result.data.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(result.data.at)).toBeGreaterThanOrEqual(before - 1_000);
  });

  it('is one server: a client on each port is seen by the same Socket.IO instance', async () => {
    const onMain = open(mainPort);
    const onSeparate = open(separatePort);
    await Promise.all([connected(onMain), connected(onSeparate)]);
    const ids = new Set((await context.app.realtime.io.fetchSockets()).map((socket) => socket.id));
    expect(ids.has(onMain.id ?? '')).toBe(true);
    expect(ids.has(onSeparate.id ?? '')).toBe(true);
  });

  it('answers an invalid ping payload with VALIDATION_FAILED', async () => {
    const socket = open(separatePort);
    await connected(socket);
    const result = await socket.timeout(5_000).emitWithAck('system.ping', { nonce: '' });
    expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it.each([
    ['the separate port', () => separatePort, ['polling', 'websocket'] as const],
    ['the separate port (WebSocket only)', () => separatePort, ['websocket'] as const],
    ['the main port', () => mainPort, ['polling', 'websocket'] as const],
    ['the main port (WebSocket only)', () => mainPort, ['websocket'] as const],
  ])('refuses a page from a foreign origin on %s', async (_name, port, transports) => {
    const socket = open(port(), { origin: 'https://evil.example', transports: [...transports] });
    await expect(connected(socket)).rejects.toThrow();
    expect(socket.connected).toBe(false);
  });

  it('refuses the foreign origin at the HTTP handshake without CORS headers, and allows the app origin', async () => {
    const url = `http://127.0.0.1:${separatePort}/socket.io/?EIO=4&transport=polling`;
    const foreign = await fetch(url, { headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    await foreign.body?.cancel();

    const allowed = await fetch(url, { headers: { origin: testAppOrigin } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(testAppOrigin);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    await allowed.body?.cancel();
  });

  it("accepts the app's own page however it was reached (same host, main port)", async () => {
    const sameHost = open(separatePort, { origin: `http://127.0.0.1:${mainPort}` });
    await connected(sameHost);
    const otherPort = open(separatePort, { origin: `http://127.0.0.1:${mainPort + 1}` });
    await expect(connected(otherPort)).rejects.toThrow();
  });

  it('serves nothing else on the separate port', async () => {
    const response = await fetch(`http://127.0.0.1:${separatePort}/api/v1/health`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
  });
});

/** Resolves with the `connect_error` a refused handshake produced. */
function refusal(socket: ClientSocket): Promise<Error & { data?: { code?: string } }> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('the connection was accepted')));
    socket.once('connect_error', (error) => resolve(error as Error & { data?: { code?: string } }));
  });
}

function disconnection(socket: ClientSocket): Promise<string> {
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
}

describe('real-time handshake authentication', () => {
  it.each([
    ['polling then WebSocket', ['polling', 'websocket'] as const],
    ['WebSocket only', ['websocket'] as const],
  ])('refuses a connection without a session cookie (%s)', async (_name, transports) => {
    const socket = open(separatePort, { sessionToken: null, transports: [...transports] });
    const error = await refusal(socket);
    expect(error.message).toBe('UNAUTHENTICATED');
    expect(error.data?.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a forged session token', async () => {
    const error = await refusal(open(mainPort, { sessionToken: 'x'.repeat(43) }));
    expect(error.data?.code).toBe('UNAUTHENTICATED');
  });

  it('accepts a live session and places the socket in its user and session rooms', async () => {
    const socket = open(mainPort);
    await connected(socket);
    const sessionId = hashSecretToken(client.token);
    const inSessionRoom = await context.app.realtime.io.in(`session:${sessionId}`).fetchSockets();
    expect(inSessionRoom.map((entry) => entry.id)).toContain(socket.id);
    expect(inSessionRoom.every((entry) => entry.data.sessionId === sessionId)).toBe(true);
    const inUserRoom = await context.app.realtime.io.in(`user:${client.me.user.id}`).fetchSockets();
    expect(inUserRoom.map((entry) => entry.id)).toContain(socket.id);
    expect(inUserRoom.find((entry) => entry.id === socket.id)?.data.userId).toBe(client.me.user.id);
  });

  it('disconnects the sockets of a session at logout, and refuses the ended session afterwards', async () => {
    const user = await createUser(context.app, { roles: ['staff'] });
    const session = await signIn(context.app, user);
    const other = await signIn(context.app, user);
    const socket = open(mainPort, { sessionToken: session.token });
    const otherSocket = open(separatePort, { sessionToken: other.token });
    await Promise.all([connected(socket), connected(otherSocket)]);
    const closed = disconnection(socket);

    const logout = await context.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: session.headers,
    });
    expect(logout.statusCode).toBe(204);
    expect(await closed).toBe('io server disconnect');
    expect(otherSocket.connected).toBe(true);

    const error = await refusal(open(mainPort, { sessionToken: session.token }));
    expect(error.data?.code).toBe('SESSION_EXPIRED');
  });

  it('disconnects the sockets of sessions revoked from the profile', async () => {
    const user = await createUser(context.app, { roles: ['patient'] });
    const current = await signIn(context.app, user);
    const elsewhere = await signIn(context.app, user);
    const socket = open(mainPort, { sessionToken: elsewhere.token });
    await connected(socket);
    const closed = disconnection(socket);
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/me/sessions/revoke-others',
      headers: current.headers,
    });
    expect(response.statusCode).toBe(204);
    expect(await closed).toBe('io server disconnect');
  });

  it('disconnects a socket whose session went idle, at the next sweep', async () => {
    const user = await createUser(context.app, { roles: ['doctor'] });
    const session = await signIn(context.app, user);
    const socket = open(mainPort, { sessionToken: session.token });
    await connected(socket);
    const closed = disconnection(socket);

    expect(await context.app.realtime.sweepExpiredSessions()).toBe(0);
    expect(socket.connected).toBe(true);
    // Staff and doctors: 15 idle minutes. The socket's own traffic is not activity.
    clockOffsetMs = 15 * 60_000 + 1_000;
    try {
      expect(await context.app.realtime.sweepExpiredSessions()).toBeGreaterThanOrEqual(1);
      expect(await closed).toBe('io server disconnect');
      const me = await context.app.inject({
        method: 'GET',
        url: '/api/v1/me',
        headers: requestHeaders(session.token),
      });
      expect(me.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
    } finally {
      clockOffsetMs = 0;
    }
  });
});
