import { createHmac } from 'node:crypto';
import type { TurnConfig } from '../../config/config.js';
import { isVisitParticipant, type VisitCapacity } from './visits.policy.js';

/** One TURN entry of a participant's `iceServers`, and when its credentials stop being accepted. */
export interface IssuedTurnServer {
  server: { urls: string[]; username: string; credential: string };
  expiresAt: Date;
  /** Whole seconds from `now` to `expiresAt` (at least the TTL). */
  ttlSeconds: number;
}

/**
 * The TURN REST API password of a username (draft-uberti-behave-turn-rest, coturn's
 * `use-auth-secret`): base64(HMAC-SHA1(secret, username)). coturn computes the same from its
 * `static-auth-secret`, so the server never shares the secret nor stores a password.
 */
export function turnPassword(secret: string, username: string): string {
  return createHmac('sha1', secret).update(username).digest('base64');
}

/**
 * A participant key (`user:<id>`, `guest:<id>`) as the name part of a TURN username: coturn reads
 * the expiry up to the first colon, so the key's own colon becomes a dash (`user-<id>`).
 */
export function turnUserOf(participantKey: string): string {
  return participantKey.replace(/:/g, '-');
}

/**
 * Short-lived TURN credentials for one participant of a visit: username
 * `<unix expiry>:<participant>` (expiry = now + TTL, whole seconds, rounded up), credential
 * {@link turnPassword}. Null when there is no relay configured or when the caller does not take
 * part in the visit (staff looking at it, or anyone else): only the doctor, the patient and a guest
 * of this visit get relay credentials. coturn refuses the credentials for new allocations once the
 * expiry has passed; a relay already allocated keeps working (coturn keeps the session's key).
 */
export function issueTurnServer(
  turn: TurnConfig | null | undefined,
  participant: { key: string; capacity: VisitCapacity | null },
  now: Date,
): IssuedTurnServer | null {
  if (!turn || !isVisitParticipant(participant.capacity)) {
    return null;
  }
  const expirySeconds = Math.ceil(now.getTime() / 1000) + turn.ttlSeconds;
  const username = `${expirySeconds}:${turnUserOf(participant.key)}`;
  return {
    server: { urls: [...turn.urls], username, credential: turnPassword(turn.secret, username) },
    expiresAt: new Date(expirySeconds * 1000),
    ttlSeconds: Math.floor(expirySeconds - now.getTime() / 1000),
  };
}
