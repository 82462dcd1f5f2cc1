import { randomInt } from 'node:crypto';
import type { MfaEnableResponse, MfaSetupResponse } from '@telemedicina/shared';
import QRCode from 'qrcode';
import { AppError } from '../../lib/app-error.js';
import { createTotpSecret, totpUri, verifyTotp } from '../../lib/totp.js';
import type { AppServices, ServiceContext } from '../context.js';
import { endSessions } from '../sessions/sessions.service.js';
import { listLiveSessions, updateSessionFlags } from '../sessions/sessions.repository.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { findUserRoles, updateUser, type UserRow } from '../users/users.repository.js';
import {
  advanceTotpStep,
  consumeRecoveryCode,
  deleteRecoveryCodes,
  replaceRecoveryCodes,
} from './mfa.repository.js';
import { loadActorUser, requireActor } from './actor.js';

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
  return step !== null && (await advanceTotpStep(services.db.db, user.id, step));
}

/** Uses one of the user's recovery codes; false when unknown or already used. */
export function useRecoveryCode(services: AppServices, userId: string, code: string): Promise<boolean> {
  return consumeRecoveryCode(services.db.db, userId, hashRecoveryCode(services, code), services.now());
}

/** Whether the user's roles require a second factor under the current setting. */
export async function isMfaRequiredFor(
  ctx: Pick<AppServices, 'db' | 'config'>,
  roleKeys: readonly string[],
): Promise<boolean> {
  const settings = await loadIdentitySettings(ctx.db.db, ctx.config);
  return roleKeys.some((key) => settings.mfaRequiredRoles.includes(key));
}

/**
 * Starts enrolment: a new secret, kept encrypted as pending until a code
 * from it is confirmed. Refused while a second factor is already on.
 */
export async function setUpMfa(ctx: ServiceContext): Promise<MfaSetupResponse> {
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt !== null) {
    throw new AppError(
      409,
      'CONFLICT',
      'The second factor is already enabled; disable it first to change it.',
    );
  }
  const secret = createTotpSecret();
  await updateUser(ctx.db.db, user.id, {
    mfaPendingSecretEncrypted: ctx.secrets.encrypt(secret),
    updatedAt: ctx.now(),
  });
  const { clinicName } = await loadIdentitySettings(ctx.db.db, ctx.config);
  const otpauthUrl = totpUri(secret, clinicName, user.email);
  const qrCodeDataUrl = await QRCode.toDataURL(otpauthUrl, {
    errorCorrectionLevel: 'M',
    margin: 1,
    width: 240,
  });
  return { otpauthUrl, qrCodeDataUrl, secret };
}

/**
 * Confirms enrolment with a code from the pending secret: the second factor
 * is on, recovery codes are issued (shown once), this session may use the
 * whole app again, and other sessions still waiting to enrol are ended.
 */
export async function enableMfa(ctx: ServiceContext, code: string): Promise<MfaEnableResponse> {
  const actor = requireActor(ctx);
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt !== null) {
    throw new AppError(409, 'CONFLICT', 'The second factor is already enabled.');
  }
  if (user.mfaPendingSecretEncrypted === null) {
    throw new AppError(409, 'CONFLICT', 'Start the set-up first.');
  }
  const secret = ctx.secrets.decrypt(user.mfaPendingSecretEncrypted);
  const step = await verifyTotp(secret, code, ctx.now(), null);
  if (step === null) {
    throw new AppError(
      400,
      'MFA_INVALID',
      'The code is not valid. Check the time on your device and try again.',
    );
  }
  const codes = createRecoveryCodes();
  const now = ctx.now();
  await ctx.db.db.transaction(async (tx) => {
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
    await updateSessionFlags(tx, { id: actor.sessionId }, { mfaEnrollmentRequired: false });
  });
  await endOtherEnrollmentSessions(ctx, user.id, actor.sessionId);
  await ctx.audit({ action: 'auth.mfa_enabled', targetType: 'user', targetId: user.id });
  return { recoveryCodes: codes };
}

async function endOtherEnrollmentSessions(
  ctx: ServiceContext,
  userId: string,
  currentSessionId: string,
): Promise<void> {
  const waiting = (await listLiveSessions(ctx.db.db, userId, ctx.now()))
    .filter((session) => session.mfaEnrollmentRequired && session.id !== currentSessionId)
    .map((session) => session.id);
  await endSessions(ctx, { ids: waiting }, 'mfa_enrolled_elsewhere');
}

/** Turns the second factor off (password and a current code), unless a role requires it. */
export async function disableMfa(
  ctx: ServiceContext,
  input: { password: string; code: string },
): Promise<void> {
  const user = await loadActorUser(ctx);
  if (user.mfaEnabledAt === null) {
    throw new AppError(409, 'CONFLICT', 'The second factor is not enabled.');
  }
  const roles = await findUserRoles(ctx.db.db, user.id);
  if (
    await isMfaRequiredFor(
      ctx,
      roles.map((role) => role.key),
    )
  ) {
    throw new AppError(
      409,
      'MFA_REQUIRED_BY_POLICY',
      'Your role requires a second factor; it cannot be turned off.',
    );
  }
  if (user.passwordHash === null || !(await ctx.passwords.verify(user.passwordHash, input.password))) {
    throw new AppError(400, 'PASSWORD_INCORRECT', 'The password is not correct.');
  }
  if (!(await verifyUserTotp(ctx, user, input.code))) {
    throw new AppError(400, 'MFA_INVALID', 'The code is not valid.');
  }
  const now = ctx.now();
  await ctx.db.db.transaction(async (tx) => {
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
    throw new AppError(409, 'CONFLICT', 'The second factor is not enabled.');
  }
  if (!(await verifyUserTotp(ctx, user, code))) {
    throw new AppError(400, 'MFA_INVALID', 'The code is not valid.');
  }
  const codes = createRecoveryCodes();
  await replaceRecoveryCodes(
    ctx.db.db,
    user.id,
    codes.map((value) => hashRecoveryCode(ctx, value)),
    ctx.now(),
  );
  await ctx.audit({ action: 'auth.mfa_recovery_codes_regenerated', targetType: 'user', targetId: user.id });
  return { recoveryCodes: codes };
}
