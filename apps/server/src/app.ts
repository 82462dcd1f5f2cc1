import rateLimit from '@fastify/rate-limit';
import { apiBasePath } from '@telemedicina/shared';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/config.js';
import type { DatabaseClient } from './db/client.js';
import { handleError } from './http/error-handler.js';
import { openApi } from './http/openapi.js';
import { generateRequestId } from './http/request-id.js';
import { securityHeaders } from './http/security-headers.js';
import { staticWeb } from './http/static-web.js';
import { xsrfProtection } from './http/xsrf.js';
import { clientConfigRoutes } from './modules/client-config/client-config.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { serverVersion } from './paths.js';
import { createRealtimeServer, type RealtimeServer } from './realtime/realtime-server.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Socket.IO server, attached to this app's HTTP server and optionally its own port. */
    realtime: RealtimeServer;
  }
}

export interface AppDependencies {
  config: Config;
  /** An open, migrated database; the caller owns it and closes it after the app. */
  db: DatabaseClient;
  now?: () => Date;
}

/** The app as tests and main see it: plain HTTP/1 server, zod type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/**
 * Builds the HTTP app and the real-time server without listening, so tests
 * can drive it with `inject` or listen on port 0. Closing the app (graceful:
 * in-flight requests finish) also closes the real-time server; the database
 * stays open for the caller to close afterwards.
 */
export async function buildApp({ config, db, now = () => new Date() }: AppDependencies): Promise<App> {
  const startedAt = now();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'],
    },
    genReqId: generateRequestId,
    requestIdHeader: false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    // While draining, requests already on an open connection are answered
    // normally (with Connection: close) instead of fastify's own 503 body,
    // which is not in the project's error shape. The database closes only
    // after the last of them.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });

  const mainPort = (): number | null => {
    const address = app.server.address();
    return address !== null && typeof address === 'object' ? address.port : null;
  };
  const realtime = createRealtimeServer({
    mainServer: app.server,
    hasSeparatePort: config.realtimePort !== null,
    allowedOrigins: config.appOrigins,
    getMainPort: mainPort,
    logger: app.log,
    now,
  });
  app.decorate('realtime', realtime);

  // Graceful close. Node's server.close() only drops connections idle at that
  // moment: a keep-alive connection whose request is still in flight would
  // stay open after its response (up to keepAliveTimeout). While closing,
  // idle connections are reaped every 50 ms, so each goes as soon as its
  // response is sent (requests arriving meanwhile get Connection: close from
  // fastify). Open WebSockets would also hold the server open: the real-time
  // server closes first. Nothing here runs per request.
  let drainTimer: NodeJS.Timeout | null = null;
  app.addHook('preClose', async () => {
    drainTimer = setInterval(() => app.server.closeIdleConnections(), 50);
    await realtime.close();
  });
  app.addHook('onClose', (_instance, done) => {
    if (drainTimer !== null) {
      clearInterval(drainTimer);
    }
    done();
  });

  const realtimePortForClients = (): number | null => {
    if (config.realtimePort === null) {
      return null;
    }
    return realtime.separatePort() ?? (config.realtimePort === 0 ? null : config.realtimePort);
  };

  await app.register(securityHeaders, {
    isProduction: config.isProduction,
    getRealtimePort: realtimePortForClients,
  });
  await app.register(xsrfProtection, { isSecure: config.isProduction });
  // Off by default; routes opt in with `config: { rateLimit: { max, timeWindow } }` (sign-in, uploads…).
  await app.register(rateLimit, { global: false });
  await app.register(openApi, { version: serverVersion });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db, version: serverVersion, startedAt, now });
      await api.register(clientConfigRoutes, {
        version: serverVersion,
        getRealtimePort: realtimePortForClients,
      });
    },
    { prefix: apiBasePath },
  );

  await app.register(staticWeb, { webDistDir: config.webDistDir });
  return app;
}

/** Fastify takes a hop count at run time but its types only know a function for it. */
function toFastifyTrustProxy(
  value: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') {
    return (_address, hop) => hop < value;
  }
  return value;
}
