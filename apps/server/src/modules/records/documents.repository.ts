import { aliasedTable, and, count, desc, eq, ilike, inArray, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { chartDocuments, files, users } from '../../db/schema.js';
import { likePattern } from '../../lib/like-pattern.js';

const uploader = aliasedTable(users, 'uploader');

/** A chart document with its file's facts and its uploader's name and roles. */
export interface DocumentRow {
  id: string;
  patientUserId: string;
  kind: 'upload' | 'visit_summary' | 'consent';
  category: 'lab' | 'imaging' | 'referral' | 'report' | 'other';
  name: string;
  appointmentId: string | null;
  uploadedByUserId: string | null;
  uploadedByName: string | null;
  uploadedByRoleKeys: string[] | null;
  createdAt: Date;
  removedAt: Date | null;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  storagePath: string;
}

const documentColumns = {
  id: chartDocuments.id,
  patientUserId: chartDocuments.patientUserId,
  kind: chartDocuments.kind,
  category: chartDocuments.category,
  name: chartDocuments.name,
  appointmentId: chartDocuments.appointmentId,
  uploadedByUserId: chartDocuments.uploadedByUserId,
  uploadedByName: uploader.name,
  uploadedByRoleKeys: uploader.roleKeys,
  createdAt: chartDocuments.createdAt,
  removedAt: chartDocuments.removedAt,
  contentType: files.contentType,
  size: files.size,
  width: files.width,
  height: files.height,
  storagePath: files.storagePath,
};

function selectDocuments(db: Database) {
  return db
    .select(documentColumns)
    .from(chartDocuments)
    .innerJoin(files, eq(files.id, chartDocuments.fileId))
    .leftJoin(uploader, eq(uploader.id, chartDocuments.uploadedByUserId));
}

/** One page of a patient's documents, newest first. */
export async function listDocuments(
  db: Database,
  filter: {
    patientId: string;
    includeRemoved: boolean;
    category?: string;
    q?: string;
    limit: number;
    offset: number;
  },
): Promise<{ rows: DocumentRow[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(chartDocuments.patientUserId, filter.patientId)];
  if (!filter.includeRemoved) {
    conditions.push(isNull(chartDocuments.removedAt));
  }
  if (filter.category !== undefined) {
    conditions.push(eq(chartDocuments.category, filter.category as DocumentRow['category']));
  }
  if (filter.q !== undefined && filter.q !== '') {
    conditions.push(ilike(chartDocuments.name, likePattern(filter.q)));
  }
  const where = and(...conditions);
  const rows = await selectDocuments(db)
    .where(where)
    .orderBy(desc(chartDocuments.createdAt), desc(chartDocuments.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [totals] = await db.select({ total: count() }).from(chartDocuments).where(where);
  return { rows, total: Number(totals?.total ?? 0) };
}

/** One document of the patient (removed ones too: the caller decides), or null. */
export async function findDocument(
  db: Database,
  patientId: string,
  documentId: string,
): Promise<DocumentRow | null> {
  const [row] = await selectDocuments(db).where(
    and(eq(chartDocuments.patientUserId, patientId), eq(chartDocuments.id, documentId)),
  );
  return row ?? null;
}

/** The patient's documents among `documentIds` (removed ones too: the caller decides), in no order. */
export async function findDocuments(
  db: Database,
  patientId: string,
  documentIds: readonly string[],
): Promise<DocumentRow[]> {
  if (documentIds.length === 0) {
    return [];
  }
  return selectDocuments(db).where(
    and(eq(chartDocuments.patientUserId, patientId), inArray(chartDocuments.id, [...documentIds])),
  );
}

export async function insertDocument(
  db: Database,
  document: typeof chartDocuments.$inferInsert,
): Promise<string> {
  const [row] = await db.insert(chartDocuments).values(document).returning({ id: chartDocuments.id });
  if (row === undefined) {
    throw new Error('insert into chart_documents returned nothing');
  }
  return row.id;
}

/** Stamps a live document removed; false when it was already removed (a concurrent remove). */
export async function markDocumentRemoved(
  db: Database,
  documentId: string,
  by: { userId: string; at: Date },
): Promise<boolean> {
  const updated = await db
    .update(chartDocuments)
    .set({ removedAt: by.at, removedByUserId: by.userId })
    .where(and(eq(chartDocuments.id, documentId), isNull(chartDocuments.removedAt)))
    .returning({ id: chartDocuments.id });
  return updated.length > 0;
}
