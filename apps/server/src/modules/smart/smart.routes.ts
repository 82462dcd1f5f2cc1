import {
  blockAppRequestSchema,
  connectedAppListSchema,
  initialAccessTokenSchema,
  openRegistrationRequestSchema,
  registeredAppListSchema,
  smartDecisionRequestSchema,
  smartDecisionResponseSchema,
  smartInteractionSchema,
  smartInteractionUidSchema,
} from '@telemedicina/shared/smart';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../http/error-responses.js';
import { rateLimits } from '../../http/rate-limits.js';
import { contextFor } from '../../http/service-context.js';
import type { AppServices } from '../context.js';
import { applyOauthHeaders } from './smart-pages.js';
import { fhirBasePath, oauthMountPath, type SmartServer } from './smart-provider.js';
import { smartAdvertisedScopes } from './smart-scopes.js';
import {
  decideSmartInteraction,
  disconnectApp,
  getSmartInteraction,
  issueInitialAccessToken,
  listConnectedApps,
  listRegisteredApps,
  setAppBlocked,
  setOpenRegistration,
} from './smart.service.js';

const errors = errorResponses(400, 401, 403, 404);
const manageApps = { anyOf: ['settings.manage'] } as const;
const uidParams = z.object({ uid: smartInteractionUidSchema });
const grantParams = z.object({ id: z.string().min(1).max(128) });
const clientParams = z.object({ clientId: z.string().min(1).max(128) });

/**
 * The authorization server on the app's origin: oidc-provider answers every /oauth/* request
 * (its own body parsing, cookies and errors), and SMART discovery beside the FHIR base.
 */
export const smartServerRoutes: FastifyPluginCallbackZod<{ services: AppServices; smart: SmartServer }> = (
  app,
  { services, smart },
  done,
) => {
  // The limits run in the same onRequest chain, before the request is handed over: a route-level
  // `config.rateLimit` would add its hook after the hand-over, when nothing can be refused any more.
  const limitRegistration = app.rateLimit(rateLimits.appRegistration);
  const limitAuthorizationServer = app.rateLimit(rateLimits.authorizationServer);
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'],
    url: `${oauthMountPath}/*`,
    config: { access: 'public' },
    schema: { hide: true },
    onRequest: [
      (request, reply) =>
        request.url.split('?')[0] === `${oauthMountPath}/reg` && request.method === 'POST'
          ? limitRegistration.call(app, request, reply)
          : limitAuthorizationServer.call(app, request, reply),
      (request, reply, next) => {
        void reply.hijack();
        // Hijacked answers skip the headers the app's hooks chose: they go on the raw response here.
        applyOauthHeaders(reply.raw, reply.getHeaders());
        smart.handle(request.raw, reply.raw);
        next();
      },
    ],
    handler: () => undefined,
  });

  app.get(
    `${fhirBasePath}/.well-known/smart-configuration`,
    { config: { access: 'public' }, schema: { hide: true } },
    async (_request, reply) => {
      const issuer = `${services.config.publicOrigin}${oauthMountPath}`;
      await reply
        .header('cache-control', 'no-store')
        .type('application/json')
        .send({
          issuer,
          jwks_uri: `${issuer}/jwks`,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          registration_endpoint: `${issuer}/reg`,
          revocation_endpoint: `${issuer}/token/revocation`,
          introspection_endpoint: `${issuer}/token/introspection`,
          userinfo_endpoint: `${issuer}/me`,
          scopes_supported: smartAdvertisedScopes,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          capabilities: [
            'launch-standalone',
            'context-standalone-patient',
            'permission-patient',
            'permission-user',
            'permission-offline',
            'permission-v2',
            'permission-v1',
            'sso-openid-connect',
            'client-public',
            'client-confidential-symmetric',
          ],
        });
    },
  );
  done();
};

/** The consent screen's, the person's and the administrators' side, under /api/v1. */
export const smartApiRoutes: FastifyPluginCallbackZod<{ services: AppServices; smart: SmartServer }> = (
  app,
  { services, smart },
  done,
) => {
  app.get(
    '/smart/interactions/:uid',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['smart'],
        summary: 'The app asking for access and the permissions it asks (the consent screen)',
        params: uidParams,
        response: { 200: smartInteractionSchema, ...errors },
      },
    },
    async (request) => getSmartInteraction(contextFor(services, request), smart, request.params.uid),
  );

  app.post(
    '/smart/interactions/:uid/decision',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['smart'],
        summary: 'Allow or deny the app; answers where the browser goes next',
        params: uidParams,
        body: smartDecisionRequestSchema,
        response: { 200: smartDecisionResponseSchema, ...errors },
      },
    },
    async (request) =>
      decideSmartInteraction(contextFor(services, request), smart, request.params.uid, request.body.decision),
  );

  app.get(
    '/me/connected-apps',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['smart'],
        summary: 'Apps the signed-in person connected, what each may read and when it last did',
        response: { 200: connectedAppListSchema, ...errors },
      },
    },
    async (request) => {
      const rows = await listConnectedApps(contextFor(services, request));
      return {
        data: rows.map((row) => ({
          id: row.grantId,
          client: { id: row.clientId, name: row.clientName ?? row.clientId, uri: row.clientUri },
          scopes: row.scopes,
          connectedAt: row.createdAt.toISOString(),
          lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
        })),
      };
    },
  );

  app.delete(
    '/me/connected-apps/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['smart'],
        summary: 'Disconnect an app: its grant and tokens are revoked',
        params: grantParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await disconnectApp(contextFor(services, request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/smart/apps',
    {
      config: { access: manageApps },
      schema: {
        tags: ['smart'],
        summary: 'Registered apps (administrators) and whether open registration is on',
        response: { 200: registeredAppListSchema, ...errors },
      },
    },
    async (request) => {
      const { rows, openRegistration } = await listRegisteredApps(contextFor(services, request));
      return {
        openRegistration,
        data: rows.map((row) => ({
          clientId: row.clientId,
          name: row.name,
          redirectUris: Array.isArray(row.payload?.redirect_uris)
            ? row.payload.redirect_uris.filter((uri): uri is string => typeof uri === 'string')
            : [],
          registration: row.registration,
          registeredAt: row.registeredAt.toISOString(),
          registeredByName: row.registeredByName,
          blockedAt: row.blockedAt?.toISOString() ?? null,
        })),
      };
    },
  );

  app.patch(
    '/smart/apps/:clientId',
    {
      config: { access: manageApps },
      schema: {
        tags: ['smart'],
        summary: 'Block or unblock an app (a blocked app’s tokens stop working)',
        params: clientParams,
        body: blockAppRequestSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await setAppBlocked(contextFor(services, request), request.params.clientId, request.body.blocked);
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/smart/registration',
    {
      config: { access: manageApps },
      schema: {
        tags: ['smart'],
        summary: 'Open or close dynamic registration to public apps without an initial access token',
        body: openRegistrationRequestSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await setOpenRegistration(contextFor(services, request), request.body.openRegistration);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/smart/initial-access-tokens',
    {
      config: { access: manageApps },
      schema: {
        tags: ['smart'],
        summary: 'Issue an initial access token for one app registration (valid a day)',
        response: { 201: initialAccessTokenSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { token, expiresAt } = await issueInitialAccessToken(contextFor(services, request), smart);
      return reply.status(201).send({ token, expiresAt: expiresAt.toISOString() });
    },
  );
  done();
};
