import { dashboardQuerySchema, dashboardResponseSchema } from '@telemedicina/shared/admin';
import { errorResponseSchema } from '@telemedicina/shared/api';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { presentDashboard } from './dashboard.presenter.js';
import { getDashboard } from './dashboard.service.js';

/** `GET /dashboard` (`dashboard.admin`): the clinic's counts and series over a date range. */
export const dashboardRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/dashboard',
    {
      config: { access: { anyOf: ['dashboard.admin'] } },
      schema: {
        tags: ['dashboard'],
        summary:
          'Appointments per day by status, no-show rate, average wait, new patients, visits per doctor (inclusive dates in the clinic time zone; default the last 30 days; at most 366)',
        querystring: dashboardQuerySchema,
        response: {
          200: dashboardResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return presentDashboard(await getDashboard(contextFor(services, request), request.query));
    },
  );
  done();
};
