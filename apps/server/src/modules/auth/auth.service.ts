import type {
  AcceptInvitationRequest,
  InvitationInfo,
  LoginRequest,
  MeResponse,
  RegisterRequest,
} from '@telemedicina/shared';
import { z } from 'zod';
import { consents } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { languageOf } from '../../lib/language.js';
import { assertPasswordAcceptable } from '../../lib/password-policy.js';
import { createSecretToken, hashSecretToken } from '../../lib/tokens.js';
import type { ServiceContext } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { linkLifetimeHours } from '../email/templates.js';
import { isMfaRequiredFor, useRecoveryCode, verifyUserTotp } from '../me/mfa.service.js';
import { endSessions, startSession, type StartedSession } from '../sessions/sessions.service.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import {
  findRolesByKeys,
  findUserByEmail,
  findUserById,
  findUserPermissions,
  findUserRoles,
  insertUserIfEmailFree,
  replaceUserRoles,
  updateUser,
  type UserRow,
} from '../users/users.repository.js';
import { presentMe, presentRole } from '../users/users.presenter.js';
import { consumeToken, findUsableToken, insertAuthToken, retireTokens } from './auth-tokens.repository.js';
import { clearLoginFailures, findLoginFailure, recordLoginFailure } from './login-failures.repository.js';

/** Versions of the documents a person accepts at registration (recorded with each consent). */
export const termsVersion = '2026-01';
export const telemedicineConsentVersion = '2026-01';

/** 5 failures for one email within 15 minutes lock it for 15 minutes. */
export const lockoutPolicy = { maxFailures: 5, windowSeconds: 15 * 60, lockSeconds: 15 * 60 } as const;

const hour = 3_600_000;

/** A signed-in answer: the `/me` body plus the session whose token goes into the cookie. */
export interface SignedIn {
  me: MeResponse;
  started: StartedSession;
}

/**
 * Patient self-registration. The answer is the same whether or not the email
 * already has an account: a new account gets a verification email; an
 * existing one gets a note that someone tried to register (or, if it never
 * verified, a fresh verification link). The password is hashed in both cases
 * so the timing matches too.
 */
export async function register(ctx: ServiceContext, input: RegisterRequest): Promise<void> {
  assertPasswordAcceptable(input.password, { email: input.email, name: input.name });
  const passwordHash = await ctx.passwords.hash(input.password);
  const now = ctx.now();
  const created = await ctx.db.db.transaction(async (tx) => {
    const user = await insertUserIfEmailFree(tx, {
      email: input.email,
      name: input.name,
      phone: input.phone,
      dateOfBirth: input.dateOfBirth,
      language: input.language,
      timeZone: input.timeZone,
      passwordHash,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    });
    if (user === null) {
      return null;
    }
    const patientRoles = await findRolesByKeys(tx, ['patient']);
    await replaceUserRoles(
      tx,
      user.id,
      patientRoles.map((role) => role.id),
      now,
    );
    await tx.insert(consents).values([
      { userId: user.id, kind: 'terms', version: termsVersion, acceptedAt: now, ip: ctx.request.ip },
      {
        userId: user.id,
        kind: 'telemedicine',
        version: telemedicineConsentVersion,
        acceptedAt: now,
        ip: ctx.request.ip,
      },
    ]);
    const { token } = await issueAuthToken(
      ctx,
      tx,
      'verify_email',
      { userId: user.id, email: user.email },
      linkLifetimeHours.verifyEmail,
    );
    return { user, token };
  });

  if (created === null) {
    const existing = await findUserByEmail(ctx.db.db, input.email);
    if (existing !== null) {
      await notifyExistingAccount(ctx, existing);
    }
    await ctx.audit({
      action: 'auth.register',
      outcome: 'failure',
      targetType: 'user',
      targetId: existing?.id ?? null,
      details: { reason: 'email_taken' },
    });
    return;
  }
  await sendEmail(ctx, created.user.email, languageOf(created.user), {
    template: 'verify-email',
    data: { name: created.user.name, link: appLink(ctx, '/verify-email', created.token) },
  });
  await ctx.audit({
    action: 'auth.register',
    actorUserId: created.user.id,
    targetType: 'user',
    targetId: created.user.id,
  });
}

async function notifyExistingAccount(ctx: ServiceContext, user: UserRow): Promise<void> {
  if (user.status === 'pending' && user.emailVerifiedAt === null) {
    await sendVerificationEmail(ctx, user);
    return;
  }
  await sendEmail(
    ctx,
    user.email,
    languageOf(user),
    {
      template: 'registration-attempt',
      data: { name: user.name, signInLink: appLink(ctx, '/'), resetLink: appLink(ctx, '/forgot-password') },
    },
    { throttle: true },
  );
}

async function sendVerificationEmail(ctx: ServiceContext, user: UserRow): Promise<void> {
  const { token } = await issueAuthToken(
    ctx,
    ctx.db.db,
    'verify_email',
    { userId: user.id, email: user.email },
    linkLifetimeHours.verifyEmail,
  );
  await sendEmail(
    ctx,
    user.email,
    languageOf(user),
    { template: 'verify-email', data: { name: user.name, link: appLink(ctx, '/verify-email', token) } },
    { throttle: true },
  );
}

/** Creates an emailed single-use token; only its hash is stored. Resolves with the token itself. */
export async function issueAuthToken(
  ctx: ServiceContext,
  db: ServiceContext['db']['db'],
  kind: 'verify_email' | 'reset_password' | 'invitation',
  owner: { userId: string | null; email: string },
  lifetimeHours: number,
  payload: Record<string, unknown> = {},
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = createSecretToken();
  const now = ctx.now();
  const row = await insertAuthToken(db, {
    kind,
    tokenHash: hashSecretToken(token),
    userId: owner.userId,
    email: owner.email,
    payload,
    createdByUserId: ctx.actor?.userId ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetimeHours * hour),
  });
  return { token, id: row.id, expiresAt: row.expiresAt };
}

function invalidToken(): AppError {
  return new AppError(400, 'TOKEN_INVALID', 'This link is not valid any more. Ask for a new one.');
}

/** Confirms the email address with the emailed token; the account becomes active. */
export async function verifyEmail(ctx: ServiceContext, token: string): Promise<void> {
  const now = ctx.now();
  const used = await consumeToken(ctx.db.db, 'verify_email', hashSecretToken(token), now);
  const user = used?.userId ? await findUserById(ctx.db.db, used.userId) : null;
  if (user === null || user.email !== used?.email) {
    throw invalidToken();
  }
  await updateUser(ctx.db.db, user.id, {
    emailVerifiedAt: user.emailVerifiedAt ?? now,
    status: user.status === 'pending' ? 'active' : user.status,
    updatedAt: now,
  });
  await ctx.audit({
    action: 'auth.email_verified',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
  });
}

/** Sends a new verification link when the email belongs to an unverified account; silent otherwise. */
export async function resendVerification(ctx: ServiceContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db.db, email);
  if (user !== null && user.status === 'pending' && user.emailVerifiedAt === null) {
    await sendVerificationEmail(ctx, user);
  }
}

function locked(lockedUntil: Date, now: Date): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return new AppError(423, 'ACCOUNT_LOCKED', 'Too many failed attempts. Try again later.', {
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
  const db = ctx.db.db;
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
    throw new AppError(403, 'ACCOUNT_DISABLED', 'This account is disabled. Contact the clinic.');
  }
  if (user.emailVerifiedAt === null) {
    throw new AppError(
      403,
      'EMAIL_NOT_VERIFIED',
      'Confirm your email address first: use the link we sent you.',
    );
  }
  let secondFactor: 'totp' | 'recovery_code' | null = null;
  if (user.mfaEnabledAt !== null) {
    if (input.totpCode === undefined && input.recoveryCode === undefined) {
      throw new AppError(401, 'MFA_REQUIRED', 'Enter the code from your authenticator app.');
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
  await updateUser(ctx.db.db, user.id, { lastSignInAt: ctx.now() });
  const roles = await findUserRoles(ctx.db.db, user.id);
  const roleKeys = roles.map((role) => role.key);
  const mfaEnrollmentRequired = user.mfaEnabledAt === null && (await isMfaRequiredFor(ctx, roleKeys));
  const started = await startSession(ctx, user.id, roleKeys, { mfaEnrollmentRequired });
  const permissions = await findUserPermissions(ctx.db.db, user.id);
  return { me: presentMe(user, roles, permissions, started.session), started };
}

async function failSignIn(
  ctx: ServiceContext,
  email: string,
  user: UserRow | null,
  reason: 'password' | 'mfa',
): Promise<never> {
  const now = ctx.now();
  const state = await recordLoginFailure(ctx.db.db, email, now, lockoutPolicy);
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
    ? new AppError(401, 'MFA_INVALID', 'The code is not valid.')
    : new AppError(401, 'INVALID_CREDENTIALS', 'The email or the password is not correct.');
}

/** Ends the caller's session (if any) and its sockets. */
export async function logout(ctx: ServiceContext): Promise<void> {
  if (ctx.actor === null) {
    return;
  }
  await endSessions(ctx, { ids: [ctx.actor.sessionId] }, 'logout');
  await ctx.audit({ action: 'auth.logout', targetType: 'user', targetId: ctx.actor.userId });
}

/**
 * Asks for a reset link to be emailed when the email has an account that may
 * sign in. The answer never says which, not even by its timing: the look-up,
 * the token and the email all happen after the answer has gone out, so a
 * registered and an unknown address cost the same to answer (issue 21).
 */
export function requestPasswordReset(ctx: ServiceContext, email: string): void {
  ctx.background.run('password reset', () => sendPasswordReset(ctx, email));
}

/** Emails a reset link when the email has an account that may sign in (audited either way). */
async function sendPasswordReset(ctx: ServiceContext, email: string): Promise<void> {
  const user = await findUserByEmail(ctx.db.db, email);
  if (user === null || user.status === 'disabled') {
    await ctx.audit({
      action: 'auth.password_reset_requested',
      outcome: 'failure',
      details: { email, reason: user === null ? 'unknown_email' : 'disabled' },
    });
    return;
  }
  const { token } = await issueAuthToken(
    ctx,
    ctx.db.db,
    'reset_password',
    { userId: user.id, email: user.email },
    linkLifetimeHours.resetPassword,
  );
  const isSent = await sendEmail(
    ctx,
    user.email,
    languageOf(user),
    { template: 'reset-password', data: { name: user.name, link: appLink(ctx, '/reset-password', token) } },
    { throttle: true },
  );
  await ctx.audit({
    action: 'auth.password_reset_requested',
    actorUserId: null,
    targetType: 'user',
    targetId: user.id,
    details: isSent ? {} : { throttled: true },
  });
}

/**
 * Sets a new password with an emailed reset token. The token is spent only
 * when the new password is acceptable (a refused password can be retried with
 * the same link). Every session of the user ends; a lockout is lifted; the
 * email counts as verified (the link proved it).
 */
export async function resetPassword(ctx: ServiceContext, token: string, password: string): Promise<void> {
  const db = ctx.db.db;
  const tokenHash = hashSecretToken(token);
  const found = await findUsableToken(db, 'reset_password', tokenHash, ctx.now());
  const user = found?.userId ? await findUserById(db, found.userId) : null;
  if (found === null || user === null || user.email !== found.email) {
    throw invalidToken();
  }
  assertPasswordAcceptable(password, { email: user.email, name: user.name });
  const passwordHash = await ctx.passwords.hash(password);
  const now = ctx.now();
  await db.transaction(async (tx) => {
    if ((await consumeToken(tx, 'reset_password', tokenHash, now)) === null) {
      throw invalidToken();
    }
    await updateUser(tx, user.id, {
      passwordHash,
      emailVerifiedAt: user.emailVerifiedAt ?? now,
      status: user.status === 'pending' ? 'active' : user.status,
      updatedAt: now,
    });
    await retireTokens(tx, 'reset_password', { userId: user.id }, now);
  });
  await endSessions(ctx, { userId: user.id }, 'password_reset');
  await clearLoginFailures(db, user.email);
  await ctx.audit({
    action: 'auth.password_reset',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
  });
  await sendEmail(ctx, user.email, languageOf(user), {
    template: 'password-changed',
    data: { name: user.name, resetLink: appLink(ctx, '/forgot-password') },
  });
}

/** What an invitation token carries (written by `inviteUser`). */
export const invitationPayloadSchema = z.object({
  email: z.string(),
  name: z.string(),
  roleKeys: z.array(z.string()),
  language: z.enum(['es', 'en']),
  /**
   * Set when the account already exists: a patient registered by reception (pending, no
   * password), whom accepting completes instead of creating.
   */
  userId: z.string().optional(),
});
export type InvitationPayload = z.infer<typeof invitationPayloadSchema>;

async function loadInvitation(
  ctx: ServiceContext,
  token: string,
): Promise<{ id: string; payload: InvitationPayload; invitedBy: string | null }> {
  const found = await findUsableToken(ctx.db.db, 'invitation', hashSecretToken(token), ctx.now());
  const payload = invitationPayloadSchema.safeParse(found?.payload);
  if (found === null || !payload.success) {
    throw invalidToken();
  }
  return { id: found.id, payload: payload.data, invitedBy: found.createdByUserId };
}

/** Who is invited and with which roles, for the acceptance page. */
export async function getInvitation(ctx: ServiceContext, token: string): Promise<InvitationInfo> {
  const { payload } = await loadInvitation(ctx, token);
  const roles = await findRolesByKeys(ctx.db.db, payload.roleKeys);
  return { email: payload.email, name: payload.name, roles: roles.map(presentRole) };
}

/**
 * Accepts an invitation: creates the account (email verified by the link,
 * roles from the invitation), records acceptance of the terms and signs the
 * new user in.
 */
export async function acceptInvitation(
  ctx: ServiceContext,
  input: AcceptInvitationRequest,
  currentSessionId: string | null,
): Promise<SignedIn> {
  const invitation = await loadInvitation(ctx, input.token);
  // A patient (registered by reception) gives the telemedicine consent a self-registering patient gives.
  const isPatient = invitation.payload.roleKeys.includes('patient');
  if (isPatient && input.acceptTelemedicineConsent !== true) {
    throw new AppError(400, 'VALIDATION_FAILED', 'The request is not valid.', {
      issues: [
        {
          location: 'body',
          path: 'acceptTelemedicineConsent',
          code: 'custom',
          message: 'validation.mustAccept',
        },
      ],
    });
  }
  const name = input.name ?? invitation.payload.name;
  assertPasswordAcceptable(input.password, { email: invitation.payload.email, name });
  const passwordHash = await ctx.passwords.hash(input.password);
  const settings = await loadIdentitySettings(ctx.db.db, ctx.config);
  const now = ctx.now();
  const user = await ctx.db.db.transaction(async (tx) => {
    if ((await consumeToken(tx, 'invitation', hashSecretToken(input.token), now)) === null) {
      throw invalidToken();
    }
    const existingId = invitation.payload.userId;
    if (existingId !== undefined) {
      return completeRegisteredAccount(tx, existingId, invitation.payload.email, {
        name,
        timeZone: input.timeZone,
        passwordHash,
        now,
        ip: ctx.request.ip,
        consentKinds: isPatient ? ['terms', 'telemedicine'] : ['terms'],
      });
    }
    const created = await insertUserIfEmailFree(tx, {
      email: invitation.payload.email,
      name,
      language: invitation.payload.language,
      timeZone: input.timeZone ?? settings.clinicTimeZone,
      passwordHash,
      status: 'active',
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    if (created === null) {
      throw invalidToken();
    }
    const roles = await findRolesByKeys(tx, invitation.payload.roleKeys);
    await replaceUserRoles(
      tx,
      created.id,
      roles.map((role) => role.id),
      now,
    );
    await tx.insert(consents).values({
      userId: created.id,
      kind: 'terms',
      version: termsVersion,
      acceptedAt: now,
      ip: ctx.request.ip,
    });
    if (isPatient) {
      await tx.insert(consents).values({
        userId: created.id,
        kind: 'telemedicine',
        version: telemedicineConsentVersion,
        acceptedAt: now,
        ip: ctx.request.ip,
      });
    }
    return created;
  });
  if (currentSessionId !== null) {
    await endSessions(ctx, { ids: [currentSessionId] }, 'rotated');
  }
  const signedIn = await openSession(ctx, user);
  await ctx.audit({
    action: 'user.invitation_accepted',
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    details: {
      invitationId: invitation.id,
      invitedBy: invitation.invitedBy,
      roleKeys: invitation.payload.roleKeys,
    },
  });
  return signedIn;
}

/**
 * Accepting an invitation for an account reception registered: the account must still be the
 * pending, password-less one of that email; it gets the password, becomes active and verified
 * (the link proved the address), and records the terms accepted on the invitation page.
 */
async function completeRegisteredAccount(
  tx: ServiceContext['db']['db'],
  userId: string,
  email: string,
  changes: {
    name: string;
    timeZone: string | undefined;
    passwordHash: string;
    now: Date;
    ip: string | null;
    consentKinds: readonly ('terms' | 'telemedicine')[];
  },
): Promise<UserRow> {
  const existing = await findUserById(tx, userId);
  if (
    existing === null ||
    existing.email !== email ||
    existing.status !== 'pending' ||
    existing.passwordHash !== null
  ) {
    throw invalidToken();
  }
  const updated = await updateUser(tx, existing.id, {
    name: changes.name,
    timeZone: changes.timeZone ?? existing.timeZone,
    passwordHash: changes.passwordHash,
    status: 'active',
    emailVerifiedAt: changes.now,
    updatedAt: changes.now,
  });
  if (updated === null) {
    throw invalidToken();
  }
  await tx.insert(consents).values(
    changes.consentKinds.map((kind) => ({
      userId: updated.id,
      kind,
      version: kind === 'terms' ? termsVersion : telemedicineConsentVersion,
      acceptedAt: changes.now,
      ip: changes.ip,
    })),
  );
  return updated;
}
