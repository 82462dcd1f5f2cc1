import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

/**
 * What the OAuth 2 / OpenID Connect server (oidc-provider, modules/smart) keeps: clients, grants,
 * sessions, interactions, codes and tokens, one row per model and id with the library's own payload.
 * Rows past `expires_at` are dead (the adapter never returns them) and are swept on start.
 */
export const oauthRecords = pgTable(
  'oauth_records',
  {
    model: text().notNull(),
    id: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    grantId: text(),
    userCode: text(),
    uid: text(),
    expiresAt: instant(),
    consumedAt: instant(),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oauth_records_grant_id').on(table.grantId),
    index('oauth_records_uid').on(table.model, table.uid),
    index('oauth_records_expires_at').on(table.expiresAt),
  ],
);

/** The authorization server's signing keys (a private JWK set), sealed with the app's secret box. */
export const smartSigningKeys = pgTable('smart_signing_keys', {
  id: text().primaryKey(),
  sealedJwks: text().notNull(),
  createdAt: instant().notNull().defaultNow(),
});

/** Who registered an app and when, and whether an administrator blocked it (its tokens stop working). */
export const smartClients = pgTable('smart_clients', {
  clientId: text().primaryKey(),
  name: text().notNull(),
  /** 'dynamic' (open registration), 'initial_access_token' (with a token an administrator issued). */
  registration: text().$type<'dynamic' | 'initial_access_token'>().notNull(),
  registeredByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  registeredAt: instant().notNull().defaultNow(),
  blockedAt: instant(),
  blockedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
});

/** A person's connection of an app (one oidc-provider grant): what it may read and when it last did. */
export const smartConnections = pgTable(
  'smart_connections',
  {
    grantId: text().primaryKey(),
    clientId: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scopes: text().array().notNull(),
    patientId: uuid(),
    createdAt: instant().notNull().defaultNow(),
    lastUsedAt: instant(),
    disconnectedAt: instant(),
  },
  (table) => [index('smart_connections_user_id').on(table.userId, table.createdAt)],
);
