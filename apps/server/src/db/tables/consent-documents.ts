import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { files } from './files.js';
import { users } from './identity.js';
import { chartDocuments } from './notes.js';

const instant = () => timestamp({ withTimezone: true, mode: 'date' });

export type ConsentDocumentKind = 'telemedicine' | 'data_processing' | 'procedure';

/**
 * Consent documents the clinic writes. The words live in versions; `system_key` marks the ones
 * every installation has (the telemedicine consent), written by the system seed once.
 * The account's registration checkbox (`consents`, kind telemedicine) stays what it was: an
 * acceptance recorded at sign-up, not a signature of one of these documents.
 */
export const consentDocuments = pgTable(
  'consent_documents',
  {
    id: uuid().primaryKey().defaultRandom(),
    kind: text().$type<ConsentDocumentKind>().notNull(),
    systemKey: text(),
    createdAt: instant().notNull().defaultNow(),
    createdByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('consent_documents_system_key').on(table.systemKey),
    check(
      'consent_documents_kind_check',
      sql`${table.kind} in ('telemedicine', 'data_processing', 'procedure')`,
    ),
  ],
);

/** A published version of a document, both languages; never changed once written. */
export const consentDocumentVersions = pgTable(
  'consent_document_versions',
  {
    id: uuid().primaryKey().defaultRandom(),
    documentId: uuid()
      .notNull()
      .references(() => consentDocuments.id, { onDelete: 'restrict' }),
    version: integer().notNull(),
    titleEs: text().notNull(),
    titleEn: text().notNull(),
    bodyEs: text().notNull(),
    bodyEn: text().notNull(),
    publishedAt: instant().notNull(),
    publishedByUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [
    uniqueIndex('consent_document_versions_key').on(table.documentId, table.version),
    check('consent_document_versions_version_check', sql`${table.version} >= 1`),
  ],
);

/**
 * A patient's signature of one version: how (drawn PNG kept as a file, or a typed name), when,
 * from where, the SHA-256 of the exact text signed, the generated PDF and its chart document,
 * and a public verification code. A withdrawal stamps `withdrawn_at` and a reason; never deleted.
 */
export const consentSignatures = pgTable(
  'consent_signatures',
  {
    id: uuid().primaryKey().defaultRandom(),
    patientUserId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    versionId: uuid()
      .notNull()
      .references(() => consentDocumentVersions.id, { onDelete: 'restrict' }),
    language: text().$type<'es' | 'en'>().notNull(),
    method: text().$type<'drawn' | 'typed'>().notNull(),
    signatureFileId: uuid().references(() => files.id, { onDelete: 'restrict' }),
    typedName: text(),
    signerName: text().notNull(),
    signedAt: instant().notNull(),
    ip: text(),
    userAgent: text(),
    contentSha256: text().notNull(),
    pdfFileId: uuid()
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    chartDocumentId: uuid().references(() => chartDocuments.id, { onDelete: 'set null' }),
    verificationCode: text().notNull(),
    withdrawnAt: instant(),
    withdrawalReason: text(),
  },
  (table) => [
    index('consent_signatures_patient_idx').on(table.patientUserId, table.signedAt),
    uniqueIndex('consent_signatures_code_key').on(table.verificationCode),
    check('consent_signatures_method_check', sql`${table.method} in ('drawn', 'typed')`),
    check('consent_signatures_language_check', sql`${table.language} in ('es', 'en')`),
    check(
      'consent_signatures_signature_check',
      sql`(${table.method} = 'drawn' and ${table.signatureFileId} is not null) or (${table.method} = 'typed' and ${table.typedName} is not null)`,
    ),
    check(
      'consent_signatures_withdrawal_check',
      sql`(${table.withdrawnAt} is null) = (${table.withdrawalReason} is null)`,
    ),
  ],
);
