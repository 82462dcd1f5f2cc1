import { createHash } from 'node:crypto';
import type { UploadFileKind } from '@telemedicina/shared/clinic-settings';
import {
  documentMaxImagePixels,
  type ChartDocument,
  type DocumentCategory,
  type DocumentListQuery,
  type DocumentPage,
} from '@telemedicina/shared/documents';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { sniffImage } from '../../lib/image-sniff.js';
import { type ServiceContext, requireActor } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { insertFile } from '../files/files.repository.js';
import type { ChartGrant } from './records.policy.js';
import { loadUploadLimits, type UploadLimits } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { mimeTypeOf, sniffDocument, uploadKindExtensions } from '../../lib/document-sniff.js';
import { authorizeDocumentRead, authorizeDocumentUpload, canRemoveDocument } from './documents.policy.js';
import { presentDocument } from './documents.presenter.js';
import {
  findDocument,
  insertDocument,
  listDocuments,
  markDocumentRemoved,
  type DocumentRow,
} from './documents.repository.js';
import { documentLabelOf } from '../../lib/document-label.js';

/** What the route read from the multipart request, once the caller was allowed to send it. */
export interface DocumentUpload {
  bytes: Buffer;
  fileName: string | undefined;
  category: DocumentCategory;
}

/**
 * Reads the upload from the request. Called only after authorization, with the clinic's
 * limits, so nothing is read for a caller who may not upload and no more than the limit is read.
 */
export type ReadDocumentUpload = (limits: UploadLimits) => Promise<DocumentUpload>;

/** What every document audit event carries about how the chart was reached. */
function accessDetails(grant: ChartGrant): Record<string, unknown> {
  return grant.emergency === null
    ? { access: grant.access, emergency: false }
    : { access: grant.access, emergency: true, emergencyAccessId: grant.emergency.accessId };
}

function documentNotFound(): AppError {
  return appError('NOT_FOUND', 'No such document.');
}

/** Pixel size of the image kinds a browser can show, read from the header (no decoding). */
function imageSizeOf(kind: UploadFileKind, bytes: Buffer): { width: number; height: number } | null {
  if (kind === 'png' || kind === 'jpeg' || kind === 'webp') {
    const sniffed = sniffImage(bytes);
    return sniffed.kind === 'image' ? { width: sniffed.width, height: sniffed.height } : null;
  }
  if (kind === 'gif' && bytes.length >= 10) {
    // Logical screen descriptor: width and height, 16-bit little-endian, after "GIF8xa".
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  }
  return null;
}

/**
 * Text that a browser could take for markup (HTML, SVG, XML): refused even when plain text is an
 * allowed kind, so an HTML page renamed `.pdf` or `.txt` never enters a chart.
 */
function looksLikeMarkup(bytes: Buffer): boolean {
  const head = bytes.toString('utf8', 0, Math.min(bytes.length, 4096)).replace(/^\uFEFF/, '');
  return /^\s*</.test(head) || /<\s*(?:script|html|svg|iframe|body|object|embed|!doctype)\b/i.test(head);
}

/**
 * Checks the bytes against the clinic's limits and recognises them by content: 413 too large,
 * 415 a kind not allowed (or markup), 422 `IMAGE_TOO_LARGE` for a canvas beyond
 * `documentMaxImagePixels` (checked from the header before anything decodes it).
 */
function checkUpload(
  bytes: Buffer,
  limits: UploadLimits,
): { kind: UploadFileKind; width: number | null; height: number | null } {
  if (bytes.length > limits.maxFileSizeBytes) {
    throw appError('PAYLOAD_TOO_LARGE', 'The file is too large.', {
      maxBytes: limits.maxFileSizeBytes,
    });
  }
  const kind = sniffDocument(bytes);
  if (kind === null || !limits.allowedKinds.includes(kind) || (kind === 'txt' && looksLikeMarkup(bytes))) {
    throw appError('UNSUPPORTED_MEDIA_TYPE', 'This kind of file cannot be added to the chart.', {
      accepted: limits.allowedKinds,
    });
  }
  const size = imageSizeOf(kind, bytes);
  if (size !== null && size.width * size.height > documentMaxImagePixels) {
    throw appError(
      'IMAGE_TOO_LARGE',
      `The image is too large: at most ${documentMaxImagePixels.toLocaleString('en')} pixels.`,
      { width: size.width, height: size.height, maxPixels: documentMaxImagePixels },
    );
  }
  return { kind, width: size?.width ?? null, height: size?.height ?? null };
}

/**
 * `POST /patients/:patientId/documents`: the patient into their own chart, or a doctor who treats
 * the patient (or holds emergency access). Authorization comes first; then the upload is read
 * within the clinic's limits, recognised by content, stored under a generated name, and recorded
 * (`files` + `chart_documents` in one transaction). A refusal stores nothing; a failure after the
 * bytes were written removes them.
 */
export async function uploadDocument(
  ctx: ServiceContext,
  storage: FileStorage,
  patientId: string,
  readUpload: ReadDocumentUpload,
): Promise<ChartDocument> {
  const actor = requireActor(ctx);
  const grant = await authorizeDocumentUpload(ctx.db, actor, patientId, ctx.now());
  const limits = await loadUploadLimits(ctx.db);
  const upload = await readUpload(limits);
  const checked = checkUpload(upload.bytes, limits);
  const name = documentLabelOf(upload.fileName, checked.kind);
  const contentType = mimeTypeOf(checked.kind);
  const storagePath = await storage.write('documents', uploadKindExtensions[checked.kind], upload.bytes);
  const now = ctx.now();
  let documentId: string;
  let fileId: string;
  try {
    ({ documentId, fileId } = await ctx.db.transaction(async (tx) => {
      const file = await insertFile(tx, {
        ownerUserId: patientId,
        sha256: createHash('sha256').update(upload.bytes).digest('hex'),
        contentType,
        size: upload.bytes.length,
        width: checked.width,
        height: checked.height,
        storagePath,
        createdAt: now,
      });
      const id = await insertDocument(tx, {
        patientUserId: patientId,
        fileId: file.id,
        kind: 'upload',
        category: upload.category,
        name,
        uploadedByUserId: actor.userId,
        createdAt: now,
      });
      return { documentId: id, fileId: file.id };
    }));
  } catch (error) {
    await storage.remove(storagePath);
    throw error;
  }
  await ctx.audit({
    action: 'document.uploaded',
    targetType: 'patient',
    targetId: patientId,
    details: {
      documentId,
      fileId,
      category: upload.category,
      contentType,
      size: upload.bytes.length,
      ...accessDetails(grant),
    },
  });
  const row = await findDocument(ctx.db, patientId, documentId);
  if (row === null) {
    throw new Error('the document just stored was not found');
  }
  return presentDocument(row, canRemoveDocument(actor, grant, row));
}

/** The chart's document list (shared with `readChart`): the caller's removal rights included. */
export async function listChartDocuments(
  ctx: ServiceContext,
  grant: ChartGrant,
  filter: { includeRemoved: boolean; category?: DocumentCategory; q?: string; limit: number; offset: number },
): Promise<{ data: ChartDocument[]; total: number }> {
  const actor = requireActor(ctx);
  const { rows, total } = await listDocuments(ctx.db, { patientId: grant.patient.id, ...filter });
  return { data: rows.map((row) => presentDocument(row, canRemoveDocument(actor, grant, row))), total };
}

/** `GET /patients/:patientId/documents`: the patient's own, or any for a treating/emergency doctor. Audited. */
export async function listPatientDocuments(
  ctx: ServiceContext,
  patientId: string,
  query: DocumentListQuery,
): Promise<DocumentPage> {
  const actor = requireActor(ctx);
  const grant = await authorizeDocumentRead(ctx.db, actor, patientId, ctx.now());
  const includeRemoved = query.include === 'removed';
  const { data, total } = await listChartDocuments(ctx, grant, {
    includeRemoved,
    category: query.category,
    q: query.q,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'documents',
      page: query.page,
      count: data.length,
      includeRemoved,
      ...accessDetails(grant),
    },
  });
  return { data, page: query.page, pageSize: query.pageSize, total };
}

/** Types the app previews in the page (image viewer, PDF frame); everything else is downloaded. */
const inlineContentTypes: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);

export function isShownInline(contentType: string): boolean {
  return inlineContentTypes.has(contentType);
}

/**
 * `GET /patients/:patientId/documents/:documentId/file`: the bytes of a live document for the
 * chart's clinical readers (removed ones: 404). Audited as `record.viewed` with the document id.
 */
export async function readDocumentFile(
  ctx: ServiceContext,
  storage: FileStorage,
  patientId: string,
  documentId: string,
  wantsDownload: boolean,
): Promise<{ bytes: Buffer; document: DocumentRow; disposition: 'inline' | 'attachment' }> {
  const actor = requireActor(ctx);
  const grant = await authorizeDocumentRead(ctx.db, actor, patientId, ctx.now());
  const document = isUuid(documentId) ? await findDocument(ctx.db, patientId, documentId) : null;
  if (document === null || document.removedAt !== null) {
    throw documentNotFound();
  }
  const disposition = !wantsDownload && isShownInline(document.contentType) ? 'inline' : 'attachment';
  const bytes = await storage.read(document.storagePath);
  await ctx.audit({
    action: 'record.viewed',
    targetType: 'patient',
    targetId: patientId,
    details: { section: 'document', documentId, disposition, ...accessDetails(grant) },
  });
  return { bytes, document, disposition };
}

/**
 * `DELETE /patients/:patientId/documents/:documentId`: stamps the document removed (kept for the
 * record). The uploader or a treating doctor; a visit summary → 409 (it is part of a signed note);
 * someone else's upload → 403. Audited as `document.removed`.
 */
export async function removeDocument(
  ctx: ServiceContext,
  patientId: string,
  documentId: string,
): Promise<void> {
  const actor = requireActor(ctx);
  const grant = await authorizeDocumentRead(ctx.db, actor, patientId, ctx.now());
  const document = isUuid(documentId) ? await findDocument(ctx.db, patientId, documentId) : null;
  if (document === null || document.removedAt !== null) {
    throw documentNotFound();
  }
  if (document.kind === 'visit_summary') {
    throw appError('CONFLICT', 'A visit summary is part of a signed note and cannot be removed.', {
      reason: 'visitSummary',
    });
  }
  if (!canRemoveDocument(actor, grant, document)) {
    throw appError(
      'FORBIDDEN',
      'Only the person who added this document or a treating doctor may remove it.',
    );
  }
  const isRemoved = await markDocumentRemoved(ctx.db, document.id, {
    userId: actor.userId,
    at: ctx.now(),
  });
  if (!isRemoved) {
    throw documentNotFound();
  }
  await ctx.audit({
    action: 'document.removed',
    targetType: 'patient',
    targetId: patientId,
    details: { documentId: document.id, category: document.category, ...accessDetails(grant) },
  });
}
