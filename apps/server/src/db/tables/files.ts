import { index, integer, pgTable, text, timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { users } from './identity.js';

/**
 * Stored uploads. The bytes live under UPLOADS_DIR at `storage_path`, a name
 * the server generated; a name sent by a browser is never used as a path.
 * `content_type` is what the content was sniffed as, not what was claimed.
 */
export const files = pgTable(
  'files',
  {
    id: uuid().primaryKey().defaultRandom(),
    ownerUserId: uuid()
      .notNull()
      .references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    sha256: text().notNull(),
    contentType: text().notNull(),
    size: integer().notNull(),
    width: integer(),
    height: integer(),
    storagePath: text().notNull(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [index('files_owner_idx').on(table.ownerUserId)],
);
