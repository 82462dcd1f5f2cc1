import { randomInt } from 'node:crypto';
import type { MfaEnableResponse, MfaSetupResponse } from '@telemedicina/shared/auth';
import QRCode from 'qrcode';
import { AppError, appError } from '../../lib/app-error.js';
import { createTotpSecret, totpUri, verifyTotp } from '../../lib/totp.js';
import { type AppServices, type ServiceContext, requireActor } from '../context.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { startSession, type StartedSession } from './sessions.service.js';
import { listLiveSessions, revokeSessions } from './sessions.repository.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { findUserRoles, updateUser, type UserRow } from './users.repository.js';
import {
  advanceTotpStep,
  consumeRecoveryCode,
  deleteRecoveryCodes,
  replaceRecoveryCodes,
} from './mfa.repository.js';
import { loadActorUser } from './actor.js';

/**
 * A wrong code from someone already signed in (set-up, turning off, new recovery codes) is a 400,
 * not the table's 401 for MFA_INVALID at sign-in: a 401 would tell the client the session is gone.
 */
function wrongCodeWhileSignedIn(message: string): AppError {
  return new AppError(400, 'MFA_INVALID', message);
}

export const recoveryCodeCount = 10;
/** Letters and digits without look-alikes (0/o, 1/l/i). */
const recoveryAlphabet = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten fresh codes shaped `xxxxx-xxxxx`. */
export function createRecoveryCodes(): string[] {
  const half = (): string =>
    Array.from({ length: 5 }, () => recoveryAlphabet[randomInt(recoveryAlphabet.length)]).join('');
  return Array.from({ length: recoveryCodeCount }, () => `${half()}-${half()}`);
}

/** Case and the hyphen do not matter when a code is typed back. */
export function normalizeRecoveryCode(code: string): string {
  return code.trim().toLowerCase().replaceAll('-', '');
}

function hashRecoveryCode(services: Pick<AppServices, 'secrets'>, code: string): string {
  return services.secrets.keyedHash(normalizeRecoveryCode(code));
}

/**
 * Checks a TOTP code against the user's enabled secret and remembers its
 * time step, so the same code cannot be used twice.
 */
export async function verifyUserTotp(services: AppServices, user: UserRow, code: string): Promise<boolean> {
  if (user.mfaSecretEncrypted === null) {
    return false;
  }
  const secret = services.secrets.decrypt(user.mfaSecretEncrypted);
  const step = await verifyTotp(secret, code, services.now(), user.mfaLastTimeStep);
  return step !== null && (await advanceTotpStep(services.db, user.id, step));
}

/** Uses one of the user's recovery codes; false when unknown or already used. */
export function useRecoveryCode(services: AppServices, userId: string, code: string): Promise<boolean> {
  return consumeRecoveryCode(services.db, userId, hashRecoveryCode(services, code), services.now());
}

/** Whether the user's roles require a second factor under the current setting. */
export async function isMfaRequiredFor(
  ctx: Pick<AppServices, 'db' | 'config'>,
  roleKeys: readonly string[],
): Promise<boolean> {
  const settings = await loadIdentitySettings(ctx.db, ctx.config);
  return roleKeys.some((key) => settings.mfaRequiredRoles.includes(key));
}

/**
 * Starts enrolment: a new secret, kept encrypted as pending until a code
 * from it is confirmed. Refused while a second factor is already on.
 */
export async function setUpMfa(ctx: ServiceContext): Promise<MfaSetupResponse> {
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt !== null) {
    throw appError('CONFLICT', 'The second factor is already enabled; disable it first to change it.');
  }
  const secret = createTotpSecret();
  await updateUser(ctx.db, user.id, {
    mfaPendingSecretEncrypted: ctx.secrets.encrypt(secret),
    updatedAt: ctx.now(),
  });
  const { clinicName } = await loadIdentitySettings(ctx.db, ctx.config);
  const otpauthUrl = totpUri(secret, clinicName, user.email);
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, {
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 240,
  });
  return { otpauthUrl, qrCodeDataUrl, secret };
}

/** A confirmed enrolment: the recovery codes (shown once) and the session that replaces the caller's. */
export interface MfaEnabled {
  recoveryCodes: string[];
  started: StartedSession;
}

/**
 * Confirms enrolment with a code from the pending secret: the second factor
 * is on and recovery codes are issued (shown once). This is a privilege
 * change, so the caller's session is rotated as at sign-in: it ends
 * (`rotated`) and a new one without the enrolment restriction is opened for
 * the route to put in the cookie. Other sessions still waiting to enrol end
 * too (they never passed a second factor).
 *
 * Everything that is stored — the factor, the codes, the ended and the new
 * sessions, the audit event — is written in one transaction: a failure
 * leaves the old session usable and nothing enabled, so the user can retry;
 * after the commit only in-memory socket disconnection runs before the
 * cookie is set. A session ended meanwhile (logout in another tab, a
 * concurrent enable) answers 401 SESSION_EXPIRED and changes nothing.
 */
export async function enableMfa(ctx: ServiceContext, code: string): Promise<MfaEnabled> {
  const actor = requireActor(ctx);
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt !== null) {
    throw appError('CONFLICT', 'The second factor is already enabled.');
  }
  if (user.mfaPendingSecretEncrypted === null) {
    throw appError('CONFLICT', 'Start the set-up first.');
  }
  const secret = ctx.secrets.decrypt(user.mfaPendingSecretEncrypted);
  const step = await verifyTotp(secret, code, ctx.now(), null);
  if (step === null) {
    throw wrongCodeWhileSignedIn('The code is not valid. Check the time on your device and try again.');
  }
  const codes = createRecoveryCodes();
  const now = ctx.now();
  const rotated = await ctx.db.transaction(async (tx) => {
    // First, so a concurrent request on the same session waits here and then finds it ended.
    const ended = await revokeSessions(tx, { ids: [actor.sessionId] }, 'rotated', now);
    if (ended.length === 0) {
      throw appError('SESSION_EXPIRED', 'Your session has ended. Sign in again.');
    }
    await updateUser(tx, user.id, {
      mfaSecretEncrypted: user.mfaPendingSecretEncrypted,
      mfaPendingSecretEncrypted: null,
      mfaEnabledAt: now,
      mfaLastTimeStep: step,
      updatedAt: now,
    });
    await replaceRecoveryCodes(
      tx,
      user.id,
      codes.map((value) => hashRecoveryCode(ctx, value)),
      now,
    );
    const waiting = (await listLiveSessions(tx, user.id, now))
      .filter((session) => session.mfaEnrollmentRequired)
      .map((session) => session.id);
    const endedWaiting = await revokeSessions(tx, { ids: waiting }, 'mfa_enrolled_elsewhere', now);
    const started = await startSession(ctx, user.id, actor.roleKeys, {
      mfaEnrollmentRequired: false,
      db: tx,
    });
    await recordAuditEvent(
      tx,
      { now: ctx.now, actorUserId: actor.userId, request: ctx.request },
      {
        action: 'auth.mfa_enabled',
        targetType: 'user',
        targetId: user.id,
        details: { sessionId: started.session.id.slice(0, 12) },
      },
    );
    return { started, endedIds: [...ended, ...endedWaiting] };
  });
  ctx.sockets.disconnectSessions(rotated.endedIds);
  return { recoveryCodes: codes, started: rotated.started };
}

/** Turns the second factor off (password and a current code), unless a role requires it. */
export async function disableMfa(
  ctx: ServiceContext,
  input: { password: string; code: string },
): Promise<void> {
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt === null) {
    throw appError('CONFLICT', 'The second factor is not enabled.');
  }
  const roles = await findUserRoles(ctx.db, user.id);
  if (
    await isMfaRequiredFor(
      ctx,
      roles.map((role) => role.key),
    )
  ) {
    throw appError('MFA_REQUIRED_BY_POLICY', 'Your role requires a second factor; it cannot be turned off.');
  }
  if (user.passwordHash === null || !(await ctx.passwords.verify(user.passwordHash, input.password))) {
    throw appError('PASSWORD_INCORRECT', 'The password is not correct.');
  }
  if (!(await verifyUserTotp(ctx, user, input.code))) {
    throw wrongCodeWhileSignedIn('The code is not valid.');
  }
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    await updateUser(tx, user.id, {
      mfaSecretEncrypted: null,
      mfaPendingSecretEncrypted: null,
      mfaEnabledAt: null,
      mfaLastTimeStep: null,
      updatedAt: now,
    });
    await deleteRecoveryCodes(tx, user.id);
  });
  await ctx.audit({ action: 'auth.mfa_disabled', targetType: 'user', targetId: user.id });
}

/** A new set of recovery codes (the old ones stop working), confirmed with a current code. */
export async function regenerateRecoveryCodes(ctx: ServiceContext, code: string): Promise<MfaEnableResponse> {
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt === null) {
    throw appError('CONFLICT', 'The second factor is not enabled.');
  }
  if (!(await verifyUserTotp(ctx, user, code))) {
    throw wrongCodeWhileSignedIn('The code is not valid.');
  }
  const codes = createRecoveryCodes();
  await replaceRecoveryCodes(
    ctx.db,
    user.id,
    codes.map((value) => hashRecoveryCode(ctx, value)),
    ctx.now(),
  );
  await ctx.audit({ action: 'auth.mfa_recovery_codes_regenerated', targetType: 'user', targetId: user.id });
  return { recoveryCodes: codes };
}
