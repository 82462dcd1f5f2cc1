import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { isPermission } from '@telemedicina/shared/permission-catalogue';
import type { Actor } from '../context.js';
import type { RoleWithGrants } from './roles.repository.js';

/**
 * What may change in a role. System roles (admin, doctor, staff, patient)
 * keep their keys and names — the interface shows them translated — and are
 * never deleted; the grants of doctor, staff and patient can be edited, the
 * admin role's cannot (the clinic always keeps one role that can do
 * everything). A role held by anyone cannot be deleted.
 */

function locked(message: string): AppError {
  return appError('SYSTEM_ROLE_LOCKED', message);
}

export function assertCanRename(role: RoleWithGrants, name: { es: string; en: string }): void {
  if (role.isSystem && (name.es !== role.nameEs || name.en !== role.nameEn)) {
    throw locked('System roles keep their names.');
  }
}

export function assertCanChangeGrants(
  role: RoleWithGrants,
  change: { added: string[]; removed: string[] },
): void {
  if (role.isSystem && role.key === 'admin' && (change.added.length > 0 || change.removed.length > 0)) {
    throw locked("The administrator role's permissions cannot be changed.");
  }
}

export function assertCanDelete(role: RoleWithGrants): void {
  if (role.isSystem) {
    throw locked('System roles cannot be deleted.');
  }
  if (role.userCount > 0) {
    throw appError('ROLE_IN_USE', 'Users still hold this role.', { userCount: role.userCount });
  }
}

/**
 * No privilege escalation when roles are given (assigning roles, inviting with roles): only an
 * administrator can make someone an administrator, and a user manager without `roles.manage`
 * (which can define any role, so is administrator-grade itself) can only give roles whose
 * permissions they all hold. Refusals answer 403 naming the missing permissions.
 */
export function assertCanGrantRoles(
  actor: Actor | null,
  granted: { roleKeys: readonly string[]; permissions: Iterable<string> },
): void {
  if (actor === null) {
    throw appError('FORBIDDEN', 'Signed-in users only.');
  }
  if (granted.roleKeys.includes('admin') && !actor.roleKeys.includes('admin')) {
    throw appError('FORBIDDEN', 'Only administrators can make someone an administrator.', {
      missing: ['admin'],
    });
  }
  if (actor.permissions.has('roles.manage')) {
    return;
  }
  const missing = [...new Set(granted.permissions)]
    .filter((permission) => !isPermission(permission) || !actor.permissions.has(permission))
    .sort();
  if (missing.length > 0) {
    throw appError('FORBIDDEN', 'You cannot give permissions you do not hold yourself.', {
      missing,
    });
  }
}
