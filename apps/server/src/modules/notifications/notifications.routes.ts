import {
  notificationListQuerySchema,
  notificationPageSchema,
  notificationSchema,
  notificationsReadAllResultSchema,
} from '@telemedicina/shared/notifications';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { listMyNotifications, readAllNotifications, readNotification } from './notifications.service.js';

const errors = errorResponses(400, 401, 403, 404);
const idParams = z.object({ id: z.string().max(64) });

/** The signed-in user's in-app notifications. */
export const notificationsRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/notifications',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Own notifications, newest first, with the unread count',
        querystring: notificationListQuerySchema,
        response: { 200: notificationPageSchema, ...errors },
      },
    },
    async (request) => listMyNotifications(contextFor(services, request), request.query),
  );

  app.post(
    '/notifications/read-all',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Mark every own notification read',
        response: { 200: notificationsReadAllResultSchema, ...errors },
      },
    },
    async (request) => readAllNotifications(contextFor(services, request)),
  );

  app.post(
    '/notifications/:id/read',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['notifications'],
        summary: 'Mark one own notification read (404 for anyone else’s)',
        params: idParams,
        response: { 200: notificationSchema, ...errors },
      },
    },
    async (request) => readNotification(contextFor(services, request), request.params.id),
  );

  done();
};
