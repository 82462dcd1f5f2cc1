import type { CreateInvitationRequest } from '@telemedicina/shared';
import { AppError } from '../../lib/app-error.js';
import { issueAuthToken, type InvitationPayload } from '../auth/auth.service.js';
import { retireTokens } from '../auth/auth-tokens.repository.js';
import { clearLoginFailures } from '../auth/login-failures.repository.js';
import type { ServiceContext } from '../context.js';
import { appLink, sendEmail } from '../email/email.service.js';
import { linkLifetimeHours } from '../email/templates.js';
import { endSessions, startSession, type StartedSession } from '../sessions/sessions.service.js';
import { isMfaRequiredFor } from '../me/mfa.service.js';
import {
  countOtherActiveUsersWithRole,
  findRolesByKeys,
  findUserByEmail,
  findUserById,
  findUserRoles,
  lockRoleAssignments,
  replaceUserRoles,
  type RoleRow,
  type UserRow,
} from './users.repository.js';

function requireActorId(ctx: ServiceContext): string {
  if (ctx.actor === null) {
    throw new AppError(401, 'UNAUTHENTICATED', 'Sign in to continue.');
  }
  return ctx.actor.userId;
}

async function findUserOr404(ctx: ServiceContext, userId: string): Promise<UserRow> {
  const user = isUuid(userId) ? await findUserById(ctx.db.db, userId) : null;
  if (user === null) {
    throw new AppError(404, 'NOT_FOUND', 'No such user.');
  }
  return user;
}

/** Resolves role keys to roles; unknown keys are a validation error on `roleKeys`. */
async function resolveRoles(ctx: ServiceContext, roleKeys: readonly string[]): Promise<RoleRow[]> {
  const unique = [...new Set(roleKeys)];
  const roles = await findRolesByKeys(ctx.db.db, unique);
  const unknown = unique.filter((key) => !roles.some((role) => role.key === key));
  if (unknown.length > 0) {
    throw new AppError(400, 'VALIDATION_FAILED', 'Unknown roles.', {
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
  const actorId = requireActorId(ctx);
  const roles = await resolveRoles(ctx, input.roleKeys);
  if ((await findUserByEmail(ctx.db.db, input.email)) !== null) {
    throw new AppError(409, 'CONFLICT', 'This email already has an account.');
  }
  const inviter = await findUserById(ctx.db.db, actorId);
  const now = ctx.now();
  const payload: InvitationPayload = {
    email: input.email,
    name: input.name,
    roleKeys: roles.map((role) => role.key),
    language: input.language,
  };
  const { token, id, expiresAt } = await ctx.db.db.transaction(async (tx) => {
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
  await clearLoginFailures(ctx.db.db, user.email);
  await ctx.audit({ action: 'user.unlocked', targetType: 'user', targetId: user.id });
}

/**
 * Replaces a user's roles. Refuses to leave the clinic without an active
 * administrator (409 LAST_ADMIN; serialised so two admins cannot demote each
 * other at once). A privilege change ends the user's sessions; when admins
 * change their own roles, their current session is replaced by a new one.
 */
export async function setUserRoles(
  ctx: ServiceContext,
  userId: string,
  roleKeys: readonly string[],
): Promise<{ replacement: StartedSession | null }> {
  const actorId = requireActorId(ctx);
  const user = await findUserOr404(ctx, userId);
  const roles = await resolveRoles(ctx, roleKeys);
  const now = ctx.now();
  const before = await ctx.db.db.transaction(async (tx) => {
    await lockRoleAssignments(tx);
    const current = await findUserRoles(tx, user.id);
    const isLosingAdmin =
      current.some((role) => role.key === 'admin') && !roles.some((role) => role.key === 'admin');
    if (
      isLosingAdmin &&
      user.status === 'active' &&
      (await countOtherActiveUsersWithRole(tx, 'admin', user.id)) === 0
    ) {
      throw new AppError(409, 'LAST_ADMIN', 'The clinic needs at least one active administrator.');
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

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are only looked up when they are UUIDs; anything else is simply not found. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}
