import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, signIn } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import {
  nextKeyChange,
  planSigningKeys,
  signingKeyPolicy,
  signingOrder,
  type StoredSigningKey,
} from './smart-keys.js';
import { launchSmartApp } from './smart-test-support.js';

const day = 24 * 60 * 60 * 1000;
const start = new Date('2026-01-01T00:00:00Z');
const at = (days: number) => new Date(start.getTime() + days * day);
const key = (kid: string, createdDays: number, activatesDays = createdDays): StoredSigningKey => ({
  jwk: { kid },
  createdAt: at(createdDays).toISOString(),
  activatesAt: at(activatesDays).toISOString(),
});

describe('signing key rotation plan', () => {
  it('makes a new key once the newest is 90 days old, not before', () => {
    expect(planSigningKeys([key('a', 0)], at(89.9)).needsNewKey).toBe(false);
    expect(planSigningKeys([key('a', 0)], at(90)).needsNewKey).toBe(true);
    expect(planSigningKeys([], at(0)).needsNewKey).toBe(true);
    // Once the next key exists (published, not yet signing), no second one.
    expect(planSigningKeys([key('a', 0), key('b', 90, 91)], at(90.5)).needsNewKey).toBe(false);
  });

  it('signs with the newest active key and keeps a published one out of signing until it activates', () => {
    const keys = [key('a', 0), key('b', 90, 91)];
    expect(signingOrder(keys, at(90.5)).map((jwk) => jwk.kid)).toEqual(['a', 'b']);
    expect(signingOrder(keys, at(91)).map((jwk) => jwk.kid)).toEqual(['b', 'a']);
  });

  it('drops a retired key a day after its successor started signing', () => {
    const keys = [key('a', 0), key('b', 90, 91)];
    expect(planSigningKeys(keys, at(91.9)).keep.map((stored) => stored.jwk.kid)).toEqual(['a', 'b']);
    expect(planSigningKeys(keys, at(92)).keep.map((stored) => stored.jwk.kid)).toEqual(['b']);
  });

  it('reads the keys again within the hour, sooner when something is due', () => {
    expect(nextKeyChange([key('a', 0)], at(10)).getTime()).toBe(at(10).getTime() + 60 * 60 * 1000);
    expect(nextKeyChange([key('a', 0), key('b', 90, 91)], at(90.99)).getTime()).toBe(at(91).getTime());
    expect(signingKeyPolicy.publishAheadMs).toBeGreaterThanOrEqual(day);
  });
});

describe('signing key rotation, served', () => {
  let context: TestContext;
  let clock = new Date('2026-11-20T10:00:00Z');
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  beforeAll(async () => {
    context = await createTestContext({ now: () => clock });
  });

  afterAll(async () => {
    await context?.close();
  });

  async function jwksKids(): Promise<string[]> {
    const response = await context.app.inject({ method: 'GET', url: '/oauth/jwks' });
    return response.json<{ keys: { kid: string }[] }>().keys.map((jwk) => jwk.kid);
  }

  /** The key id an ID token issued now is signed with (a fresh patient launch). */
  async function signingKid(): Promise<string> {
    const patient = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const { tokens } = await launchSmartApp(context.app, patient.headers);
    const header = JSON.parse(Buffer.from(tokens.idToken!.split('.')[0]!, 'base64url').toString()) as {
      kid: string;
    };
    return header.kid;
  }

  it('publishes the next key a day ahead, signs with it, then drops the old one', async () => {
    const first = await signingKid();
    expect(await jwksKids()).toEqual([first]);

    later(91 * day);
    const published = await jwksKids();
    expect(published).toHaveLength(2);
    expect(published[0]).toBe(first);
    const next = published[1]!;
    expect(await signingKid()).toBe(first);

    later(day + 60_000);
    expect(await signingKid()).toBe(next);
    expect(await jwksKids()).toEqual([next, first]);

    later(day);
    expect(await jwksKids()).toEqual([next]);
    expect(await signingKid()).toBe(next);
  });
});
