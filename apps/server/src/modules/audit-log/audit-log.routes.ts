import { Readable } from 'node:stream';
import {
  auditEventPageSchema,
  auditFacetsResponseSchema,
  auditListQuerySchema,
} from '@telemedicina/shared/admin';
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { exportAuditLog, getAuditFacets, listAuditLog } from './audit-log.service.js';
import { presentAuditEvent } from './audit-log.presenter.js';

const errors = errorResponses(400, 401, 403);

const read = { anyOf: ['audit.read'] } as const;

/** The audit log viewer (`audit.read`): pages, CSV export and filter values. Viewing is audited. */
export const auditRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (app, { services }, done) => {
  app.get(
    '/audit-events',
    {
      config: { access: read },
      schema: {
        tags: ['audit'],
        summary: 'Audit events, newest first, filtered (each call is itself audited as audit.viewed)',
        querystring: auditListQuerySchema,
        response: { 200: auditEventPageSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { rows, total } = await listAuditLog(contextFor(services, request), request.query);
      void reply.header('cache-control', 'no-store');
      return {
        data: rows.map(presentAuditEvent),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.get(
    '/audit-events/export.csv',
    {
      config: { access: read },
      schema: {
        tags: ['audit'],
        summary: 'The filtered audit log as CSV (at most 100,000 rows; audited as audit.exported)',
        querystring: auditListQuerySchema.omit({ page: true, pageSize: true }),
        response: {
          200: {
            description: 'UTF-8 CSV with a byte order mark; streamed in batches',
            content: { 'text/csv': { schema: z.string() } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { fileName, lines } = await exportAuditLog(contextFor(services, request), request.query);
      void reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store');
      // A stream bypasses the response serializer; the schema above only documents the body.
      return (reply as FastifyReply).send(Readable.from(lines));
    },
  );

  app.get(
    '/audit-events/facets',
    {
      config: { access: read },
      schema: {
        tags: ['audit'],
        summary: 'Distinct actions and record types in the log, for filter lists',
        response: { 200: auditFacetsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return getAuditFacets(contextFor(services, request));
    },
  );
  done();
};
