import multipart, { type MultipartFile } from '@fastify/multipart';
import {
  chartDocumentSchema,
  documentFileFieldName,
  documentFileQuerySchema,
  documentListQuerySchema,
  documentPageSchema,
  uploadDocumentFieldsSchema,
} from '@telemedicina/shared/documents';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import type { UploadLimits } from '../settings/settings.service.js';
import { contentDispositionOf } from './documents.presenter.js';
import {
  listPatientDocuments,
  readDocumentFile,
  removeDocument,
  uploadDocument,
  type DocumentUpload,
} from './documents.service.js';

const patientParams = z.object({ patientId: z.string().max(64) });
const documentParams = z.object({ patientId: z.string().max(64), documentId: z.string().max(64) });

/** The chart's clinical readers; the policy narrows this to the patient and their doctors. */
const readDocuments = { anyOf: ['records.read.own', 'records.read'] } as const;
const uploadDocuments = { anyOf: ['documents.upload'] } as const;

/** Largest upload the multipart parser reads at all; the clinic's own (lower) limit is applied per request. */
const maxUploadBytes = 100 * 1024 * 1024;
/** Room for the multipart envelope (boundaries, part headers, the category field) beyond the file itself. */
const multipartOverheadBytes = 64 * 1024;

/** CSP of a document answer: nothing loads or runs, framed only by the app's own pages. */
const inlineDocumentPolicy =
  "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox";
const attachmentDocumentPolicy = "default-src 'none'; frame-ancestors 'none'; sandbox";

function validationFailed(path: string, message: string): AppError {
  return appError('VALIDATION_FAILED', 'The upload is not valid.', {
    issues: [{ location: 'body', path, code: 'invalid', message }],
  });
}

function tooLarge(limits: UploadLimits): AppError {
  return appError('PAYLOAD_TOO_LARGE', 'The file is too large.', {
    maxBytes: limits.maxFileSizeBytes,
  });
}

function isFileTooLarge(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE'
  );
}

/**
 * Reads the one file of a document upload, with the text fields sent before it. A declared body
 * far beyond the limit is refused before reading; past the limit busboy stops keeping bytes and
 * the upload is refused (413) — nothing is buffered beyond the clinic's limit.
 */
async function readMultipartUpload(request: FastifyRequest, limits: UploadLimits): Promise<DocumentUpload> {
  if (!request.isMultipart()) {
    throw appError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the document as multipart/form-data in the field "${documentFileFieldName}".`,
    );
  }
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > limits.maxFileSizeBytes + multipartOverheadBytes) {
    throw tooLarge(limits);
  }
  let part: MultipartFile | undefined;
  try {
    part = await request.file({ limits: { fileSize: limits.maxFileSizeBytes, files: 1, fields: 4 } });
  } catch (error) {
    throw isFileTooLarge(error) ? tooLarge(limits) : error;
  }
  if (part?.fieldname !== documentFileFieldName) {
    throw validationFailed(documentFileFieldName, 'validation.required');
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    if (name === documentFileFieldName || value === undefined) {
      continue;
    }
    const single = Array.isArray(value) ? value[0] : value;
    if (single?.type === 'field') {
      fields[name] = String(single.value);
    }
  }
  const parsed = uploadDocumentFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw validationFailed(String(issue?.path[0] ?? 'category'), issue?.message ?? 'validation.invalid');
  }
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (error) {
    throw isFileTooLarge(error) ? tooLarge(limits) : error;
  }
  return { bytes, fileName: part.filename, category: parsed.data.category };
}

/**
 * Chart documents: upload, list, read the bytes, remove. Every read is audited as
 * `record.viewed` on the patient; uploads and removals as `document.uploaded` / `document.removed`.
 */
export const documentsRoutes: FastifyPluginAsyncZod<{ services: AppServices; storage: FileStorage }> = async (
  app,
  { services, storage },
) => {
  await app.register(multipart, {
    limits: { fileSize: maxUploadBytes, files: 1, fields: 4, parts: 5, headerPairs: 50 },
  });

  app.post(
    '/patients/:patientId/documents',
    {
      config: { access: uploadDocuments },
      schema: {
        tags: ['documents'],
        summary:
          'Add a document to the chart (multipart: optional `category` first, then `file`; limits and kinds from the upload settings, recognised by content)',
        params: patientParams,
        consumes: ['multipart/form-data'],
        response: {
          201: chartDocumentSchema,
          ...errorResponses(400, 401, 403, 404, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      const document = await uploadDocument(
        contextFor(services, request),
        storage,
        request.params.patientId,
        (limits) => readMultipartUpload(request, limits),
      );
      return reply.status(201).send(document);
    },
  );

  app.get(
    '/patients/:patientId/documents',
    {
      config: { access: readDocuments },
      schema: {
        tags: ['documents'],
        summary: "The chart's documents, newest first (the patient's own; a treating or emergency doctor's)",
        params: patientParams,
        querystring: documentListQuerySchema,
        response: { 200: documentPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) =>
      listPatientDocuments(contextFor(services, request), request.params.patientId, request.query),
  );

  app.get(
    '/patients/:patientId/documents/:documentId/file',
    {
      config: { access: readDocuments },
      schema: {
        tags: ['documents'],
        summary:
          'The bytes of a document (inline for images and PDFs, `?download=1` for an attachment); others 404',
        params: documentParams,
        querystring: documentFileQuerySchema,
      },
    },
    async (request, reply) => {
      const { bytes, document, disposition } = await readDocumentFile(
        contextFor(services, request),
        storage,
        request.params.patientId,
        request.params.documentId,
        request.query.download === '1',
      );
      const isInline = disposition === 'inline';
      return reply
        .header('content-type', document.contentType)
        .header('content-length', String(bytes.length))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDispositionOf(document.name, disposition))
        .header('content-security-policy', isInline ? inlineDocumentPolicy : attachmentDocumentPolicy)
        .header('x-frame-options', isInline ? 'SAMEORIGIN' : 'DENY')
        .send(bytes);
    },
  );

  app.delete(
    '/patients/:patientId/documents/:documentId',
    {
      config: { access: readDocuments },
      schema: {
        tags: ['documents'],
        summary:
          'Remove a document (kept for the record): its uploader or a treating doctor; visit summaries 409',
        params: documentParams,
        response: { 204: z.null().describe('Removed'), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await removeDocument(
        contextFor(services, request),
        request.params.patientId,
        request.params.documentId,
      );
      return reply.status(204).send(null);
    },
  );
};
