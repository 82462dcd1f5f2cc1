import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Installation-wide facts as key/value pairs (for example when the demo data
 * was seeded). Domain tables arrive with their issues, each in its own file
 * re-exported here so drizzle-kit sees one schema.
 */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
