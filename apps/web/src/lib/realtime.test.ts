import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  reconnectAfterServerDisconnect,
  serverDisconnectRetryMs,
  type ReconnectableSocket,
} from './realtime';

/** A socket stand-in: records `connect()` calls and lets the test fire `connect`/`disconnect`. */
function fakeSocket() {
  const listeners = {
    connect: new Set<(reason: string) => void>(),
    disconnect: new Set<(reason: string) => void>(),
  };
  const connect = vi.fn();
  const socket: ReconnectableSocket = {
    on: (event: 'connect' | 'disconnect', listener: (reason: string) => void) =>
      listeners[event].add(listener),
    off: (event: 'connect' | 'disconnect', listener: (reason: string) => void) =>
      listeners[event].delete(listener),
    connect,
  };
  return {
    socket,
    connect,
    fireConnect: () => listeners.connect.forEach((listener) => listener('')),
    fireDisconnect: (reason: string) => listeners.disconnect.forEach((listener) => listener(reason)),
    listenerCount: () => listeners.connect.size + listeners.disconnect.size,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('reconnectAfterServerDisconnect', () => {
  it('reconnects once, after the delay, when the server closed the connection of a signed-in page', () => {
    const fake = fakeSocket();
    reconnectAfterServerDisconnect(fake.socket, () => true);
    fake.fireDisconnect('io server disconnect');
    vi.advanceTimersByTime(serverDisconnectRetryMs - 1);
    expect(fake.connect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fake.connect).toHaveBeenCalledTimes(1);
  });

  it('stays disconnected when the retry was refused (no connect), however often the server closes', () => {
    const fake = fakeSocket();
    reconnectAfterServerDisconnect(fake.socket, () => true);
    fake.fireDisconnect('io server disconnect');
    fake.fireDisconnect('io server disconnect');
    vi.advanceTimersByTime(serverDisconnectRetryMs);
    // The handshake is refused: no `connect` event. A later close does not try again.
    fake.fireDisconnect('io server disconnect');
    vi.advanceTimersByTime(10 * serverDisconnectRetryMs);
    expect(fake.connect).toHaveBeenCalledTimes(1);
  });

  it('tries again after a later close once the retry had connected', () => {
    const fake = fakeSocket();
    reconnectAfterServerDisconnect(fake.socket, () => true);
    fake.fireDisconnect('io server disconnect');
    vi.advanceTimersByTime(serverDisconnectRetryMs);
    fake.fireConnect();
    fake.fireDisconnect('io server disconnect');
    vi.advanceTimersByTime(serverDisconnectRetryMs);
    expect(fake.connect).toHaveBeenCalledTimes(2);
  });

  it('leaves other disconnections to Socket.IO (it reconnects after network failures itself)', () => {
    const fake = fakeSocket();
    reconnectAfterServerDisconnect(fake.socket, () => true);
    for (const reason of ['io client disconnect', 'transport close', 'ping timeout', 'transport error']) {
      fake.fireDisconnect(reason);
    }
    vi.advanceTimersByTime(10 * serverDisconnectRetryMs);
    expect(fake.connect).not.toHaveBeenCalled();
  });

  it('does not reconnect a page without a session, nor one signed out during the delay', () => {
    const signedOut = fakeSocket();
    reconnectAfterServerDisconnect(signedOut.socket, () => false);
    signedOut.fireDisconnect('io server disconnect');
    vi.advanceTimersByTime(serverDisconnectRetryMs);
    expect(signedOut.connect).not.toHaveBeenCalled();

    let isSignedIn = true;
    const signingOut = fakeSocket();
    reconnectAfterServerDisconnect(signingOut.socket, () => isSignedIn);
    signingOut.fireDisconnect('io server disconnect');
    isSignedIn = false;
    vi.advanceTimersByTime(serverDisconnectRetryMs);
    expect(signingOut.connect).not.toHaveBeenCalled();
  });

  it('stops: the pending try is cancelled and the listeners removed', () => {
    const fake = fakeSocket();
    const stop = reconnectAfterServerDisconnect(fake.socket, () => true);
    expect(fake.listenerCount()).toBe(2);
    fake.fireDisconnect('io server disconnect');
    stop();
    vi.advanceTimersByTime(serverDisconnectRetryMs);
    expect(fake.connect).not.toHaveBeenCalled();
    expect(fake.listenerCount()).toBe(0);
  });
});
