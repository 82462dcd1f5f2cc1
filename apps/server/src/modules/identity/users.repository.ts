import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rolePermissions, roles, userRoles, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;

export async function findUserById(db: Database, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** By normalised (lower-case, trimmed) email. */
export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

/**
 * Inserts a user unless the email is taken; null when it was (the unique
 * index decides, so two concurrent registrations cannot both win).
 */
export async function insertUserIfEmailFree(
  db: Database,
  user: Omit<typeof users.$inferInsert, 'id'>,
): Promise<UserRow | null> {
  const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
  return row ?? null;
}

export async function updateUser(
  db: Database,
  id: string,
  changes: Partial<Omit<typeof users.$inferInsert, 'id' | 'createdAt'>>,
): Promise<UserRow | null> {
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  return row ?? null;
}

export async function findRolesByKeys(db: Database, keys: readonly string[]): Promise<RoleRow[]> {
  if (keys.length === 0) {
    return [];
  }
  return db
    .select()
    .from(roles)
    .where(inArray(roles.key, [...keys]))
    .orderBy(asc(roles.key));
}

export async function findUserRoles(db: Database, userId: string): Promise<RoleRow[]> {
  return db
    .select({
      id: roles.id,
      key: roles.key,
      nameEs: roles.nameEs,
      nameEn: roles.nameEn,
      isSystem: roles.isSystem,
      createdAt: roles.createdAt,
    })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(roles.key));
}

/** The distinct permission names the user's roles grant, sorted. */
export async function findUserPermissions(db: Database, userId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ permission: rolePermissions.permission })
    .from(userRoles)
    .innerJoin(rolePermissions, eq(rolePermissions.roleId, userRoles.roleId))
    .where(eq(userRoles.userId, userId))
    .orderBy(asc(rolePermissions.permission));
  return rows.map((row) => row.permission);
}

/** The distinct permission names granted by the roles `roleIds`. */
export async function findPermissionsOfRoles(db: Database, roleIds: readonly string[]): Promise<string[]> {
  if (roleIds.length === 0) {
    return [];
  }
  const rows = await db
    .selectDistinct({ permission: rolePermissions.permission })
    .from(rolePermissions)
    .where(inArray(rolePermissions.roleId, [...roleIds]));
  return rows.map((row) => row.permission);
}

/** Replaces the user's roles with `roleIds`. */
export async function replaceUserRoles(
  db: Database,
  userId: string,
  roleIds: readonly string[],
  now: Date,
): Promise<void> {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length > 0) {
    await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId, createdAt: now })));
  }
}

/** Active users other than `exceptUserId` holding the role `roleKey`. */
export async function countOtherActiveUsersWithRole(
  db: Database,
  roleKey: string,
  exceptUserId: string,
): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .innerJoin(users, eq(users.id, userRoles.userId))
    .where(and(eq(roles.key, roleKey), ne(users.id, exceptUserId), eq(users.status, 'active')));
  return row?.value ?? 0;
}

/**
 * Serialises role changes that could remove the last administrator: two
 * admins demoting each other at once must not both succeed. Held until the
 * surrounding transaction ends.
 */
export async function lockRoleAssignments(db: Database): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(7410195105100106)`);
}
