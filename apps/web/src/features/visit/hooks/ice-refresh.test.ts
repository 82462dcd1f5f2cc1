import { describe, expect, it } from 'vitest';
import { shouldRefreshIceServers, turnExpiryOf } from './ice-refresh';

const stun = { urls: ['stun:stun.example.org:3478'] };
const turn = (expiry: number) => ({
  urls: ['turn:turn.example.org:3478?transport=udp'],
  username: `${expiry}:user-p`,
  credential: `password-${expiry}`,
});

describe('which ICE servers an open connection takes', () => {
  it('reads the expiry of a TURN REST API username, and none of a static one', () => {
    expect(turnExpiryOf(turn(1767229200))).toBe(1767229200);
    expect(turnExpiryOf({ urls: ['turn:t'], username: 'telemedicina', credential: 'x' })).toBeNull();
    expect(turnExpiryOf(stun)).toBeNull();
  });

  it('keeps the credentials it has while the fresh ones are less than a quarter lifetime newer', () => {
    expect(shouldRefreshIceServers([stun, turn(10_000)], [stun, turn(10_005)], 3600)).toBe(false);
    expect(shouldRefreshIceServers([stun, turn(10_000)], [stun, turn(10_899)], 3600)).toBe(false);
  });

  it('takes fresh ones a quarter lifetime newer or more (renewed before its own lapse)', () => {
    expect(shouldRefreshIceServers([stun, turn(10_000)], [stun, turn(10_900)], 3600)).toBe(true);
    expect(shouldRefreshIceServers([turn(10_000)], [turn(12_520)], 3600)).toBe(true);
  });

  it('takes servers that changed themselves (settings, a relay added or removed)', () => {
    expect(shouldRefreshIceServers([stun], [stun, turn(10_000)], 3600)).toBe(true);
    expect(shouldRefreshIceServers([stun, turn(10_000)], [stun], null)).toBe(true);
    expect(
      shouldRefreshIceServers(
        [{ urls: ['turn:t'], username: 'a', credential: 'old' }],
        [{ urls: ['turn:t'], username: 'a', credential: 'new' }],
        null,
      ),
    ).toBe(true);
    expect(shouldRefreshIceServers([stun], [{ urls: ['stun:other.example.org'] }], null)).toBe(true);
  });

  it('changes nothing when nothing expires and nothing changed', () => {
    expect(shouldRefreshIceServers([stun], [stun], null)).toBe(false);
    // As a browser gives them back: empty strings, a single URL as a string.
    expect(
      shouldRefreshIceServers(
        [{ urls: 'stun:stun.example.org:3478', username: '', credential: '' }, turn(10_000)],
        [stun, turn(10_001)],
        3600,
      ),
    ).toBe(false);
    expect(shouldRefreshIceServers([], [], null)).toBe(false);
  });
});
