import type { RoleListQuery } from '@telemedicina/shared/admin';
import type { Language } from '@telemedicina/shared/i18n';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rolePermissions, roles, userRoles } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

export type RoleRow = typeof roles.$inferSelect;

/** A role with its grants and how many users hold it. */
export interface RoleWithGrants extends RoleRow {
  permissions: string[];
  userCount: number;
}

const permissionsOfRole = sql<string[]>`array(
  select ${rolePermissions.permission} from ${rolePermissions}
  where ${rolePermissions.roleId} = ${roles.id} order by ${rolePermissions.permission})`;
const usersOfRole = sql<number>`(select count(*) from ${userRoles} where ${userRoles.roleId} = ${roles.id})::int`;

const withGrants = {
  id: roles.id,
  key: roles.key,
  nameEs: roles.nameEs,
  nameEn: roles.nameEn,
  isSystem: roles.isSystem,
  createdAt: roles.createdAt,
  permissions: permissionsOfRole,
  userCount: usersOfRole,
};

function roleFilter(q: string | undefined): SQL | undefined {
  const text = q?.trim() ?? '';
  if (text === '') {
    return undefined;
  }
  const pattern = likePattern(text);
  return or(ilike(roles.key, pattern), ilike(roles.nameEs, pattern), ilike(roles.nameEn, pattern));
}

/** One page of roles; `language` decides which name `sort=name` orders by. */
export async function listRoles(
  db: Database,
  query: RoleListQuery,
  language: Language,
): Promise<{ rows: RoleWithGrants[]; total: number }> {
  const direction = query.order === 'asc' ? asc : desc;
  const sortColumn = {
    name: sql`lower(${language === 'es' ? roles.nameEs : roles.nameEn})`,
    key: sql`${roles.key}`,
    userCount: usersOfRole,
    createdAt: sql`${roles.createdAt}`,
  }[query.sort];
  const filter = roleFilter(query.q);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(withGrants)
      .from(roles)
      .where(filter)
      .orderBy(direction(sortColumn), direction(roles.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(roles).where(filter),
  ]);
  return { rows, total: totalRow?.value ?? 0 };
}

export async function findRoleWithGrants(db: Database, id: string): Promise<RoleWithGrants | null> {
  const [row] = await db.select(withGrants).from(roles).where(eq(roles.id, id));
  return row ?? null;
}

/** Inserts a role unless its key is taken (null then). */
export async function insertRoleIfKeyFree(
  db: Database,
  role: Pick<typeof roles.$inferInsert, 'key' | 'nameEs' | 'nameEn' | 'createdAt'>,
): Promise<RoleRow | null> {
  const [row] = await db
    .insert(roles)
    .values({ ...role, isSystem: false })
    .onConflictDoNothing({ target: roles.key })
    .returning();
  return row ?? null;
}

export async function renameRole(db: Database, id: string, name: { es: string; en: string }): Promise<void> {
  await db.update(roles).set({ nameEs: name.es, nameEn: name.en }).where(eq(roles.id, id));
}

/** Makes the role's grants exactly `permissions` (adding and removing only what differs). */
export async function replaceRolePermissions(
  db: Database,
  roleId: string,
  permissions: { added: readonly string[]; removed: readonly string[] },
): Promise<void> {
  if (permissions.removed.length > 0) {
    await db
      .delete(rolePermissions)
      .where(
        and(
          eq(rolePermissions.roleId, roleId),
          inArray(rolePermissions.permission, [...permissions.removed]),
        ),
      );
  }
  if (permissions.added.length > 0) {
    await db
      .insert(rolePermissions)
      .values(permissions.added.map((permission) => ({ roleId, permission })))
      .onConflictDoNothing();
  }
}

/** Deletes a custom role; resolves with whether a row went. */
export async function deleteRole(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .delete(roles)
    .where(and(eq(roles.id, id), eq(roles.isSystem, false)))
    .returning({ id: roles.id });
  return rows.length > 0;
}
