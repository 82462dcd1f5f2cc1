import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TurnConfig } from '../../config/config.js';
import { issueTurnServer, turnPassword, turnUserOf } from './turn-credentials.js';

const turn: TurnConfig = {
  secret: 'north-clinic-turn-secret',
  urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'],
  ttlSeconds: 3600,
};
const patientKey = 'user:0b8f3c1e-5a4d-4c2b-9e7f-123456789abc';
const now = new Date('2026-01-01T00:00:00.000Z');

describe('TURN credentials (TURN REST API, coturn use-auth-secret)', () => {
  it('computes the password as base64(HMAC-SHA1(secret, username)): a known answer', () => {
    // RFC 2202-style vector, the well-known HMAC-SHA1 of "key" over the quick brown fox.
    expect(turnPassword('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      Buffer.from('de7c9b85b8b78aa6bc8a7a36f70a90701c9db4d9', 'hex').toString('base64'),
    );
    expect(turnPassword('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      '3nybhbi3iqa8ino29wqQcBydtNk=',
    );
    const username = '1767229200:user-0b8f3c1e-5a4d-4c2b-9e7f-123456789abc';
    const byHand = createHmac('sha1', turn.secret).update(username).digest('base64');
    expect(turnPassword(turn.secret, username)).toBe(byHand);
  });

  it('issues `<unix expiry>:<participant>` expiring TTL seconds from now, with its password', () => {
    const issued = issueTurnServer(turn, { key: patientKey, capacity: 'patient' }, now);
    expect(issued).not.toBeNull();
    const expiry = now.getTime() / 1000 + 3600;
    expect(issued!.server).toEqual({
      urls: turn.urls,
      username: `${expiry}:user-0b8f3c1e-5a4d-4c2b-9e7f-123456789abc`,
      credential: '3Ynsv8h+d2QYaFzulwzRuXqXCek=',
    });
    expect(issued!.expiresAt.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(issued!.ttlSeconds).toBe(3600);
    expect(issued!.server.credential).toBe(
      createHmac('sha1', turn.secret).update(issued!.server.username).digest('base64'),
    );
  });

  it('rounds a fractional now up, so credentials never expire before now + TTL', () => {
    const issued = issueTurnServer(
      { ...turn, ttlSeconds: 5 },
      { key: patientKey, capacity: 'patient' },
      new Date(now.getTime() + 400),
    );
    expect(issued!.expiresAt.getTime()).toBe(now.getTime() + 6_000);
    expect(issued!.ttlSeconds).toBe(5);
    expect(issued!.server.username.split(':')[0]).toBe(String(now.getTime() / 1000 + 6));
  });

  it('gives each participant their own username and password', () => {
    const doctor = issueTurnServer(turn, { key: 'user:doctor-id', capacity: 'doctor' }, now)!;
    const patient = issueTurnServer(turn, { key: patientKey, capacity: 'patient' }, now)!;
    const guest = issueTurnServer(turn, { key: 'guest:guest-id', capacity: 'guest' }, now)!;
    expect(doctor.server.username).toMatch(/^\d+:user-doctor-id$/);
    expect(guest.server.username).toMatch(/^\d+:guest-guest-id$/);
    const usernames = new Set([doctor, patient, guest].map((issued) => issued.server.username));
    const passwords = new Set([doctor, patient, guest].map((issued) => issued.server.credential));
    expect(usernames.size).toBe(3);
    expect(passwords.size).toBe(3);
    // The participant key's colon would end coturn's timestamp early: only the expiry precedes the first colon.
    expect(turnUserOf('guest:abc')).toBe('guest-abc');
  });

  it('issues nothing to anyone outside the visit, nor to staff who only look at it', () => {
    expect(issueTurnServer(turn, { key: 'user:staff-id', capacity: 'staff' }, now)).toBeNull();
    expect(issueTurnServer(turn, { key: 'user:stranger', capacity: null }, now)).toBeNull();
  });

  it('issues nothing without a relay configured', () => {
    expect(issueTurnServer(null, { key: patientKey, capacity: 'patient' }, now)).toBeNull();
    expect(issueTurnServer(undefined, { key: patientKey, capacity: 'doctor' }, now)).toBeNull();
  });
});
