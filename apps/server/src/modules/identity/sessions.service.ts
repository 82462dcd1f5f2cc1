import { isPermission, type Permission } from '@telemedicina/shared/permission-catalogue';
import type { Database } from '../../db/client.js';
import { createSecretToken, hashSecretToken } from '../../lib/tokens.js';
import type { Actor, AppServices, ServiceContext } from '../context.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import {
  findSessionWithGrants,
  insertSession,
  revokeSessions,
  touchSession,
  type SessionRow,
} from './sessions.repository.js';

/** A session's last activity is written at most this often (not once per request). */
export const touchIntervalMs = 15_000;

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** True for a user whose only role is patient (their idle timeout is the longer one). */
export function isPatientOnly(roleKeys: readonly string[]): boolean {
  return roleKeys.length > 0 && roleKeys.every((key) => key === 'patient');
}

export interface StartedSession {
  /** Goes into the cookie; never stored. */
  token: string;
  session: SessionRow;
}

/**
 * Opens a new session (a new random token) for the user: at sign-in,
 * invitation acceptance, password change and privilege change. The idle
 * timeout depends on the roles; the absolute lifetime does not. `db` lets a
 * caller open it inside its own transaction (MFA enrolment ends the old
 * session and opens the new one atomically).
 */
export async function startSession(
  ctx: ServiceContext,
  userId: string,
  roleKeys: readonly string[],
  options: { mfaEnrollmentRequired: boolean; db?: Database },
): Promise<StartedSession> {
  const db = options.db ?? ctx.db;
  const settings = await loadIdentitySettings(db, ctx.config);
  const idleMinutes = isPatientOnly(roleKeys) ? settings.idleMinutesPatient : settings.idleMinutesStaff;
  const now = ctx.now();
  const token = createSecretToken();
  const session = await insertSession(db, {
    id: hashSecretToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    idleTimeoutSeconds: idleMinutes * 60,
    expiresAt: new Date(now.getTime() + ctx.config.sessionAbsoluteHours * 3_600_000),
    ip: ctx.request.ip,
    userAgent: ctx.request.userAgent?.slice(0, 512) ?? null,
    mfaEnrollmentRequired: options.mfaEnrollmentRequired,
  });
  return { token, session };
}

export type SessionResolution =
  | { kind: 'live'; actor: Actor }
  /** The cookie named a session that has ended (revoked, idle, past its lifetime, user disabled). */
  | { kind: 'expired'; sessionId: string }
  /** No such session: a forged, mangled or ancient cookie. */
  | { kind: 'unknown' };

/**
 * Resolves a session cookie into the actor. Ends a session found idle or past
 * its lifetime (and disconnects its sockets); records activity at most every
 * {@link touchIntervalMs}.
 */
export async function resolveSessionToken(
  services: AppServices,
  token: string,
  options: { touch: boolean } = { touch: true },
): Promise<SessionResolution> {
  if (!tokenPattern.test(token)) {
    return { kind: 'unknown' };
  }
  const sessionId = hashSecretToken(token);
  const found = await findSessionWithGrants(services.db, sessionId);
  if (found === null) {
    return { kind: 'unknown' };
  }
  const { session } = found;
  if (session.revokedAt !== null) {
    return { kind: 'expired', sessionId };
  }
  const now = services.now();
  const endReason = sessionEndReason(session, found.userStatus, now);
  if (endReason !== null) {
    await revokeSessions(services.db, { ids: [sessionId] }, endReason, now);
    services.sockets.disconnectSessions([sessionId]);
    return { kind: 'expired', sessionId };
  }
  if (options.touch && now.getTime() - session.lastSeenAt.getTime() >= touchIntervalMs) {
    await touchSession(services.db, sessionId, now);
  }
  return {
    kind: 'live',
    actor: {
      userId: session.userId,
      sessionId,
      permissions: new Set(found.permissions.filter((name): name is Permission => isPermission(name))),
      roleKeys: found.roleKeys,
      mfaEnrollmentRequired: session.mfaEnrollmentRequired,
      session: {
        createdAt: session.createdAt,
        idleTimeoutSeconds: session.idleTimeoutSeconds,
        expiresAt: session.expiresAt,
      },
    },
  };
}

/** Why an open session must end now, or null while it may go on. */
export function sessionEndReason(session: SessionRow, userStatus: string, now: Date): string | null {
  if (userStatus !== 'active') {
    return 'user_inactive';
  }
  if (now.getTime() >= session.expiresAt.getTime()) {
    return 'expired';
  }
  if (now.getTime() - session.lastSeenAt.getTime() >= session.idleTimeoutSeconds * 1000) {
    return 'idle';
  }
  return null;
}

/**
 * Ends sessions (all of a user's, optionally but one; or the given ids) and
 * disconnects their real-time sockets. Resolves with the ended ids.
 */
export async function endSessions(
  services: AppServices,
  where: { ids?: readonly string[]; userId?: string; exceptId?: string },
  reason: string,
): Promise<string[]> {
  const ended = await revokeSessions(services.db, where, reason, services.now());
  services.sockets.disconnectSessions(ended);
  return ended;
}
