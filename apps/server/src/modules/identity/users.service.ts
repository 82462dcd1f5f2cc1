import type { AdminUpdateUserRequest } from '@telemedicina/shared/admin';
import type { CreateInvitationRequest } from '@telemedicina/shared/auth';
import { appError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import type { InvitationPayload } from './invitations.service.js';
import { issueAuthToken } from './auth-tokens.service.js';
import { retireTokens } from './auth-tokens.repository.js';
import { clearLoginFailures } from './login-failures.repository.js';
import { type ServiceContext, requireActor } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { linkLifetimeHours } from '../email/templates.js';
import { endSessions, startSession, type StartedSession } from './sessions.service.js';
import { isMfaRequiredFor } from './mfa.service.js';
import { deleteRecoveryCodes } from './mfa.repository.js';
import { findAdminUserExtras, type AdminUserExtras } from './users-list.repository.js';
import { assertCanGrantRoles } from './roles.policy.js';
import { assertNotSelf } from './users.policy.js';
import {
  countOtherActiveUsersWithRole,
  findRolesByKeys,
  findUserByEmail,
  findUserById,
  findPermissionsOfRoles,
  findUserRoles,
  lockRoleAssignments,
  replaceUserRoles,
  updateUser,
  type RoleRow,
  type UserRow,
} from './users.repository.js';

async function findUserOr404(ctx: ServiceContext, userId: string): Promise<UserRow> {
  const user = isUuid(userId) ? await findUserById(ctx.db, userId) : null;
  if (user === null) {
    throw appError('NOT_FOUND', 'No such user.');
  }
  return user;
}

/** Resolves role keys to roles; unknown keys are a validation error on `roleKeys`. */
async function resolveRoles(ctx: ServiceContext, roleKeys: readonly string[]): Promise<RoleRow[]> {
  const unique = [...new Set(roleKeys)];
  const roles = await findRolesByKeys(ctx.db, unique);
  const unknown = unique.filter((key) => !roles.some((role) => role.key === key));
  if (unknown.length > 0) {
    throw appError('VALIDATION_FAILED', 'Unknown roles.', {
      issues: [
        {
          location: 'body',
          path: 'roleKeys',
          code: 'unknown_role',
          message: `Unknown roles: ${unknown.join(', ')}`,
        },
      ],
    });
  }
  return roles;
}

/**
 * Invites a doctor, staff member or admin by email. An email that already
 * has an account is refused (409); a newer invitation replaces older unused
 * ones for the same email.
 */
export async function inviteUser(
  ctx: ServiceContext,
  input: CreateInvitationRequest,
): Promise<{ id: string; expiresAt: Date }> {
  const actorId = requireActor(ctx).userId;
  const roles = await resolveRoles(ctx, input.roleKeys);
  assertCanGrantRoles(ctx.actor, {
    roleKeys: roles.map((role) => role.key),
    permissions: await findPermissionsOfRoles(
      ctx.db,
      roles.map((role) => role.id),
    ),
  });
  if ((await findUserByEmail(ctx.db, input.email)) !== null) {
    throw appError('CONFLICT', 'This email already has an account.');
  }
  const inviter = await findUserById(ctx.db, actorId);
  const now = ctx.now();
  const payload: InvitationPayload = {
    email: input.email,
    name: input.name,
    roleKeys: roles.map((role) => role.key),
    language: input.language,
  };
  const { token, id, expiresAt } = await ctx.db.transaction(async (tx) => {
    await retireTokens(tx, 'invitation', { email: input.email }, now);
    return issueAuthToken(
      ctx,
      tx,
      'invitation',
      { userId: null, email: input.email },
      linkLifetimeHours.invitation,
      payload,
    );
  });
  await sendEmail(ctx, input.email, input.language, {
    template: 'invitation',
    data: {
      name: input.name,
      link: appLink(ctx, '/accept-invitation', token),
      inviterName: inviter?.name ?? 'Telemedicina',
      roleNames: roles.map((role) => (input.language === 'es' ? role.nameEs : role.nameEn)),
    },
  });
  await ctx.audit({
    action: 'user.invited',
    targetType: 'invitation',
    targetId: id,
    details: { email: input.email, roleKeys: payload.roleKeys },
  });
  return { id, expiresAt };
}

/** Lifts a sign-in lockout before it runs out. */
export async function unlockUser(ctx: ServiceContext, userId: string): Promise<void> {
  const user = await findUserOr404(ctx, userId);
  await clearLoginFailures(ctx.db, user.email);
  await ctx.audit({ action: 'user.unlocked', targetType: 'user', targetId: user.id });
}

/**
 * Replaces a user's roles. Refuses to leave the clinic without an active
 * administrator (409 LAST_ADMIN; serialised so two admins cannot demote each
 * other at once) and admins removing their own admin role (409
 * CANNOT_CHANGE_SELF: another admin has to do it). A privilege change ends the user's sessions; when admins
 * change their own roles, their current session is replaced by a new one.
 */
export async function setUserRoles(
  ctx: ServiceContext,
  userId: string,
  roleKeys: readonly string[],
): Promise<{ replacement: StartedSession | null }> {
  const actorId = requireActor(ctx).userId;
  const user = await findUserOr404(ctx, userId);
  const roles = await resolveRoles(ctx, roleKeys);
  const now = ctx.now();
  const before = await ctx.db.transaction(async (tx) => {
    await lockRoleAssignments(tx);
    const current = await findUserRoles(tx, user.id);
    const added = roles.filter((role) => !current.some((held) => held.id === role.id));
    assertCanGrantRoles(ctx.actor, {
      roleKeys: added.map((role) => role.key),
      permissions: await findPermissionsOfRoles(
        tx,
        added.map((role) => role.id),
      ),
    });
    const isLosingAdmin =
      current.some((role) => role.key === 'admin') && !roles.some((role) => role.key === 'admin');
    if (isLosingAdmin) {
      assertNotSelf(actorId, user.id, 'You cannot remove your own administrator role.');
    }
    if (
      isLosingAdmin &&
      user.status === 'active' &&
      (await countOtherActiveUsersWithRole(tx, 'admin', user.id)) === 0
    ) {
      throw appError('LAST_ADMIN', 'The clinic needs at least one active administrator.');
    }
    await replaceUserRoles(
      tx,
      user.id,
      roles.map((role) => role.id),
      now,
    );
    return current.map((role) => role.key);
  });
  const after = roles.map((role) => role.key).sort();
  if (before.join(',') === after.join(',')) {
    return { replacement: null };
  }
  await endSessions(ctx, { userId: user.id }, 'privilege_change');
  let replacement: StartedSession | null = null;
  if (user.id === actorId) {
    const mfaEnrollmentRequired = user.mfaEnabledAt === null && (await isMfaRequiredFor(ctx, after));
    replacement = await startSession(ctx, user.id, after, { mfaEnrollmentRequired });
  }
  await ctx.audit({
    action: 'user.roles_changed',
    targetType: 'user',
    targetId: user.id,
    details: { before, after },
  });
  return { replacement };
}

/** A user with what the administration shows of them (roles, lockout). */
export interface AdminUserView {
  user: UserRow;
  extras: AdminUserExtras;
}

async function adminViewOf(ctx: ServiceContext, user: UserRow): Promise<AdminUserView> {
  return { user, extras: await findAdminUserExtras(ctx.db, [user], ctx.now()) };
}

/** One user as the administration sees them; 404 for an unknown or malformed id. */
export async function getAdminUser(ctx: ServiceContext, userId: string): Promise<AdminUserView> {
  return adminViewOf(ctx, await findUserOr404(ctx, userId));
}

/**
 * An administrator edits someone's name, phone, language or time zone. The
 * audit event names the fields that changed, never their values.
 */
export async function updateUserByAdmin(
  ctx: ServiceContext,
  userId: string,
  changes: AdminUpdateUserRequest,
): Promise<AdminUserView> {
  const user = await findUserOr404(ctx, userId);
  const fields = (Object.keys(changes) as (keyof AdminUpdateUserRequest)[]).filter(
    (field) => changes[field] !== undefined && changes[field] !== user[field],
  );
  if (fields.length === 0) {
    return adminViewOf(ctx, user);
  }
  const updated = await updateUser(ctx.db, user.id, { ...changes, updatedAt: ctx.now() });
  await ctx.audit({ action: 'user.updated', targetType: 'user', targetId: user.id, details: { fields } });
  return adminViewOf(ctx, updated ?? user);
}

/**
 * Disables an account: it cannot sign in, and every session it has ends at
 * once with its real-time connections. Not one's own account (409
 * CANNOT_CHANGE_SELF), nor the last active administrator (409 LAST_ADMIN,
 * serialised with role changes). Disabling a disabled account changes nothing.
 */
export async function disableUser(ctx: ServiceContext, userId: string): Promise<void> {
  const actorId = requireActor(ctx).userId;
  const found = await findUserOr404(ctx, userId);
  assertNotSelf(actorId, found.id, 'You cannot disable your own account.');
  const now = ctx.now();
  const isChanged = await ctx.db.transaction(async (tx) => {
    await lockRoleAssignments(tx);
    const user = await findUserById(tx, found.id);
    if (user === null || user.status === 'disabled') {
      return false;
    }
    const isAdmin = (await findUserRoles(tx, user.id)).some((role) => role.key === 'admin');
    if (
      isAdmin &&
      user.status === 'active' &&
      (await countOtherActiveUsersWithRole(tx, 'admin', user.id)) === 0
    ) {
      throw appError('LAST_ADMIN', 'The clinic needs at least one active administrator.');
    }
    await updateUser(tx, user.id, { status: 'disabled', disabledAt: now, updatedAt: now });
    return true;
  });
  if (!isChanged) {
    return;
  }
  const ended = await endSessions(ctx, { userId: found.id }, 'user_disabled');
  await ctx.audit({
    action: 'user.disabled',
    targetType: 'user',
    targetId: found.id,
    details: { sessionsEnded: ended.length },
  });
}

/**
 * Enables a disabled account again: active, or pending when its email was
 * never verified (as before it was disabled). Enabling an enabled account
 * changes nothing.
 */
export async function enableUser(ctx: ServiceContext, userId: string): Promise<void> {
  const user = await findUserOr404(ctx, userId);
  if (user.status !== 'disabled') {
    return;
  }
  const status = user.emailVerifiedAt !== null && user.passwordHash !== null ? 'active' : 'pending';
  await updateUser(ctx.db, user.id, { status, disabledAt: null, updatedAt: ctx.now() });
  await ctx.audit({ action: 'user.enabled', targetType: 'user', targetId: user.id, details: { status } });
}

/**
 * Removes someone's second factor (secret, pending secret, recovery codes)
 * when they lost their device, and ends their sessions; at the next sign-in
 * a role that requires it makes them enrol again. Not on one's own account
 * (409 CANNOT_CHANGE_SELF): the profile's second-factor page is for that.
 */
export async function resetUserMfa(ctx: ServiceContext, userId: string): Promise<void> {
  const actorId = requireActor(ctx).userId;
  const user = await findUserOr404(ctx, userId);
  assertNotSelf(actorId, user.id, 'Use your own profile to change your second factor.');
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
  const ended = await endSessions(ctx, { userId: user.id }, 'mfa_reset');
  await ctx.audit({
    action: 'user.mfa_reset',
    targetType: 'user',
    targetId: user.id,
    details: { wasEnabled: user.mfaEnabledAt !== null, sessionsEnded: ended.length },
  });
}
