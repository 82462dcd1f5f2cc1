import { errorResponseSchema } from '@telemedicina/shared/api';
import { globalSearchQuerySchema, globalSearchResponseSchema } from '@telemedicina/shared/search';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { presentGlobalSearch } from './search.presenter.js';
import { searchEverything } from './search.service.js';

/** `GET /search?q=`: the header's global search, each group limited to what the caller may see. */
export const searchRoutes: FastifyPluginCallbackZod<{ services: AppServices }> = (
  app,
  { services },
  done,
) => {
  app.get(
    '/search',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['search'],
        summary:
          'Users, patients and appointments matching q (at most 5 each; groups the caller may not see are absent)',
        querystring: globalSearchQuerySchema,
        response: { 200: globalSearchResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return presentGlobalSearch(await searchEverything(contextFor(services, request), request.query));
    },
  );
  done();
};
