import { z } from 'zod';
import { listQuerySchema, pageOf } from './common.js';

/**
 * Contracts of chart documents: files in a patient's chart, uploaded by the patient or a
 * treating doctor, or generated when a visit note is signed (visit summaries). The bytes are
 * recognised by their content on the server; a browser's file name is only a sanitized label.
 * Documents are removed by stamping them, never deleted; visit summaries cannot be removed.
 */

export const documentKinds = ['upload', 'visit_summary', 'consent'] as const;
export const documentKindSchema = z.enum(documentKinds);
export type DocumentKind = z.infer<typeof documentKindSchema>;

export const documentCategories = ['lab', 'imaging', 'referral', 'report', 'other'] as const;
export const documentCategorySchema = z.enum(documentCategories, { message: 'validation.invalid' });
export type DocumentCategory = z.infer<typeof documentCategorySchema>;

/** Multipart field holding the file of `POST /patients/:patientId/documents`. */
export const documentFileFieldName = 'file';

/**
 * Largest image canvas accepted (width × height, read from the header before any decoding):
 * a 48-megapixel phone photo passes, a 10,000 × 10,000 "image bomb" does not.
 */
export const documentMaxImagePixels = 50_000_000;

/** Who put a document in the chart, as the chart shows it. */
export const documentUploaderSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** `patient` (the chart's own patient), `doctor`, or `other` (anyone else, e.g. an administrator). */
  role: z.enum(['patient', 'doctor', 'other']),
});

export const chartDocumentSchema = z.object({
  id: z.string(),
  /** Sanitized label (never a storage path). */
  name: z.string(),
  kind: documentKindSchema,
  category: documentCategorySchema,
  /** The type the content was recognised as (not what the browser claimed). */
  contentType: z.string(),
  size: z.number().int(),
  /** Pixel size, for images. */
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Null when the uploader's account is gone, or for generated documents. */
  uploadedBy: documentUploaderSchema.nullable(),
  createdAt: z.string(),
  appointmentId: z.string().nullable(),
  removedAt: z.string().nullable(),
  /** Whether the caller may remove it (the uploader or a treating doctor; never a visit summary). */
  canRemove: z.boolean(),
});
export type ChartDocument = z.infer<typeof chartDocumentSchema>;

/**
 * `GET /patients/:patientId/documents?page&pageSize&q&category&include`: newest first; `q` searches
 * the label; `include=removed` also lists removed documents (struck through in the chart).
 */
export const documentListQuerySchema = listQuerySchema.extend({
  category: documentCategorySchema.optional(),
  include: z.enum(['removed'], { message: 'validation.invalid' }).optional(),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;

export const documentPageSchema = pageOf(chartDocumentSchema);
export type DocumentPage = z.infer<typeof documentPageSchema>;

/**
 * Text fields of the multipart upload, sent before the file: the category (default `other`).
 * Unknown fields are refused.
 */
export const uploadDocumentFieldsSchema = z
  .object({ category: documentCategorySchema.default('other') })
  .strict();
export type UploadDocumentFields = z.infer<typeof uploadDocumentFieldsSchema>;

/** `GET /patients/:patientId/documents/:documentId/file?download=1`: attachment instead of inline. */
export const documentFileQuerySchema = z
  .object({ download: z.enum(['0', '1'], { message: 'validation.invalid' }).optional() })
  .strict();
export type DocumentFileQuery = z.infer<typeof documentFileQuerySchema>;

/** Where a document's bytes are read (`GET`, same origin, session cookie). */
export function documentFileUrl(
  apiBase: string,
  patientId: string,
  documentId: string,
  options: { download?: boolean } = {},
): string {
  const url = `${apiBase}/patients/${encodeURIComponent(patientId)}/documents/${encodeURIComponent(documentId)}/file`;
  return options.download ? `${url}?download=1` : url;
}
