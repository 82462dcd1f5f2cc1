import type { AdminUserListQuery } from '@telemedicina/shared/admin';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { loginFailures, roles, userRoles, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';
import type { RoleRow, UserRow } from './users.repository.js';

/**
 * The administration's user list over 100,000 accounts: filters that the
 * indexes of migrations 0003 and 0004 serve (trigram GIN for `q`, btree for
 * each sort key with `id` as the tie-breaker), pages read through a deferred
 * join (the page's ids come from an index-ordered scan, whole rows only for
 * those ids), the total from a separate count run beside the page, and
 * keyset batches for the export.
 */

export type AdminUserFilters = Pick<AdminUserListQuery, 'q' | 'role' | 'status'>;
export type AdminUserOrder = Pick<AdminUserListQuery, 'sort' | 'order'>;

/** Roles and lockout of listed users, loaded for a page at a time. */
export interface AdminUserExtras {
  rolesByUser: Map<string, RoleRow[]>;
  lockedUntilByEmail: Map<string, Date>;
}

/** A sign-in lockout in force for the user's email. */
function lockInForce(now: Date): SQL {
  return sql`exists (select 1 from ${loginFailures}
    where ${loginFailures.email} = ${users.email} and ${loginFailures.lockedUntil} > ${now.toISOString()}::timestamptz)`;
}

/** The WHERE clause of a filter; `now` decides which lockouts are in force. */
export function adminUserConditions(filters: AdminUserFilters, now: Date): SQL | undefined {
  const conditions: SQL[] = [];
  const q = filters.q?.trim() ?? '';
  if (q !== '') {
    const pattern = likePattern(q);
    conditions.push(or(ilike(users.name, pattern), ilike(users.email, pattern))!);
  }
  if (filters.role !== undefined) {
    // The row's own copy of its role keys (kept from user_roles by a trigger): no join per user.
    conditions.push(sql`${users.roleKeys} @> array[${filters.role}]::text[]`);
  }
  switch (filters.status) {
    case undefined:
      break;
    // `active` and `locked` split the active accounts: a lockout in force or not.
    case 'active':
      conditions.push(eq(users.status, 'active'), sql`not ${lockInForce(now)}`);
      break;
    case 'locked':
      conditions.push(eq(users.status, 'active'), lockInForce(now));
      break;
    case 'pending':
    case 'disabled':
      conditions.push(eq(users.status, filters.status));
      break;
  }
  return conditions.length === 0 ? undefined : and(...conditions);
}

type SortField = 'name' | 'email' | 'status' | 'id' | 'createdAt' | 'lastSignInAt';

/** One key of a sort: the column, how its value round-trips as text, whether it can be null. */
interface SortKey {
  field: SortField;
  column: (typeof users)[SortField];
  cast: 'text' | 'uuid' | 'timestamptz';
  isNullable: boolean;
}

const idKey: SortKey = { field: 'id', column: users.id, cast: 'uuid', isNullable: false };

/** The keys of each sort, ties broken by id (status: then by name). */
function sortKeys(sort: AdminUserOrder['sort']): SortKey[] {
  switch (sort) {
    case 'name':
      return [{ field: 'name', column: users.name, cast: 'text', isNullable: false }, idKey];
    case 'email':
      return [{ field: 'email', column: users.email, cast: 'text', isNullable: false }, idKey];
    case 'createdAt':
      return [{ field: 'createdAt', column: users.createdAt, cast: 'timestamptz', isNullable: false }, idKey];
    case 'lastSignInAt':
      return [
        { field: 'lastSignInAt', column: users.lastSignInAt, cast: 'timestamptz', isNullable: true },
        idKey,
      ];
    case 'status':
      return [
        { field: 'status', column: users.status, cast: 'text', isNullable: false },
        { field: 'name', column: users.name, cast: 'text', isNullable: false },
        idKey,
      ];
  }
}

/**
 * ORDER BY of a sort. Never-signed-in users count as the oldest sign-in:
 * first ascending, last descending — the order the
 * `(last_sign_in_at NULLS FIRST, id)` index reads in either direction.
 */
export function adminUserOrderBy(
  order: AdminUserOrder,
  columnOf: (field: SortField) => SQLWrapper = (field) => users[field],
): SQL[] {
  return sortKeys(order.sort).map((key) => {
    const column = columnOf(key.field);
    if (key.isNullable) {
      return order.order === 'asc' ? sql`${column} asc nulls first` : sql`${column} desc nulls last`;
    }
    return order.order === 'asc' ? asc(column) : desc(column);
  });
}

function castValue(value: string, cast: SortKey['cast']): SQL {
  switch (cast) {
    case 'text':
      return sql`${value}`;
    case 'uuid':
      return sql`${value}::uuid`;
    case 'timestamptz':
      return sql`${value}::timestamptz`;
  }
}

/**
 * Rows strictly after the cursor in the sort's order. Non-null keys compare
 * as a row value, which the composite indexes serve; the nullable sign-in
 * time spells out where NULLs sit.
 */
function afterCursor(order: AdminUserOrder, cursor: readonly (string | null)[]): SQL {
  const keys = sortKeys(order.sort);
  const isAscending = order.order === 'asc';
  const first = keys[0]!;
  if (!first.isNullable) {
    const columns = sql.join(
      keys.map((key) => sql`${key.column}`),
      sql`, `,
    );
    const values = sql.join(
      keys.map((key, index) => castValue(cursor[index] ?? '', key.cast)),
      sql`, `,
    );
    return isAscending ? sql`(${columns}) > (${values})` : sql`(${columns}) < (${values})`;
  }
  const column = first.column;
  const lastValue = cursor[0] ?? null;
  const lastId = castValue(cursor[1] ?? '', 'uuid');
  if (isAscending) {
    // NULLs first, then values ascending.
    return lastValue === null
      ? sql`((${column} is null and ${users.id} > ${lastId}) or ${column} is not null)`
      : sql`(${column} > ${castValue(lastValue, first.cast)} or (${column} = ${castValue(lastValue, first.cast)} and ${users.id} > ${lastId}))`;
  }
  // Values descending, then NULLs.
  return lastValue === null
    ? sql`(${column} is null and ${users.id} < ${lastId})`
    : sql`(${column} < ${castValue(lastValue, first.cast)} or (${column} = ${castValue(lastValue, first.cast)} and ${users.id} < ${lastId}) or ${column} is null)`;
}

/**
 * One page of users in the requested order. The ids come first from an
 * index-ordered scan (index-only where the sort's index covers the filter),
 * so a deep page skips index entries rather than whole rows.
 */
export async function listAdminUserPage(
  db: Database,
  query: AdminUserFilters & AdminUserOrder & { page: number; pageSize: number },
  now: Date,
): Promise<UserRow[]> {
  const orderBy = adminUserOrderBy(query);
  const page = db
    .select({ pageId: sql<string>`${users.id}`.as('page_id') })
    .from(users)
    .where(adminUserConditions(query, now))
    .orderBy(...orderBy)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .as('page');
  const rows = await db
    .select({ user: users })
    .from(page)
    .innerJoin(users, eq(users.id, page.pageId))
    .orderBy(...orderBy);
  return rows.map((row) => row.user);
}

/**
 * How many users match the filters. A role alone is counted on `user_roles`
 * (every row there belongs to a user), without visiting 100,000 users.
 */
export async function countAdminUsers(db: Database, filters: AdminUserFilters, now: Date): Promise<number> {
  const isRoleOnly =
    filters.role !== undefined && (filters.q?.trim() ?? '') === '' && filters.status === undefined;
  const [row] = isRoleOnly
    ? await db
        .select({ value: count() })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .where(eq(roles.key, filters.role ?? ''))
    : await db.select({ value: count() }).from(users).where(adminUserConditions(filters, now));
  return row?.value ?? 0;
}

export interface ExportBatch {
  rows: UserRow[];
  /** Where the next batch starts, or null after the last one. */
  next: (string | null)[] | null;
}

/**
 * The next `size` users after `cursor` (null = from the start) in the sort's
 * order: keyset paging, so the export reads 100,000 users in constant memory
 * and each batch costs the same.
 */
export async function readAdminUserBatch(
  db: Database,
  query: AdminUserFilters & AdminUserOrder,
  cursor: readonly (string | null)[] | null,
  size: number,
  now: Date,
): Promise<ExportBatch> {
  const keys = sortKeys(query.sort);
  const filter = adminUserConditions(query, now);
  const rows = await db
    .select({
      user: users,
      cursor: sql<(string | null)[]>`array[${sql.join(
        keys.map((key) => sql`${key.column}::text`),
        sql`, `,
      )}]`,
    })
    .from(users)
    .where(cursor === null ? filter : and(filter, afterCursor(query, cursor)))
    .orderBy(...adminUserOrderBy(query))
    .limit(size);
  const last = rows.at(-1);
  return {
    rows: rows.map((row) => row.user),
    next: rows.length < size || last === undefined ? null : last.cursor,
  };
}

/** Roles (by key) of the given users and the lockouts in force for their emails. */
export async function findAdminUserExtras(
  db: Database,
  list: readonly Pick<UserRow, 'id' | 'email'>[],
  now: Date,
): Promise<AdminUserExtras> {
  const rolesByUser = new Map<string, RoleRow[]>();
  const lockedUntilByEmail = new Map<string, Date>();
  if (list.length === 0) {
    return { rolesByUser, lockedUntilByEmail };
  }
  const [roleRows, lockRows] = await Promise.all([
    db
      .select({ userId: userRoles.userId, role: roles })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(
        inArray(
          userRoles.userId,
          list.map((user) => user.id),
        ),
      )
      .orderBy(asc(roles.key)),
    db
      .select({ email: loginFailures.email, lockedUntil: loginFailures.lockedUntil })
      .from(loginFailures)
      .where(
        and(
          inArray(
            loginFailures.email,
            list.map((user) => user.email),
          ),
          gt(loginFailures.lockedUntil, now),
        ),
      ),
  ]);
  for (const { userId, role } of roleRows) {
    const held = rolesByUser.get(userId);
    if (held === undefined) {
      rolesByUser.set(userId, [role]);
    } else {
      held.push(role);
    }
  }
  for (const { email, lockedUntil } of lockRows) {
    if (lockedUntil !== null) {
      lockedUntilByEmail.set(email, lockedUntil);
    }
  }
  return { rolesByUser, lockedUntilByEmail };
}
