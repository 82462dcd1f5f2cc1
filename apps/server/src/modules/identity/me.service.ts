import type {
  ActiveSession,
  ChangePasswordRequest,
  MeResponse,
  UpdateProfileRequest,
} from '@telemedicina/shared/auth';
import { appError } from '../../lib/app-error.js';
import { assertPasswordAcceptable } from '../../lib/password-policy.js';
import { languageOf } from '../../lib/language.js';
import { type ServiceContext, requireActor } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { listLiveSessions } from './sessions.repository.js';
import { endSessions, startSession, type StartedSession } from './sessions.service.js';
import { findUserPermissions, findUserRoles, updateUser } from './users.repository.js';
import { presentMe } from './users.presenter.js';
import { loadActorUser } from './actor.js';

/** The `/me` answer for the signed-in user and the current session. */
export async function getMe(ctx: ServiceContext, session?: StartedSession['session']): Promise<MeResponse> {
  const actor = requireActor(ctx);
  const user = await loadActorUser(ctx);
  const [roles, permissions] = await Promise.all([
    findUserRoles(ctx.db, user.id),
    findUserPermissions(ctx.db, user.id),
  ]);
  return presentMe(
    user,
    roles,
    permissions,
    session ?? {
      idleTimeoutSeconds: actor.session.idleTimeoutSeconds,
      expiresAt: actor.session.expiresAt,
      mfaEnrollmentRequired: actor.mfaEnrollmentRequired,
    },
  );
}

/** Changes name, phone, language or time zone; records which fields changed. */
export async function updateProfile(ctx: ServiceContext, changes: UpdateProfileRequest): Promise<MeResponse> {
  const user = await loadActorUser(ctx);
  const fields = (Object.keys(changes) as (keyof UpdateProfileRequest)[]).filter(
    (field) => changes[field] !== undefined && changes[field] !== user[field],
  );
  if (fields.length > 0) {
    await updateUser(ctx.db, user.id, { ...changes, updatedAt: ctx.now() });
    await ctx.audit({
      action: 'profile.updated',
      targetType: 'user',
      targetId: user.id,
      details: { fields },
    });
  }
  return getMe(ctx);
}

/**
 * Changes the password after checking the current one. Every session of the
 * user ends, this one included, and a new session replaces it (its cookie is
 * set by the route): a stolen session cookie dies with the old password.
 */
export async function changePassword(
  ctx: ServiceContext,
  input: ChangePasswordRequest,
): Promise<StartedSession> {
  const actor = requireActor(ctx);
  const user = await loadActorUser(ctx);
  assertPasswordAcceptable(input.newPassword, { email: user.email, name: user.name });
  if (user.passwordHash === null || !(await ctx.passwords.verify(user.passwordHash, input.currentPassword))) {
    throw appError('PASSWORD_INCORRECT', 'The current password is not correct.');
  }
  await updateUser(ctx.db, user.id, {
    passwordHash: await ctx.passwords.hash(input.newPassword),
    updatedAt: ctx.now(),
  });
  await endSessions(ctx, { userId: user.id }, 'password_changed');
  const started = await startSession(ctx, user.id, actor.roleKeys, {
    mfaEnrollmentRequired: actor.mfaEnrollmentRequired,
  });
  await ctx.audit({ action: 'auth.password_changed', targetType: 'user', targetId: user.id });
  await sendEmail(ctx, user.email, languageOf(user), {
    template: 'password-changed',
    data: { name: user.name, resetLink: appLink(ctx, '/forgot-password') },
  });
  return started;
}

export async function listMySessions(ctx: ServiceContext): Promise<ActiveSession[]> {
  const actor = requireActor(ctx);
  const sessions = await listLiveSessions(ctx.db, actor.userId, ctx.now());
  return sessions.map((session) => ({
    id: session.id,
    createdAt: session.createdAt.toISOString(),
    lastSeenAt: session.lastSeenAt.toISOString(),
    ipAddress: session.ip,
    userAgent: session.userAgent,
    isCurrent: session.id === actor.sessionId,
  }));
}

/**
 * Ends one of the caller's own sessions. Another user's session, or one
 * already ended, is not found (404), never "forbidden". Resolves with whether
 * it was the current one (the route then clears the cookie).
 */
export async function revokeMySession(
  ctx: ServiceContext,
  sessionId: string,
): Promise<{ wasCurrent: boolean }> {
  const actor = requireActor(ctx);
  const isWellFormed = /^[0-9a-f]{64}$/.test(sessionId);
  const ended = isWellFormed
    ? await endSessions(ctx, { ids: [sessionId], userId: actor.userId }, 'revoked')
    : [];
  if (ended.length === 0) {
    throw appError('NOT_FOUND', 'No such session.');
  }
  await ctx.audit({
    action: 'auth.session_revoked',
    targetType: 'session',
    targetId: sessionId.slice(0, 12),
    details: { count: 1 },
  });
  return { wasCurrent: sessionId === actor.sessionId };
}

/** "Sign out other sessions". */
export async function revokeOtherSessions(ctx: ServiceContext): Promise<void> {
  const actor = requireActor(ctx);
  const ended = await endSessions(ctx, { userId: actor.userId, exceptId: actor.sessionId }, 'revoked');
  await ctx.audit({
    action: 'auth.session_revoked',
    targetType: 'user',
    targetId: actor.userId,
    details: { count: ended.length, others: true },
  });
}
