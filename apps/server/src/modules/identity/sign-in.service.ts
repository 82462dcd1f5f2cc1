/** Signing in (password, then the second factor when required), opening a session, signing out. */
import type { LoginRequest, MeResponse } from '@telemedicina/shared/auth';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { isMfaRequiredFor, useRecoveryCode, verifyUserTotp } from './mfa.service.js';
import { endSessions, startSession, type StartedSession } from './sessions.service.js';
import {
  findUserByEmail,
  findUserPermissions,
  findUserRoles,
  updateUser,
  type UserRow,
} from './users.repository.js';
import { presentMe } from './users.presenter.js';
import { clearLoginFailures, findLoginFailure, recordLoginFailure } from './login-failures.repository.js';

/** 5 failures for one email within 15 minutes lock it for 15 minutes. */
export const lockoutPolicy = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;

/** A signed-in answer: the `/me` body plus the session whose token goes into the cookie. */
export interface SignedIn {
  me: MeResponse;
  started: StartedSession;
}

function locked(lockedUntil: Date, now: Date): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return appError('ACCOUNT_LOCKED', 'Too many failed attempts. Try again later.', {
    retryAfterSeconds,
  });
}

/**
 * Signs in with email, password and, when the account has one, a second
 * factor (TOTP code or recovery code). Lockout, the dummy hash for unknown
 * emails and identical failure answers keep it from telling which emails are
 * registered. A session cookie already present is replaced (rotation).
 */
export async function login(
  ctx: ServiceContext,
  input: LoginRequest,
  currentSessionId: string | null,
): Promise<SignedIn> {
  const db = ctx.db;
  const now = ctx.now();
  const failure = await findLoginFailure(db, input.email);
  const lockedUntil = failure?.lockedUntil ?? null;
  if (lockedUntil !== null && lockedUntil > now) {
    throw locked(lockedUntil, now);
  }
  const user = await findUserByEmail(db, input.email);
  const passwordHash = user?.passwordHash ?? null;
  const isPasswordRight =
    passwordHash !== null
      ? await ctx.passwords.verify(passwordHash, input.password)
      : await ctx.passwords.verifyDummy(input.password);
  if (user === null || !isPasswordRight) {
    return failSignIn(ctx, input.email, user, 'password');
  }
  if (user.status === 'disabled') {
    await ctx.audit({
      action: 'auth.login_failed',
      outcome: 'failure',
      targetType: 'user',
      targetId: user.id,
      details: { reason: 'disabled' },
    });
    throw appError('ACCOUNT_DISABLED', 'This account is disabled. Contact the clinic.');
  }
  if (user.emailVerifiedAt === null) {
    throw appError('EMAIL_NOT_VERIFIED', 'Confirm your email address first: use the link we sent you.');
  }
  let secondFactor: 'totp' | 'recovery_code' | null = null;
  if (user.mfaEnabledAt !== null) {
    if (input.totpCode === undefined && input.recoveryCode === undefined) {
      throw appError('MFA_REQUIRED', 'Enter the code from your authenticator app.');
    }
    const isAccepted =
      input.totpCode !== undefined
        ? await verifyUserTotp(ctx, user, input.totpCode)
        : await useRecoveryCode(ctx, user.id, input.recoveryCode ?? '');
    if (!isAccepted) {
      return failSignIn(ctx, input.email, user, 'mfa');
    }
    secondFactor = input.totpCode !== undefined ? 'totp' : 'recovery_code';
  }

  await clearLoginFailures(db, input.email);
  if (user.passwordHash !== null && ctx.passwords.needsRehash(user.passwordHash)) {
    await updateUser(db, user.id, { passwordHash: await ctx.passwords.hash(input.password) });
  }
  if (currentSessionId !== null) {
    await endSessions(ctx, { ids: [currentSessionId] }, 'rotated');
  }
  const signedIn = await openSession(ctx, user);
  await ctx.audit({
    action: 'auth.login',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    details: { secondFactor, sessionId: signedIn.started.session.id.slice(0, 12) },
  });
  return signedIn;
}

/** Starts a session for `user` and builds the `/me` answer for it. */
export async function openSession(ctx: ServiceContext, user: UserRow): Promise<SignedIn> {
  // Sign-in and invitation acceptance both come here: the administration's "last sign-in".
  await updateUser(ctx.db, user.id, { lastSignInAt: ctx.now() });
  const roles = await findUserRoles(ctx.db, user.id);
  const roleKeys = roles.map((role) => role.key);
  const mfaEnrollmentRequired = user.mfaEnabledAt === null && (await isMfaRequiredFor(ctx, roleKeys));
  const started = await startSession(ctx, user.id, roleKeys, { mfaEnrollmentRequired });
  const permissions = await findUserPermissions(ctx.db, user.id);
  return { me: presentMe(user, roles, permissions, started.session), started };
}

async function failSignIn(
  ctx: ServiceContext,
  email: string,
  user: UserRow | null,
  reason: 'password' | 'mfa',
): Promise<never> {
  const now = ctx.now();
  const state = await recordLoginFailure(ctx.db, email, now, lockoutPolicy);
  await ctx.audit({
    action: 'auth.login_failed',
    outcome: 'failure',
    targetType: 'user',
    targetId: user?.id ?? null,
    details: { email, reason, failureCount: state.failureCount },
  });
  if (state.lockedUntil !== null && state.lockedUntil > now) {
    await ctx.audit({
      action: 'auth.lockout',
      outcome: 'failure',
      targetType: 'user',
      targetId: user?.id ?? null,
      details: { email, lockedUntil: state.lockedUntil.toISOString() },
    });
    throw locked(state.lockedUntil, now);
  }
  throw reason === 'mfa'
    ? appError('MFA_INVALID', 'The code is not valid.')
    : appError('INVALID_CREDENTIALS', 'The email or the password is not correct.');
}

/** Ends the caller's session (if any) and its sockets. */
export async function logout(ctx: ServiceContext): Promise<void> {
  if (ctx.actor === null) {
    return;
  }
  await endSessions(ctx, { ids: [ctx.actor.sessionId] }, 'logout');
  await ctx.audit({ action: 'auth.logout', targetType: 'user', targetId: ctx.actor.userId });
}
