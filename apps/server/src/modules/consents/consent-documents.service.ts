import type {
  ConsentDocument,
  ConsentDocumentAdmin,
  ConsentDocumentAdminList,
  CreateConsentDocumentRequest,
  PublishConsentVersionRequest,
} from '@telemedicina/shared/consents';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import { type ServiceContext, requireActor } from '../context.js';
import { auditIn } from './consent-audit.js';
import { consentNotFound } from './consents.policy.js';
import { presentAdminDocument, presentDocument } from './consents.presenter.js';
import {
  countActiveSignersByVersion,
  countSignaturesByDocument,
  findDocumentWithCurrent,
  insertDocument,
  insertNextVersion,
  listDocumentsWithCurrent,
  listVersions,
} from './consents.repository.js';
import {
  dataProcessingConsentText,
  telemedicineConsentKey,
  telemedicineConsentText,
} from './consent-texts.js';

/**
 * System data applied at every start (idempotent): the telemedicine consent, version 1, so a
 * patient can always sign it. An existing document is left as the clinic edited it.
 */
export async function seedSystemConsentDocuments(db: Database, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const document = await insertDocument(tx, {
      kind: 'telemedicine',
      systemKey: telemedicineConsentKey,
      createdAt: now,
    });
    if (document !== null) {
      await insertNextVersion(tx, { documentId: document.id, ...telemedicineConsentText, publishedAt: now });
    }
  });
}

/** The demo clinic's data-processing consent (inside the demo seed's transaction). */
export async function seedDemoConsentDocuments(db: Database, now: Date): Promise<void> {
  const document = await insertDocument(db, { kind: 'data_processing', createdAt: now });
  if (document !== null) {
    await insertNextVersion(db, { documentId: document.id, ...dataProcessingConsentText, publishedAt: now });
  }
}

/** `GET /consent-documents/:id`: the current version, for anyone signed in (the clinic's text). */
export async function getConsentDocument(ctx: ServiceContext, id: string): Promise<ConsentDocument> {
  requireActor(ctx);
  const row = isUuid(id) ? await findDocumentWithCurrent(ctx.db, id) : null;
  if (row === null) {
    throw consentNotFound();
  }
  return presentDocument(row);
}

/** `GET /admin/consent-documents`: every document, its current text, versions and signatures count. */
export async function listConsentDocumentsForAdmin(ctx: ServiceContext): Promise<ConsentDocumentAdminList> {
  requireActor(ctx);
  const rows = await listDocumentsWithCurrent(ctx.db);
  const versions = await listVersions(
    ctx.db,
    rows.map((row) => row.document.id),
  );
  const counts = await countSignaturesByDocument(ctx.db);
  const signers = await countActiveSignersByVersion(ctx.db);
  return {
    items: rows.map((row) =>
      presentAdminDocument(
        row,
        versions.filter((version) => version.documentId === row.document.id),
        counts.get(row.document.id) ?? 0,
        signers.get(row.current.id) ?? 0,
      ),
    ),
  };
}

async function adminDocument(db: Database, id: string): Promise<ConsentDocumentAdmin> {
  const row = await findDocumentWithCurrent(db, id);
  if (row === null) {
    throw consentNotFound();
  }
  const counts = await countSignaturesByDocument(db);
  const signers = await countActiveSignersByVersion(db);
  return presentAdminDocument(
    row,
    await listVersions(db, [id]),
    counts.get(id) ?? 0,
    signers.get(row.current.id) ?? 0,
  );
}

/** `POST /admin/consent-documents`: a new document with its version 1. */
export async function createConsentDocument(
  ctx: ServiceContext,
  request: CreateConsentDocumentRequest,
): Promise<ConsentDocumentAdmin> {
  const actor = requireActor(ctx);
  const now = ctx.now();
  const id = await ctx.db.transaction(async (tx) => {
    const document = await insertDocument(tx, {
      kind: request.kind,
      createdAt: now,
      createdByUserId: actor.userId,
    });
    if (document === null) {
      throw appError('CONFLICT', 'The document could not be created.');
    }
    const version = await insertNextVersion(tx, {
      documentId: document.id,
      titleEs: request.titleEs,
      titleEn: request.titleEn,
      bodyEs: request.bodyEs,
      bodyEn: request.bodyEn,
      publishedAt: now,
      publishedByUserId: actor.userId,
    });
    await auditIn(ctx, tx, {
      action: 'consent.document_published',
      targetType: 'settings',
      targetId: null,
      details: {
        documentId: document.id,
        versionId: version.id,
        version: version.version,
        kind: request.kind,
      },
    });
    return document.id;
  });
  return adminDocument(ctx.db, id);
}

/**
 * `POST /admin/consent-documents/:id/versions`: publishes a change as the next version. Earlier
 * versions stay (signatures refer to them); patients who signed one are asked again.
 */
export async function publishConsentVersion(
  ctx: ServiceContext,
  id: string,
  request: PublishConsentVersionRequest,
): Promise<ConsentDocumentAdmin> {
  const actor = requireActor(ctx);
  const existing = isUuid(id) ? await findDocumentWithCurrent(ctx.db, id) : null;
  if (existing === null) {
    throw consentNotFound();
  }
  const unchanged =
    existing.current.titleEs === request.titleEs &&
    existing.current.titleEn === request.titleEn &&
    existing.current.bodyEs === request.bodyEs &&
    existing.current.bodyEn === request.bodyEn;
  if (unchanged) {
    throw appError('UNPROCESSABLE', 'Nothing changed: a new version needs a different text.', {
      reason: 'consents.unchanged',
    });
  }
  await ctx.db.transaction(async (tx) => {
    const version = await insertNextVersion(tx, {
      documentId: id,
      titleEs: request.titleEs,
      titleEn: request.titleEn,
      bodyEs: request.bodyEs,
      bodyEn: request.bodyEn,
      publishedAt: ctx.now(),
      publishedByUserId: actor.userId,
    });
    await auditIn(ctx, tx, {
      action: 'consent.document_published',
      targetType: 'settings',
      targetId: null,
      details: { documentId: id, versionId: version.id, version: version.version },
    });
  });
  return adminDocument(ctx.db, id);
}
