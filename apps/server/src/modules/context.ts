import type { DatabaseClient } from '../db/client.js';

/**
 * What every service function receives explicitly. The signed-in actor joins
 * it when accounts exist.
 */
export interface ServiceContext {
  db: DatabaseClient;
  now: () => Date;
}
