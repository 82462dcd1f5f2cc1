/*
 * The authorization server's signing keys and their rotation. A new key is made when the newest is
 * `rotateAfterMs` old; it is published in the JWKS `publishAheadMs` before it signs anything (apps
 * and other instances that cached the JWKS see it first), then signs, while the key it replaces
 * stays published `keepRetiredMs` longer so tokens it signed still verify. Every instance reads the
 * keys again at least hourly (`refreshAt`) and an update only lands on the set it read, so two
 * instances never rotate twice.
 */
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { AppServices } from '../context.js';
import { findSigningKeys, insertSigningKeysIfAbsent, replaceSigningKeys } from './smart.repository.js';

const hour = 60 * 60 * 1000;
const day = 24 * hour;

export interface SigningKeyPolicy {
  rotateAfterMs: number;
  publishAheadMs: number;
  keepRetiredMs: number;
}

/** Every 90 days; a day's notice in the JWKS; a day's grace for tokens the old key signed (they last an hour). */
export const signingKeyPolicy: SigningKeyPolicy = {
  rotateAfterMs: 90 * day,
  publishAheadMs: day,
  keepRetiredMs: day,
};

export interface StoredSigningKey {
  jwk: JWK;
  createdAt: string;
  /** When it starts signing (until then it is only published). */
  activatesAt: string;
}

interface StoredKeySet {
  version: 2;
  keys: StoredSigningKey[];
}

/** Reads the stored set; the first format was a bare JWK array, made when the row was stored. */
export function parseStoredKeys(json: unknown, storedAt: Date): StoredSigningKey[] {
  if (Array.isArray(json)) {
    const at = storedAt.toISOString();
    return (json as JWK[]).map((jwk) => ({ jwk, createdAt: at, activatesAt: at }));
  }
  return (json as StoredKeySet).keys;
}

export interface SigningKeyPlan {
  /** The keys to keep, plus whether a new one must be made (activating `publishAheadMs` from now). */
  keep: StoredSigningKey[];
  needsNewKey: boolean;
}

const time = (iso: string): number => new Date(iso).getTime();

/** What the stored keys should become at `now`: which to keep, and whether a new one is due. */
export function planSigningKeys(
  keys: readonly StoredSigningKey[],
  now: Date,
  policy: SigningKeyPolicy = signingKeyPolicy,
): SigningKeyPlan {
  const at = now.getTime();
  const byActivation = [...keys].sort((a, b) => time(a.activatesAt) - time(b.activatesAt));
  const keep = byActivation.filter((key, index) => {
    const successor = byActivation.slice(index + 1).find((next) => time(next.activatesAt) <= at);
    // Retired once a later key signs; dropped once that has been so for the grace period.
    return successor === undefined || at - time(successor.activatesAt) < policy.keepRetiredMs;
  });
  const newest = Math.max(...keys.map((key) => time(key.createdAt)));
  return { keep, needsNewKey: keys.length === 0 || at - newest >= policy.rotateAfterMs };
}

/** The JWKS for oidc-provider, the signing key first (it signs with the first that fits). */
export function signingOrder(keys: readonly StoredSigningKey[], now: Date): JWK[] {
  const at = now.getTime();
  const active = keys
    .filter((key) => time(key.activatesAt) <= at)
    .sort((a, b) => time(b.activatesAt) - time(a.activatesAt))[0];
  return [
    ...(active === undefined ? [] : [active.jwk]),
    ...keys.filter((key) => key !== active).map((key) => key.jwk),
  ];
}

/** When the set next changes by itself (a key activates, one is due, one drops), at most an hour away. */
export function nextKeyChange(
  keys: readonly StoredSigningKey[],
  now: Date,
  policy: SigningKeyPolicy = signingKeyPolicy,
): Date {
  const at = now.getTime();
  const newest = Math.max(...keys.map((key) => time(key.createdAt)));
  const moments = [
    at + hour,
    newest + policy.rotateAfterMs,
    ...keys.map((key) => time(key.activatesAt)),
    ...keys.map((key) => time(key.activatesAt) + policy.keepRetiredMs),
  ].filter((moment) => moment > at);
  return new Date(Math.min(...moments));
}

async function newKey(services: AppServices, activatesAt: Date): Promise<StoredSigningKey> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = services.secrets.keyedHash(`${jwk.n ?? ''}`).slice(0, 16);
  return {
    jwk: { ...jwk, kid, alg: 'RS256', use: 'sig' },
    createdAt: services.now().toISOString(),
    activatesAt: activatesAt.toISOString(),
  };
}

const seal = (services: AppServices, keys: StoredSigningKey[]): string =>
  services.secrets.encrypt(JSON.stringify({ version: 2, keys } satisfies StoredKeySet));

/**
 * The keys to serve now, rotated when due, and when to read them again. The first key ever made
 * signs at once; later ones are published a day ahead.
 */
export async function loadSigningKeys(
  services: AppServices,
  id: string,
  policy: SigningKeyPolicy = signingKeyPolicy,
): Promise<{ jwks: JWK[]; refreshAt: Date }> {
  const now = services.now();
  if ((await findSigningKeys(services.db, id)) === null) {
    await insertSigningKeysIfAbsent(services.db, id, seal(services, [await newKey(services, now)]), now);
  }
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const stored = await findSigningKeys(services.db, id);
    if (stored === null) {
      throw new Error('SMART signing keys could not be stored');
    }
    const keys = parseStoredKeys(JSON.parse(services.secrets.decrypt(stored.sealed)), stored.createdAt);
    const plan = planSigningKeys(keys, now, policy);
    const next = plan.needsNewKey
      ? [...plan.keep, await newKey(services, new Date(now.getTime() + policy.publishAheadMs))]
      : plan.keep;
    if (next.length === keys.length && !plan.needsNewKey) {
      return { jwks: signingOrder(keys, now), refreshAt: nextKeyChange(keys, now, policy) };
    }
    // Lands only on the set read above; if another instance changed it meanwhile, read again.
    if (await replaceSigningKeys(services.db, id, stored.sealed, seal(services, next))) {
      return { jwks: signingOrder(next, now), refreshAt: nextKeyChange(next, now, policy) };
    }
  }
  throw new Error('SMART signing keys kept changing while being rotated');
}
