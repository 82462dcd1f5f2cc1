import { outboxListQuerySchema } from '@telemedicina/shared/admin';
import { outboxItemSchema, outboxMessageSchema } from '@telemedicina/shared/auth';
import { pageOf } from '@telemedicina/shared/common';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { presentOutboxItem, presentOutboxMessage } from './outbox.presenter.js';
import {
  contentDisposition,
  getOutboxAttachment,
  getOutboxMessage,
  listOutboxMessages,
  safeContentType,
} from './outbox.service.js';

const errors = errorResponses(400, 401, 403, 404);

/** The email outbox, for admins (`outbox.read`). */
export const outboxRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/outbox',
    {
      config: { access: { anyOf: ['outbox.read'] } },
      schema: {
        tags: ['outbox'],
        summary: 'Stored emails, newest first; q searches recipient and subject; status filters',
        querystring: outboxListQuerySchema,
        response: { 200: pageOf(outboxItemSchema), ...errors },
      },
    },
    async (request) => {
      const { rows, total } = await listOutboxMessages(contextFor(services, request), request.query);
      return {
        data: rows.map(presentOutboxItem),
        page: request.query.page,
        pageSize: request.query.pageSize,
        total,
      };
    },
  );

  app.get(
    '/outbox/:id',
    {
      config: { access: { anyOf: ['outbox.read'] } },
      schema: {
        tags: ['outbox'],
        summary: 'One stored email with its HTML and text',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: outboxMessageSchema, ...errors },
      },
    },
    async (request) =>
      presentOutboxMessage(await getOutboxMessage(contextFor(services, request), request.params.id)),
  );

  app.get(
    '/outbox/:id/attachments/:index',
    {
      config: { access: { anyOf: ['outbox.read'] } },
      schema: {
        tags: ['outbox'],
        summary: 'The bytes of one attachment of a stored email (0-based position), as a download',
        params: z.object({
          id: z.string().max(64),
          index: z
            .string()
            .regex(/^(0|[1-9]\d{0,3})$/, { message: 'validation.integer' })
            .transform(Number),
        }),
      },
    },
    async (request, reply) => {
      const attachment = await getOutboxAttachment(
        contextFor(services, request),
        request.params.id,
        request.params.index,
      );
      return reply
        .header('content-type', safeContentType(attachment.contentType))
        .header('content-disposition', contentDisposition(attachment.filename))
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(attachment.content, 'base64'));
    },
  );
  done();
};
