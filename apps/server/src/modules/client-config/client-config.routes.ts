import { clientConfigResponseSchema } from '@telemedicina/shared/api';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { presentClientConfig } from './client-config.presenter.js';
import { getClientConfig, type ClientConfigContext } from './client-config.service.js';

/** `GET /config`: public client configuration (real-time port and path, languages, the clinic's public settings). */
export const clientConfigRoutes: FastifyPluginCallbackZod<ClientConfigContext> = (app, options, done) => {
  const context: ClientConfigContext = { version: options.version, getRealtimePort: options.getRealtimePort };
  app.get(
    '/config',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Public client configuration',
        response: { 200: clientConfigResponseSchema },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-cache');
      // `app.services` is decorated on the root app before any route plugin.
      return presentClientConfig(await getClientConfig(context, app.services));
    },
  );
  done();
};
