import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { files } from './files.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/**
 * People who sign in. `email` is stored normalised (trimmed, lower-case), so
 * the unique index is the one place that decides whether an address is taken.
 * `password_hash` is an argon2id PHC string. TOTP secrets are AES-256-GCM
 * encrypted with MFA_ENCRYPTION_KEY; `mfa_last_time_step` stops a code from
 * being replayed within its window.
 */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    name: text().notNull(),
    phone: text(),
    dateOfBirth: date({ mode: 'string' }),
    language: text().notNull(),
    timeZone: text().notNull(),
    passwordHash: text(),
    status: text().notNull().default('pending'),
    emailVerifiedAt: instant(),
    mfaSecretEncrypted: text(),
    mfaPendingSecretEncrypted: text(),
    mfaEnabledAt: instant(),
    mfaLastTimeStep: bigint({ mode: 'number' }),
    photoFileId: uuid().references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
    /** Set when an administrator disables the account; cleared when enabled again. */
    disabledAt: instant(),
    lastSignInAt: instant(),
    /**
     * The keys of the user's roles, kept by a database trigger from
     * `user_roles` (the source of truth; migration 0004): the admin list
     * filters by role with an array test on the row it already reads,
     * instead of a join per matching user. Never written by the application.
     */
    roleKeys: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: instant().notNull().defaultNow(),
    updatedAt: instant().notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_key').on(table.email),
    // The admin list: sorted pages and `ILIKE '%text%'` search over 100,000 accounts (pg_trgm).
    index('users_name_id_idx').on(table.name, table.id),
    index('users_created_at_id_idx').on(table.createdAt, table.id),
    // Never signed in sorts as the oldest sign-in: first ascending, last descending (one index, both ways).
    index('users_last_sign_in_at_id_idx').on(table.lastSignInAt.asc().nullsFirst(), table.id),
    // The status filter and sort, in name order within a status.
    index('users_status_name_id_idx').on(table.status, table.name, table.id),
    // The role filter when few users hold the role (administrators among 100,000 patients).
    index('users_role_keys_idx').using('gin', table.roleKeys),
    index('users_name_trgm_idx').using('gin', sql`${table.name} gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${table.email} gin_trgm_ops`),
    check('users_status_check', sql`${table.status} in ('active', 'pending', 'disabled')`),
    check('users_language_check', sql`${table.language} in ('es', 'en')`),
  ],
);

/** Bundles of permission names. System roles (admin, doctor, staff, patient) cannot be deleted. */
export const roles = pgTable(
  'roles',
  {
    id: uuid().primaryKey().defaultRandom(),
    key: text().notNull(),
    nameEs: text().notNull(),
    nameEn: text().notNull(),
    isSystem: boolean().notNull().default(false),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [uniqueIndex('roles_key_key').on(table.key)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    roleId: uuid()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.roleId, table.permission] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid()
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    createdAt: instant().notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.roleId] }),
    index('user_roles_role_idx').on(table.roleId),
  ],
);

/**
 * Server-side sessions. `id` is the SHA-256 (hex) of the random token in the
 * `tm_session` cookie: the table never holds a usable token.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: instant().notNull(),
    lastSeenAt: instant().notNull(),
    idleTimeoutSeconds: integer().notNull(),
    expiresAt: instant().notNull(),
    ip: text(),
    userAgent: text(),
    mfaEnrollmentRequired: boolean().notNull().default(false),
    revokedAt: instant(),
    revokedReason: text(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const authTokenKinds = ['verify_email', 'reset_password', 'invitation'] as const;
export type AuthTokenKind = (typeof authTokenKinds)[number];

/**
 * Single-use emailed tokens (verification, password reset, invitation),
 * stored as SHA-256. Consumed with `UPDATE … WHERE used_at IS NULL RETURNING`,
 * so two concurrent uses cannot both succeed.
 */
export const authTokens = pgTable(
  'auth_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().$type<AuthTokenKind>().notNull(),
    tokenHash: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    email: text(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: instant().notNull(),
    expiresAt: instant().notNull(),
    usedAt: instant(),
  },
  (table) => [
    uniqueIndex('auth_tokens_hash_key').on(table.tokenHash),
    index('auth_tokens_user_idx').on(table.userId),
    index('auth_tokens_email_idx').on(table.email),
    check('auth_tokens_kind_check', sql`${table.kind} in ('verify_email', 'reset_password', 'invitation')`),
  ],
);

/** Recovery codes for the second factor, stored as HMAC-SHA-256 under a server key; single use. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    createdAt: instant().notNull(),
    usedAt: instant(),
  },
  (table) => [uniqueIndex('mfa_recovery_codes_user_hash_key').on(table.userId, table.codeHash)],
);

/**
 * Failed sign-ins per normalised email, whether or not an account exists, so
 * a lockout never tells which emails are registered.
 */
export const loginFailures = pgTable('login_failures', {
  email: text().primaryKey(),
  failureCount: integer().notNull(),
  firstFailureAt: instant().notNull(),
  lastFailureAt: instant().notNull(),
  lockedUntil: instant(),
});

export const consentKinds = ['terms', 'telemedicine'] as const;
export type ConsentKind = (typeof consentKinds)[number];

/** Acceptances of the terms and of the telemedicine consent, with the version and time. */
export const consents = pgTable(
  'consents',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().$type<ConsentKind>().notNull(),
    version: text().notNull(),
    acceptedAt: instant().notNull(),
    ip: text(),
  },
  (table) => [
    index('consents_user_idx').on(table.userId),
    check('consents_kind_check', sql`${table.kind} in ('terms', 'telemedicine')`),
  ],
);
