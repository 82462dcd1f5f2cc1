import { Readable } from 'node:stream';
import { adminRecordExportRequestSchema } from '@telemedicina/shared/export';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { contentDisposition } from '../outbox/outbox.service.js';
import { exportOwnRecord, exportPatientRecord, type RecordExportDownload } from './export.service.js';

/**
 * An export reads the whole record and writes a ZIP file: a few per user and minute, keyed by the
 * signed-in user (shared by instances through Redis when REDIS_URL is set).
 */
export const exportRateLimit = {
  max: 3,
  timeWindow: 60_000,
  keyGenerator: (request: FastifyRequest): string => `record-export:${request.actor?.userId ?? request.ip}`,
} as const;

const zipResponse = {
  200: {
    description: 'A ZIP file (record.json, README.txt, prescriptions/, summaries/, documents/); streamed',
    content: { 'application/zip': { schema: z.string() } },
  },
};

function sendZip(reply: FastifyReply, download: RecordExportDownload, log: FastifyRequest['log']) {
  const body = Readable.from(download.chunks);
  body.on('error', (error) => log.error({ err: error }, 'record export failed while streaming'));
  void reply
    .header('content-type', 'application/zip')
    .header('content-disposition', contentDisposition(download.fileName))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  // A stream bypasses the response serializer; the schema only documents the body.
  return reply.send(body);
}

/** The record export: the patient's own copy, and an administrator's copy on request. */
export const exportRoutes: FastifyPluginCallbackZod<{ services: AppServices; storage: FileStorage }> = (
  app,
  { services, storage },
  done,
) => {
  app.get(
    '/me/record/export',
    {
      config: { access: { anyOf: ['records.read.own'] }, rateLimit: exportRateLimit },
      schema: {
        tags: ['records'],
        summary: 'Download my whole medical record as a ZIP file (JSON, README and PDFs)',
        response: { ...zipResponse, ...errorResponses(401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      sendZip(reply, await exportOwnRecord(contextFor(services, request), storage), request.log),
  );

  app.post(
    '/patients/:patientId/export',
    {
      config: { access: { anyOf: ['records.export'] }, rateLimit: exportRateLimit },
      schema: {
        tags: ['records'],
        summary: "Export a patient's whole record as a ZIP file, stating why (audited; the patient is told)",
        params: z.object({ patientId: z.string().max(64) }),
        body: adminRecordExportRequestSchema,
        response: { ...zipResponse, ...errorResponses(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      sendZip(
        reply,
        await exportPatientRecord(
          contextFor(services, request),
          storage,
          request.params.patientId,
          request.body,
        ),
        request.log,
      ),
  );

  done();
};
