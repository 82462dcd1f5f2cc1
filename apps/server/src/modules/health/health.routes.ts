import { errorResponseSchema, healthResponseSchema } from '@telemedicina/shared/api';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { DatabaseClient } from '../../db/client.js';
import { compiledResponseSerializerCompiler } from '../../http/response-serializer.js';
import { createDatabasePinger } from './health.repository.js';
import { presentHealth } from './health.presenter.js';
import { checkHealth } from './health.service.js';

export interface HealthRoutesOptions {
  database: DatabaseClient;
  version: string;
  startedAt: Date;
  now: () => Date;
}

/**
 * `GET /health`: version, uptime and a real database round trip (reused for
 * up to a second, see {@link createDatabasePinger}); 503 when the database is down.
 */
export const healthRoutes: FastifyPluginCallbackZod<HealthRoutesOptions> = (app, options, done) => {
  const context = {
    databaseKind: options.database.kind,
    checkDatabase: createDatabasePinger(options.database, { now: options.now }),
    startedAt: options.startedAt,
    now: options.now,
    version: options.version,
  };

  app.get(
    '/health',
    {
      config: { access: 'public' },
      // Monitoring probes call this route more than any other.
      serializerCompiler: compiledResponseSerializerCompiler,
      schema: {
        tags: ['system'],
        summary: 'Liveness and database round trip',
        response: { 200: healthResponseSchema, 503: errorResponseSchema },
      },
    },
    (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      // Synchronous while the last round trip is fresh: no promise on the hot path.
      const report = checkHealth(context);
      return report instanceof Promise ? report.then(presentHealth) : presentHealth(report);
    },
  );
  done();
};
