import { and, asc, count, countDistinct, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  appointments,
  consentDocumentVersions,
  consentDocuments,
  consentSignatures,
  consents,
  users,
} from '../../db/schema.js';

export type ConsentDocumentRow = typeof consentDocuments.$inferSelect;
export type ConsentVersionRow = typeof consentDocumentVersions.$inferSelect;
export type ConsentSignatureRow = typeof consentSignatures.$inferSelect;

/** A document with its newest version. */
export interface ConsentDocumentWithCurrent {
  document: ConsentDocumentRow;
  current: ConsentVersionRow;
}

/** A signature with the version and document it signed. */
export interface SignatureRecord {
  signature: ConsentSignatureRow;
  version: ConsentVersionRow;
  document: ConsentDocumentRow;
}

/** Every document with its current (highest) version, oldest document first. */
export async function listDocumentsWithCurrent(db: Database): Promise<ConsentDocumentWithCurrent[]> {
  const rows = await db
    .select({ document: consentDocuments, current: consentDocumentVersions })
    .from(consentDocuments)
    .innerJoin(consentDocumentVersions, eq(consentDocumentVersions.documentId, consentDocuments.id))
    .where(
      eq(
        consentDocumentVersions.version,
        sql`(select max(v.version) from consent_document_versions v where v.document_id = ${consentDocuments.id})`,
      ),
    )
    .orderBy(asc(consentDocuments.createdAt), asc(consentDocuments.id));
  return rows;
}

export async function findDocumentWithCurrent(
  db: Database,
  documentId: string,
): Promise<ConsentDocumentWithCurrent | null> {
  const [row] = await db
    .select({ document: consentDocuments, current: consentDocumentVersions })
    .from(consentDocuments)
    .innerJoin(consentDocumentVersions, eq(consentDocumentVersions.documentId, consentDocuments.id))
    .where(eq(consentDocuments.id, documentId))
    .orderBy(desc(consentDocumentVersions.version))
    .limit(1);
  return row ?? null;
}

export async function findDocumentBySystemKey(
  db: Database,
  systemKey: string,
): Promise<ConsentDocumentRow | null> {
  const [row] = await db.select().from(consentDocuments).where(eq(consentDocuments.systemKey, systemKey));
  return row ?? null;
}

export async function listVersions(
  db: Database,
  documentIds: readonly string[],
): Promise<ConsentVersionRow[]> {
  if (documentIds.length === 0) {
    return [];
  }
  return db
    .select()
    .from(consentDocumentVersions)
    .where(inArray(consentDocumentVersions.documentId, [...documentIds]))
    .orderBy(asc(consentDocumentVersions.documentId), asc(consentDocumentVersions.version));
}

export async function countSignaturesByDocument(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ documentId: consentDocumentVersions.documentId, count: count() })
    .from(consentSignatures)
    .innerJoin(consentDocumentVersions, eq(consentDocumentVersions.id, consentSignatures.versionId))
    .groupBy(consentDocumentVersions.documentId);
  return new Map(rows.map((row) => [row.documentId, row.count]));
}

/** Per version, how many patients hold a signature of it that is not withdrawn. */
export async function countActiveSignersByVersion(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .select({ versionId: consentSignatures.versionId, count: countDistinct(consentSignatures.patientUserId) })
    .from(consentSignatures)
    .where(isNull(consentSignatures.withdrawnAt))
    .groupBy(consentSignatures.versionId);
  return new Map(rows.map((row) => [row.versionId, row.count]));
}

/** Creates a document (returns null when its system key already exists: the seed ran before). */
export async function insertDocument(
  db: Database,
  values: typeof consentDocuments.$inferInsert,
): Promise<ConsentDocumentRow | null> {
  const [row] = await db.insert(consentDocuments).values(values).onConflictDoNothing().returning();
  return row ?? null;
}

/**
 * The next version of a document: numbered from the highest one under a row lock on the document,
 * so two administrators publishing at once get consecutive numbers.
 */
export async function insertNextVersion(
  db: Database,
  values: Omit<typeof consentDocumentVersions.$inferInsert, 'version'>,
): Promise<ConsentVersionRow> {
  await db.execute(sql`select 1 from consent_documents where id = ${values.documentId} for update`);
  const [last] = await db
    .select({ version: consentDocumentVersions.version })
    .from(consentDocumentVersions)
    .where(eq(consentDocumentVersions.documentId, values.documentId))
    .orderBy(desc(consentDocumentVersions.version))
    .limit(1);
  const [row] = await db
    .insert(consentDocumentVersions)
    .values({ ...values, version: (last?.version ?? 0) + 1 })
    .returning();
  if (row === undefined) {
    throw new Error('insert into consent_document_versions returned nothing');
  }
  return row;
}

export async function findVersion(db: Database, versionId: string): Promise<ConsentVersionRow | null> {
  const [row] = await db
    .select()
    .from(consentDocumentVersions)
    .where(eq(consentDocumentVersions.id, versionId));
  return row ?? null;
}

export async function insertSignature(
  db: Database,
  values: typeof consentSignatures.$inferInsert,
): Promise<ConsentSignatureRow> {
  const [row] = await db.insert(consentSignatures).values(values).returning();
  if (row === undefined) {
    throw new Error('insert into consent_signatures returned nothing');
  }
  return row;
}

const signatureRecord = {
  signature: consentSignatures,
  version: consentDocumentVersions,
  document: consentDocuments,
};

/** A patient's signatures, newest first, with what they signed. */
export async function listPatientSignatures(db: Database, patientUserId: string): Promise<SignatureRecord[]> {
  return db
    .select(signatureRecord)
    .from(consentSignatures)
    .innerJoin(consentDocumentVersions, eq(consentDocumentVersions.id, consentSignatures.versionId))
    .innerJoin(consentDocuments, eq(consentDocuments.id, consentDocumentVersions.documentId))
    .where(eq(consentSignatures.patientUserId, patientUserId))
    .orderBy(desc(consentSignatures.signedAt), desc(consentSignatures.id));
}

export async function findSignatureRecord(db: Database, id: string): Promise<SignatureRecord | null> {
  const [row] = await db
    .select(signatureRecord)
    .from(consentSignatures)
    .innerJoin(consentDocumentVersions, eq(consentDocumentVersions.id, consentSignatures.versionId))
    .innerJoin(consentDocuments, eq(consentDocuments.id, consentDocumentVersions.documentId))
    .where(eq(consentSignatures.id, id));
  return row ?? null;
}

export async function findSignatureByCode(db: Database, code: string): Promise<SignatureRecord | null> {
  const [row] = await db
    .select(signatureRecord)
    .from(consentSignatures)
    .innerJoin(consentDocumentVersions, eq(consentDocumentVersions.id, consentSignatures.versionId))
    .innerJoin(consentDocuments, eq(consentDocuments.id, consentDocumentVersions.documentId))
    .where(eq(consentSignatures.verificationCode, code));
  return row ?? null;
}

/** Stamps the withdrawal once; null when it was already withdrawn. */
export async function markWithdrawn(
  db: Database,
  id: string,
  at: Date,
  reason: string,
): Promise<ConsentSignatureRow | null> {
  const [row] = await db
    .update(consentSignatures)
    .set({ withdrawnAt: at, withdrawalReason: reason })
    .where(and(eq(consentSignatures.id, id), isNull(consentSignatures.withdrawnAt)))
    .returning();
  return row ?? null;
}

/** The signer as the PDF names them: name, language and zone of the account. */
export async function findSigner(
  db: Database,
  userId: string,
): Promise<{ id: string; name: string; language: string; timeZone: string } | null> {
  const [row] = await db
    .select({ id: users.id, name: users.name, language: users.language, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/** When the account ticked the telemedicine consent at registration (latest), if it did. */
export async function findTelemedicineAcceptance(db: Database, userId: string): Promise<Date | null> {
  const [row] = await db
    .select({ acceptedAt: consents.acceptedAt })
    .from(consents)
    .where(and(eq(consents.userId, userId), eq(consents.kind, 'telemedicine')))
    .orderBy(desc(consents.acceptedAt))
    .limit(1);
  return row?.acceptedAt ?? null;
}

/** Doctors with a visit still to come with the patient (to be told of a withdrawal). */
export async function listUpcomingDoctors(
  db: Database,
  patientUserId: string,
  now: Date,
): Promise<{ doctorUserId: string; appointmentId: string; startsAt: Date }[]> {
  const rows = await db
    .select({
      doctorUserId: appointments.doctorUserId,
      appointmentId: appointments.id,
      startsAt: appointments.startsAt,
    })
    .from(appointments)
    .where(
      and(
        eq(appointments.patientUserId, patientUserId),
        gt(appointments.endsAt, now),
        inArray(appointments.status, ['requested', 'confirmed', 'checked_in', 'in_progress']),
      ),
    )
    .orderBy(asc(appointments.startsAt));
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.doctorUserId) && seen.add(row.doctorUserId) !== undefined);
}
