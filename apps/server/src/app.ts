import rateLimit from '@fastify/rate-limit';
import { apiBasePath } from '@telemedicina/shared/api';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config } from './config/config.js';
import type { DatabaseClient } from './db/client.js';
import { authentication } from './http/authentication.js';
import { isSecureRequest, readCookie, sessionCookieName } from './http/cookies.js';
import { handleError } from './http/error-handler.js';
import { openApi } from './http/openapi.js';
import { isLoopbackAddress } from './http/rate-limits.js';
import { generateRequestId } from './http/request-id.js';
import { createRequestLogger, RequestLogController } from './http/request-logger.js';
import { responseSerializerCompiler } from './http/response-serializer.js';
import { securityHeaders } from './http/security-headers.js';
import { staticWeb } from './http/static-web.js';
import { xsrfProtection } from './http/xsrf.js';
import { appError } from './lib/app-error.js';
import { createPasswordHasher } from './lib/passwords.js';
import { createSecretBox, resolveSecretKeyMaterial } from './lib/secret-box.js';
import { authRoutes } from './modules/identity/auth.routes.js';
import { clientConfigRoutes } from './modules/client-config/client-config.routes.js';
import type { AppServices } from './modules/context.js';
import { createMailer } from './modules/email/mailer.js';
import { createBackgroundTasks } from './lib/background-tasks.js';
import { createFileStorage } from './modules/files/file-storage.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { meRoutes } from './modules/identity/me.routes.js';
import { outboxRoutes } from './modules/outbox/outbox.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { auditRoutes } from './modules/audit-log/audit-log.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { doctorsRoutes } from './modules/doctors/doctors.routes.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { filterLiveSessionIds } from './modules/identity/sessions.repository.js';
import { resolveSessionToken } from './modules/identity/sessions.service.js';
import { usersRoutes } from './modules/identity/users.routes.js';
import { rolesRoutes } from './modules/identity/roles.routes.js';
import { specialtiesRoutes } from './modules/specialties/specialties.routes.js';
import { availabilityRoutes } from './modules/availability/availability.routes.js';
import { appointmentsRoutes } from './modules/appointments/appointments.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { waitlistRoutes } from './modules/waitlist/waitlist.routes.js';
import { createReminderWorker, type ReminderWorker } from './modules/reminders/reminders.service.js';
import { serverVersion } from './paths.js';
import { resolveSmartBearer } from './modules/smart/smart-bearer.js';
import { fhirBasePath, fhirRoutes } from './modules/fhir/fhir.routes.js';
import { userRoom, type HandshakeIdentity } from './realtime/handshake-auth.js';
import { createRealtimeServer, type RealtimeServer } from './realtime/realtime-server.js';
import { registerVisitEvents } from './realtime/visit-events.js';
import { createVisitRealtime } from './realtime/visit-rooms.js';
import { guestSessionCookieName } from '@telemedicina/shared/visits';
import type { VisitDependencies } from './modules/visits/visit-context.js';
import { resolveGuestSession } from './modules/visits/visit-guests.service.js';
import { filterLiveGuestIds } from './modules/visits/visits.repository.js';
import { visitsRoutes } from './modules/visits/visits.routes.js';
import { diagnosesRoutes } from './modules/diagnoses/diagnoses.routes.js';
import { prescriptionsRoutes } from './modules/prescriptions/prescriptions.routes.js';
import { recordsRoutes } from './modules/records/records.routes.js';
import { notesRoutes } from './modules/notes/notes.routes.js';
import { exportRoutes } from './modules/export/export.routes.js';
import { documentsRoutes } from './modules/records/documents.routes.js';
import { intakeRoutes } from './modules/intake/intake.routes.js';
import { questionnairesRoutes } from './modules/questionnaires/questionnaires.routes.js';
import { consentsRoutes } from './modules/consents/consents.routes.js';
import { receptionRoutes } from './modules/reception/reception.routes.js';
import { createSmartServer } from './modules/smart/smart-provider.js';
import { smartApiRoutes, smartServerRoutes } from './modules/smart/smart.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Socket.IO server, attached to this app's HTTP server and optionally its own port. */
    realtime: RealtimeServer;
    /** The collaborators services receive (database, mailer, hasher…), for tests and tools. */
    services: AppServices;
    /** Sends due appointment reminders; polling only when `config.reminderPollSeconds` > 0. */
    reminders: ReminderWorker;
  }
}

export interface AppDependencies {
  config: Config;
  /** An open, migrated database; the caller owns it and closes it after the app. */
  database: DatabaseClient;
  now?: () => Date;
  /**
   * More route plugins under /api/v1, registered after the built-in modules
   * and held to the same rules (every route declares its access).
   */
  extraApiRoutes?: readonly ((api: App) => void | Promise<void>)[];
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
export async function buildApp({
  config,
  database,
  now = () => new Date(),
  extraApiRoutes = [],
}: AppDependencies): Promise<App> {
  const startedAt = now();
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-xsrf-token"]'],
    },
    genReqId: generateRequestId,
    requestIdHeader: false,
    // One line per request, with its request id, as every line a request writes.
    logController: new RequestLogController({ requestIdLogLabel: 'requestId' }),
    // Each request's logger (bound to its request id) is made when it first writes a line.
    childLoggerFactory: createRequestLogger,
    trustProxy: toFastifyTrustProxy(config.trustProxy),
    // While draining, requests already on an open connection are answered
    // normally (with Connection: close) instead of fastify's own 503 body,
    // which is not in the project's error shape. The database closes only
    // after the last of them.
    return503OnClosing: false,
    // A malformed percent-encoding or an over-long path parameter is refused by the router before
    // any route runs; answer it in the error shape too (fastify's own body is not).
    frameworkErrors: handleError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  app.setErrorHandler(handleError);

  const mainPort = (): number | null => {
    const address = app.server.address();
    return address !== null && typeof address === 'object' ? address.port : null;
  };
  let realtimeServer: RealtimeServer | null = null;
  const { db } = database;
  const mailer = createMailer({ db, smtpUrl: config.smtpUrl, from: config.mailFrom, now, logger: app.log });
  const background = createBackgroundTasks(app.log);
  const services: AppServices = {
    db,
    database,
    config,
    now,
    mailer,
    background,
    passwords: createPasswordHasher(config.passwordHashing),
    secrets: createSecretBox(await resolveSecretKeyMaterial(config.mfaEncryptionKey, config.dataDir)),
    sockets: {
      disconnectSessions: (ids) => realtimeServer?.disconnectSessions(ids),
      notifyUser: (userId, notification) =>
        realtimeServer?.io.to(userRoom(userId)).emit('notification.created', notification),
    },
  };
  app.decorate('services', services);
  const reminders = createReminderWorker(services, {
    intervalMs: (config.reminderPollSeconds ?? 0) * 1000,
    logger: app.log,
  });
  app.decorate('reminders', reminders);
  const visitDeps: VisitDependencies = {
    ...services,
    realtime: createVisitRealtime(() => realtimeServer?.io ?? null),
    storage: createFileStorage(config.uploadsDir),
  };

  const realtime = createRealtimeServer({
    mainServer: app.server,
    hasSeparatePort: config.realtimePort !== null,
    allowedOrigins: config.appOrigins,
    getMainPort: mainPort,
    logger: app.log,
    now,
    sessions: {
      resolve: (cookieHeader) => identifySocket(services, cookieHeader),
      filterLive: (ids) => filterLiveSessionIds(db, ids, now()),
    },
    guests: { filterLive: (ids) => filterLiveGuestIds(db, ids, now()) },
    redis:
      config.redisUrl === null ? null : { url: config.redisUrl, key: `${config.redisKeyPrefix}:socket.io` },
    onConnection: (socket, io) => registerVisitEvents(socket, io, visitDeps, app.log),
  });
  realtimeServer = realtime;
  // Rooms shared through Redis before any client connects (when REDIS_URL is set and reachable).
  if (!(await realtime.adapterReady) && config.redisUrl !== null) {
    app.log.warn('Redis unreachable at start: real-time rooms are not shared until it is');
  }
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
    await reminders.stop();
    await realtime.close();
  });
  // Rate limits shared by several instances when REDIS_URL is set; in memory otherwise.
  const redis =
    config.redisUrl === null
      ? null
      : new Redis(config.redisUrl, {
          connectTimeout: 2_000,
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
        });
  redis?.on('error', (error: Error) => app.log.warn({ err: error }, 'redis (rate limits) error'));

  app.addHook('onClose', async () => {
    if (drainTimer !== null) {
      clearInterval(drainTimer);
    }
    // Work started by the last requests may still store emails: finish it before the mailer stops.
    await background.idle();
    await mailer.close();
    await redis?.quit().catch(() => undefined);
  });

  try {
    const realtimePortForClients = (): number | null => {
      if (config.realtimePort === null) {
        return null;
      }
      return realtime.separatePort() ?? (config.realtimePort === 0 ? null : config.realtimePort);
    };

    // Also echoes the request id (x-request-id) on every answer: one hook sets every constant header.
    await app.register(securityHeaders, {
      isProduction: config.isProduction,
      publicOrigin: config.publicOrigin,
      getRealtimePort: realtimePortForClients,
      requestIdHeader: 'x-request-id',
    });
    await app.register(xsrfProtection, {
      isSecure: (request) => isSecureRequest(request, config.publicOrigin),
      issueOn: [`${apiBasePath}/config`, `${apiBasePath}/me`],
    });
    // Before any route: it refuses /api routes that do not declare their access.
    await app.register(authentication, { services });
    // Off by default; routes opt in with `config: { rateLimit: { max, timeWindow } }` (sign-in, uploads…).
    await app.register(rateLimit, {
      global: false,
      // With Redis down, requests go through rather than fail: the database lockout still guards sign-in.
      ...(redis === null
        ? {}
        : { redis, nameSpace: `${config.redisKeyPrefix}:rate-limit:`, skipOnError: true }),
      errorResponseBuilder: (_request, context) =>
        appError('RATE_LIMITED', 'Too many requests. Try again later.', {
          retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
        }),
      // `npm run security:scan`'s own server (NODE_ENV=test only, config.ts): sqlmap on this machine
      // is not stopped by the limits. The socket's address, not `request.ip`: no forwarded header counts.
      ...(config.securityScanNoRateLimits === true
        ? { allowList: (request: FastifyRequest) => isLoopbackAddress(request.socket.remoteAddress) }
        : {}),
    });
    if (config.securityScanNoRateLimits === true) {
      app.log.warn('SECURITY_SCAN_NO_RATE_LIMITS: rate limits are off for requests from this machine');
    }
    await app.register(openApi, { version: serverVersion });
    // SMART on FHIR sign-in: the OAuth 2 / OpenID Connect server at /oauth and SMART discovery.
    const smart = createSmartServer(services);
    await app.register(smartServerRoutes, { services, smart });

    const storage = createFileStorage(config.uploadsDir);
    await app.register(
      async (api) => {
        await api.register(healthRoutes, { database, version: serverVersion, startedAt, now });
        await api.register(clientConfigRoutes, {
          version: serverVersion,
          getRealtimePort: realtimePortForClients,
        });
        await api.register(authRoutes, { services });
        await api.register(meRoutes, { services, storage });
        await api.register(usersRoutes, { services });
        await api.register(rolesRoutes, { services });
        await api.register(specialtiesRoutes, { services });
        await api.register(doctorsRoutes, { services });
        await api.register(outboxRoutes, { services });
        await api.register(settingsRoutes, { services, storage });
        await api.register(auditRoutes, { services });
        await api.register(dashboardRoutes, { services });
        await api.register(searchRoutes, { services });
        await api.register(availabilityRoutes, { services });
        await api.register(appointmentsRoutes, { services });
        await api.register(notificationsRoutes, { services });
        await api.register(waitlistRoutes, { services });
        await api.register(visitsRoutes, { deps: visitDeps });
        await api.register(diagnosesRoutes, { services });
        await api.register(prescriptionsRoutes, { services, storage });
        await api.register(recordsRoutes, { services });
        await api.register(receptionRoutes, { services });
        await api.register(notesRoutes, { services, storage });
        await api.register(exportRoutes, { services, storage });
        await api.register(documentsRoutes, { services, storage });
        await api.register(intakeRoutes, { services });
        await api.register(questionnairesRoutes, { services });
        await api.register(smartApiRoutes, { services, smart });
        await api.register(consentsRoutes, { services, storage });
        for (const routes of extraApiRoutes) {
          await api.register(async (scope) => {
            await routes(scope);
          });
        }
      },
      { prefix: apiBasePath },
    );

    // FHIR R4 read API (SMART Bearer tokens, or the app's own session from its own origin).
    // Bearer tokens: the SMART authorization server's (modules/smart).
    await app.register(fhirRoutes, {
      prefix: fhirBasePath,
      services,
      storage,
      resolveBearer: resolveSmartBearer,
      version: serverVersion,
    });
    await app.register(staticWeb, { webDistDir: config.webDistDir });
    if ((config.reminderPollSeconds ?? 0) > 0) {
      reminders.start();
    }
  } catch (error) {
    // A route that fails to register (say, one without an access declaration) must not leave
    // the real-time sweep, SMTP or Redis connections holding the process open.
    await realtime.close().catch(() => undefined);
    await mailer.close().catch(() => undefined);
    await redis?.quit().catch(() => undefined);
    throw error;
  }
  return app;
}

/**
 * The handshake's view of the cookies: a live session is a user; otherwise a
 * live visit-guest cookie is a guest of one visit; else why not. Sockets do
 * not count as activity.
 */
async function identifySocket(
  services: AppServices,
  cookieHeader: string | undefined,
): Promise<HandshakeIdentity> {
  const token = readCookie(cookieHeader, sessionCookieName);
  const resolution =
    token === null || token === '' ? null : await resolveSessionToken(services, token, { touch: false });
  if (resolution === null || resolution.kind !== 'live') {
    const guestToken = readCookie(cookieHeader, guestSessionCookieName);
    const guest =
      guestToken === null || guestToken === '' ? null : await resolveGuestSession(services, guestToken);
    if (guest !== null) {
      return { ok: true, kind: 'guest', guestId: guest.id, appointmentId: guest.appointmentId };
    }
  }
  if (resolution === null || resolution.kind === 'unknown') {
    return { ok: false, code: 'UNAUTHENTICATED', message: 'Sign in before connecting.' };
  }
  if (resolution.kind === 'expired') {
    return { ok: false, code: 'SESSION_EXPIRED', message: 'Your session has ended. Sign in again.' };
  }
  if (resolution.actor.mfaEnrollmentRequired) {
    return { ok: false, code: 'MFA_ENROLLMENT_REQUIRED', message: 'Set up the second factor first.' };
  }
  return {
    ok: true,
    kind: 'user',
    userId: resolution.actor.userId,
    sessionId: resolution.actor.sessionId,
    permissions: [...resolution.actor.permissions],
  };
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
