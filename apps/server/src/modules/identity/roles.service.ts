import type { CreateRoleRequest, RoleListQuery, UpdateRoleRequest } from '@telemedicina/shared/admin';
import type { ValidationIssue } from '@telemedicina/shared/api';
import { isPermission } from '@telemedicina/shared/permission-catalogue';
import { appError } from '../../lib/app-error.js';
import { isForeignKeyViolation } from '../../lib/database-errors.js';
import { languageOf } from '../../lib/language.js';
import type { ServiceContext } from '../context.js';
import { loadActorUser } from './actor.js';
import { isUuid } from '../../lib/uuid.js';
import { assertCanChangeGrants, assertCanDelete, assertCanRename } from './roles.policy.js';
import {
  deleteRole as deleteRoleRow,
  findRoleWithGrants,
  insertRoleIfKeyFree,
  listRoles as listRoleRows,
  renameRole,
  replaceRolePermissions,
  type RoleWithGrants,
} from './roles.repository.js';

/**
 * Roles are bundles of permission names from the shared catalogue. Grants
 * are read from the database on every request (the session lookup joins
 * them), so a change applies to everyone holding the role at their next
 * request, with no cache to invalidate.
 */

/** Roles for the list, names ordered in the requester's language. */
export async function listRoles(
  ctx: ServiceContext,
  query: RoleListQuery,
): Promise<{ rows: RoleWithGrants[]; total: number }> {
  const requester = await loadActorUser(ctx);
  return listRoleRows(ctx.db, query, languageOf(requester));
}

export async function getRole(ctx: ServiceContext, id: string): Promise<RoleWithGrants> {
  const role = isUuid(id) ? await findRoleWithGrants(ctx.db, id) : null;
  if (role === null) {
    throw appError('NOT_FOUND', 'No such role.');
  }
  return role;
}

/** The distinct permission names, refusing any outside the catalogue (400, one issue per name). */
function checkPermissions(permissions: readonly string[]): string[] {
  const issues: ValidationIssue[] = permissions.flatMap((name, index) =>
    isPermission(name)
      ? []
      : [
          {
            location: 'body',
            path: `permissions.${index}`,
            code: 'unknown_permission',
            message: 'validation.unknownPermission',
          },
        ],
  );
  if (issues.length > 0) {
    throw appError('VALIDATION_FAILED', 'Unknown permissions.', { issues });
  }
  return [...new Set(permissions)].sort();
}

/** Creates a custom role; a key already taken answers 409 ALREADY_EXISTS. */
export async function createRole(ctx: ServiceContext, input: CreateRoleRequest): Promise<RoleWithGrants> {
  const permissions = checkPermissions(input.permissions);
  const created = await ctx.db.transaction(async (tx) => {
    const role = await insertRoleIfKeyFree(tx, {
      key: input.key,
      nameEs: input.name.es,
      nameEn: input.name.en,
      createdAt: ctx.now(),
    });
    if (role === null) {
      return null;
    }
    await replaceRolePermissions(tx, role.id, { added: permissions, removed: [] });
    return role;
  });
  if (created === null) {
    throw appError('ALREADY_EXISTS', 'A role with this key already exists.', { field: 'key' });
  }
  await ctx.audit({
    action: 'role.created',
    targetType: 'role',
    targetId: created.id,
    details: { key: created.key, permissions },
  });
  return getRole(ctx, created.id);
}

/**
 * Renames a role and/or replaces its grants. System roles keep their names
 * and the admin role its grants (409 SYSTEM_ROLE_LOCKED). The audit event
 * lists the permissions added and removed.
 */
export async function updateRole(
  ctx: ServiceContext,
  id: string,
  input: UpdateRoleRequest,
): Promise<RoleWithGrants> {
  const role = await getRole(ctx, id);
  const isRenamed =
    input.name !== undefined && (input.name.es !== role.nameEs || input.name.en !== role.nameEn);
  if (input.name !== undefined) {
    assertCanRename(role, input.name);
  }
  const change = { added: [] as string[], removed: [] as string[] };
  if (input.permissions !== undefined) {
    const wanted = checkPermissions(input.permissions);
    change.added = wanted.filter((name) => !role.permissions.includes(name));
    change.removed = role.permissions.filter((name) => !wanted.includes(name));
    assertCanChangeGrants(role, change);
  }
  if (!isRenamed && change.added.length === 0 && change.removed.length === 0) {
    return role;
  }
  await ctx.db.transaction(async (tx) => {
    if (isRenamed && input.name !== undefined) {
      await renameRole(tx, role.id, input.name);
    }
    await replaceRolePermissions(tx, role.id, change);
  });
  await ctx.audit({
    action: 'role.updated',
    targetType: 'role',
    targetId: role.id,
    details: {
      key: role.key,
      added: change.added,
      removed: change.removed,
      ...(isRenamed && input.name !== undefined
        ? { name: { before: { es: role.nameEs, en: role.nameEn }, after: input.name } }
        : {}),
    },
  });
  return getRole(ctx, role.id);
}

/** Deletes a custom role nobody holds (409 SYSTEM_ROLE_LOCKED, ROLE_IN_USE). */
export async function deleteRole(ctx: ServiceContext, id: string): Promise<void> {
  const role = await getRole(ctx, id);
  assertCanDelete(role);
  try {
    await deleteRoleRow(ctx.db, role.id);
  } catch (error) {
    // Someone was given the role since it was read: the foreign key keeps it.
    if (isForeignKeyViolation(error)) {
      throw appError('ROLE_IN_USE', 'Users still hold this role.');
    }
    throw error;
  }
  await ctx.audit({
    action: 'role.deleted',
    targetType: 'role',
    targetId: role.id,
    details: { key: role.key },
  });
}
