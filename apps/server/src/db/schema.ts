import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Installation-wide facts as key/value pairs (for example when the demo data
 * was seeded). Domain tables live in `tables/`, one file per area, re-exported
 * here so drizzle-kit and the query builder see one schema.
 */
export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export * from './tables/appointments.js';
export * from './tables/audit.js';
export * from './tables/clinic.js';
export * from './tables/email.js';
export * from './tables/files.js';
export * from './tables/identity.js';
export * from './tables/visits.js';
export * from './tables/records.js';
export * from './tables/notes.js';
export * from './tables/consent-documents.js';
export * from './tables/questionnaires.js';
export * from './tables/smart.js';
