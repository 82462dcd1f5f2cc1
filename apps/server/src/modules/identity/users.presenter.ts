import type { AdminUser } from '@telemedicina/shared/admin';
import { apiBasePath } from '@telemedicina/shared/api';
import type { MeResponse, SessionInfo, User } from '@telemedicina/shared/auth';
import type { RoleSummary } from '@telemedicina/shared/common';
import type { AdminUserExtras } from './users-list.repository.js';
import type { RoleRow, UserRow } from './users.repository.js';

/** URL of a user's photo; the file id makes it change (and skip caches) when the photo does. */
export function photoUrlOf(user: Pick<UserRow, 'id' | 'photoFileId'>): string | null {
  return user.photoFileId === null ? null : `${apiBasePath}/users/${user.id}/photo?v=${user.photoFileId}`;
}

export function presentUser(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    phone: user.phone,
    dateOfBirth: user.dateOfBirth,
    language: user.language === 'en' ? 'en' : 'es',
    timeZone: user.timeZone,
    photoUrl: photoUrlOf(user),
    emailVerified: user.emailVerifiedAt !== null,
    mfaEnabled: user.mfaEnabledAt !== null,
    status: user.status === 'active' || user.status === 'disabled' ? user.status : 'pending',
    createdAt: user.createdAt.toISOString(),
  };
}

export function presentRole(role: Pick<RoleRow, 'id' | 'key' | 'nameEs' | 'nameEn'>): RoleSummary {
  return { id: role.id, key: role.key, name: { es: role.nameEs, en: role.nameEn } };
}

export function presentMe(
  user: UserRow,
  roles: readonly RoleRow[],
  permissions: readonly string[],
  session: { idleTimeoutSeconds: number; expiresAt: Date; mfaEnrollmentRequired: boolean },
): MeResponse {
  const sessionInfo: SessionInfo = {
    idleTimeoutSeconds: session.idleTimeoutSeconds,
    expiresAt: session.expiresAt.toISOString(),
    mfaEnrollmentRequired: session.mfaEnrollmentRequired,
  };
  return {
    user: presentUser(user),
    roles: roles.map(presentRole),
    permissions: [...permissions],
    session: sessionInfo,
  };
}

/** A user as the administration sees it: roles, lockout in force, last sign-in, disabling. */
export function presentAdminUser(user: UserRow, extras: AdminUserExtras): AdminUser {
  return {
    ...presentUser(user),
    roles: (extras.rolesByUser.get(user.id) ?? []).map(presentRole),
    lockedUntil: extras.lockedUntilByEmail.get(user.email)?.toISOString() ?? null,
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    disabledAt: user.disabledAt?.toISOString() ?? null,
  };
}
