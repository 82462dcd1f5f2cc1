import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { apiBasePath } from '@telemedicina/shared/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export interface OpenApiOptions {
  version: string;
}

/** Where the OpenAPI document and its reference page are served. */
export const openApiDocumentPath = `${apiBasePath}/openapi.json`;
export const apiReferencePath = `${apiBasePath}/docs`;

/**
 * OpenAPI 3.1 generated from the same zod schemas that validate requests and
 * serialize responses, plus a reference page (Swagger UI, served from the
 * package's own files: nothing from a CDN, and no inline script, so the
 * global CSP applies unchanged). Must be registered before the routes.
 */
export const openApi = fp<OpenApiOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Telemedicina API',
          version: options.version,
          description:
            'REST API of Telemedicina. Errors answer `{ "error": { "code", "message", "details"? } }`. ' +
            'Requests other than GET/HEAD/OPTIONS must send `X-XSRF-TOKEN` equal to the `XSRF-TOKEN` cookie.',
        },
        servers: [],
      },
      transform: jsonSchemaTransform,
    });

    await app.register(swaggerUi, {
      routePrefix: apiReferencePath,
      uiConfig: { deepLinking: true },
      staticCSP: false,
    });

    app.get(
      openApiDocumentPath,
      { schema: { hide: true }, config: { access: 'public' } },
      (_request, reply) => {
        void reply.header('cache-control', 'no-cache').send(app.swagger());
      },
    );
  },
  { name: 'openapi' },
);
