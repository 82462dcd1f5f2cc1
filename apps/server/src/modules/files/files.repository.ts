import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { files } from '../../db/schema.js';

export type FileRow = typeof files.$inferSelect;

export async function insertFile(db: Database, file: typeof files.$inferInsert): Promise<FileRow> {
  const [row] = await db.insert(files).values(file).returning();
  if (row === undefined) {
    throw new Error('insert into files returned nothing');
  }
  return row;
}

export async function findFile(db: Database, id: string): Promise<FileRow | null> {
  const [row] = await db.select().from(files).where(eq(files.id, id));
  return row ?? null;
}

export async function deleteFile(db: Database, id: string): Promise<FileRow | null> {
  const [row] = await db.delete(files).where(eq(files.id, id)).returning();
  return row ?? null;
}
