import type { Database } from '../../db/client.js';
import { consents } from '../../db/schema.js';

export type ConsentValues = typeof consents.$inferInsert;

/** Records accepted consents (terms, telemedicine): one row each, in one statement. */
export async function insertConsents(db: Database, values: ConsentValues[]): Promise<void> {
  await db.insert(consents).values(values);
}
