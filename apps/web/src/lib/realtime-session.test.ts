import { afterEach, describe, expect, it, vi } from 'vitest';

const sockets: { disconnect: ReturnType<typeof vi.fn> }[] = [];

vi.mock('socket.io-client', () => ({
  io: vi.fn(() => {
    const socket = { on: vi.fn(), off: vi.fn(), connect: vi.fn(), disconnect: vi.fn() };
    sockets.push(socket);
    return socket;
  }),
}));

vi.mock('./api-client', () => ({
  api: { get: vi.fn(() => Promise.resolve({ realtime: { port: null, path: '/socket.io' } })) },
}));

const { getRealtimeSocket } = await import('./realtime');
const { sessionState } = await import('./session-state');

afterEach(() => {
  sessionState.setState({ isSignedIn: false });
});

describe('the real-time connection and the session', () => {
  it('is closed when the page signs out, and the next sign-in opens a new one', async () => {
    sessionState.getState().markSignedIn();
    const first = await getRealtimeSocket();
    expect(await getRealtimeSocket()).toBe(first);

    sessionState.getState().endSession('signedOut');
    expect(sockets[0]!.disconnect).toHaveBeenCalledTimes(1);

    sessionState.getState().markSignedIn();
    const second = await getRealtimeSocket();
    expect(second).not.toBe(first);
    expect(sockets).toHaveLength(2);
  });
});
