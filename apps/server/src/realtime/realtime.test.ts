import type { AckResult, ClientToServerEvents, ServerToClientEvents, SystemPong } from '@telemedicina/shared';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, testAppOrigin, type TestContext } from '../test/test-context.js';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let context: TestContext;
let mainPort: number;
let separatePort: number;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  context = await createTestContext({ config: { realtimePort: 0 } });
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
  options: { origin?: string; transports?: ('polling' | 'websocket')[] } = {},
): ClientSocket {
  const socket: ClientSocket = connect(`http://127.0.0.1:${port}`, {
    path: '/socket.io',
    transports: options.transports ?? ['polling', 'websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 5_000,
    extraHeaders: { origin: options.origin ?? testAppOrigin },
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
