import type { IncomingMessage, ServerResponse } from 'node:http';
import Provider, {
  errors,
  type Adapter,
  type AdapterPayload,
  type Configuration,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { recordAuditEvent } from '../audit/audit.service.js';
import type { AppServices } from '../context.js';
import { findUserById, findUserRoles } from '../identity/users.repository.js';
import { readSettings } from '../settings/settings.repository.js';
import {
  consumeOauthRecord,
  deleteExpiredOauthRecords,
  deleteOauthRecord,
  deleteOauthRecordsOfGrant,
  findOauthRecord,
  findOauthRecordBy,
  insertSmartClient,
  touchConnection,
  upsertOauthRecord,
} from './smart.repository.js';
import { oauthErrorPage, oauthPageLanguage } from './smart-pages.js';
import { loadSigningKeys } from './smart-keys.js';
import { smartAllScopes } from './smart-scopes.js';
import { openRegistrationSettingKey } from './smart-settings.js';

export { openRegistrationSettingKey };

/** Where the authorization server is mounted on the app's origin. */
export const oauthMountPath = '/oauth';
/** The FHIR base the tokens are for. */
export const fhirBasePath = '/fhir/R4';
/** Where the authorization page sends the person: the web app's sign-in and consent screen. */
export const consentPagePath = '/portal/connected-apps/authorize';

const signingKeysId = 'oidc';
const accessTokenSeconds = 60 * 60;

/** The authorization server of one app: the oidc-provider instance and a Node handler for /oauth/*. */
export interface SmartServer {
  /** The oidc-provider instance, built on first use (its keys and clean-up need the database). */
  provider(): Promise<Provider>;
  /** Answers a request whose URL starts with /oauth (the prefix is stripped for the provider). */
  handle(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * Builds the OAuth 2 / OpenID Connect server for SMART App Launch on oidc-provider, backed by
 * the database (records survive restarts, shared by every instance), with signing keys made
 * once and kept sealed by the app's secret box.
 */
export function createSmartServer(services: AppServices): SmartServer {
  // Built on first use, not while the app starts: the app must start (and its health check answer
  // 503) while the database is down, and a failed build is tried again by the next request.
  // Built again when its signing keys change by themselves (a rotation due, a key activating) and
  // at least hourly, so a key another instance added is published here too (see smart-keys.ts).
  let building: Promise<BuiltProvider> | null = null;
  let refreshAt: Date | null = null;
  const provider = async (): Promise<Provider> => {
    if (building !== null && refreshAt !== null && services.now() >= refreshAt) {
      building = null;
      refreshAt = null;
    }
    building ??= buildProvider(services).then(
      (built) => {
        refreshAt = built.refreshAt;
        return built;
      },
      (error: unknown) => {
        building = null;
        throw error;
      },
    );
    return (await building).provider;
  };
  return {
    provider,
    handle: (req, res) => {
      const url = req.url ?? '/';
      const rest = url.slice(oauthMountPath.length);
      Object.assign(req, { originalUrl: url });
      req.url = rest === '' || rest.startsWith('?') ? `/${rest}` : rest;
      provider()
        .then((ready) => ready.callback()(req, res))
        .catch((error: unknown) => {
          services.background.run('smart-server-start', () =>
            Promise.reject(error instanceof Error ? error : new Error(String(error))),
          );
          if (!res.headersSent) {
            res.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
            res.end(
              JSON.stringify({
                error: 'temporarily_unavailable',
                error_description: 'The authorization server cannot reach its database; try again shortly.',
              }),
            );
          }
        });
    },
  };
}

interface BuiltProvider {
  provider: Provider;
  refreshAt: Date;
}

async function buildProvider(services: AppServices): Promise<BuiltProvider> {
  const { db, config } = services;
  await deleteExpiredOauthRecords(db, services.now());
  const { jwks, refreshAt } = await loadSigningKeys(services, signingKeysId);
  const issuer = `${config.publicOrigin}${oauthMountPath}`;
  const fhirBase = `${config.publicOrigin}${fhirBasePath}`;

  const configuration: Configuration = {
    adapter: createDatabaseAdapter(services),
    jwks: { keys: jwks },
    cookies: { keys: [services.secrets.keyedHash('smart-oidc-cookies')] },
    scopes: [...smartAllScopes],
    claims: { openid: ['sub'], fhirUser: ['fhirUser'], profile: ['name'] },
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: { enabled: false },
    },
    extraClientMetadata: {
      properties: ['software_id'],
      validator: (ctx, key, _value, metadata) => {
        if (
          key !== 'software_id' ||
          ctx?.oidc?.route !== 'registration' ||
          ctx.state.smartRegistration !== 'open'
        ) {
          return;
        }
        checkOpenRegistration(metadata);
      },
    },
    interactions: { url: (_ctx, interaction) => `${consentPagePath}/${interaction.uid}` },
    ttl: {
      AccessToken: accessTokenSeconds,
      AuthorizationCode: 60,
      IdToken: accessTokenSeconds,
      Interaction: 60 * 60,
      Session: 60 * 60,
      Grant: 365 * 24 * 60 * 60,
      RefreshToken: 90 * 24 * 60 * 60,
      RegistrationAccessToken: 365 * 24 * 60 * 60,
    },
    // Tokens of a connection do not end with the browser session at the authorization server.
    expiresWithSession: () => false,
    clientBasedCORS: (_ctx, origin, client) =>
      client.redirectUris?.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin) ?? false,
    findAccount: async (_ctx, sub) => {
      const user = await findUserById(db, sub);
      if (user === null || user.status !== 'active') {
        return undefined;
      }
      const isPatient = await isPatientUser(services, sub);
      return {
        accountId: sub,
        claims: () => ({
          sub,
          name: user.name,
          fhirUser: `${fhirBase}/${isPatient ? 'Patient' : 'Practitioner'}/${sub}`,
        }),
      };
    },
    extraTokenClaims: async (_ctx, token) => {
      if (token.kind !== 'AccessToken' || typeof token.accountId !== 'string') {
        return undefined;
      }
      const scopes = new Set(String(token.scope ?? '').split(' '));
      const isPatient = await isPatientUser(services, token.accountId);
      return {
        fhirUser: `${fhirBase}/${isPatient ? 'Patient' : 'Practitioner'}/${token.accountId}`,
        ...(scopes.has('launch/patient') && isPatient ? { patient: token.accountId } : {}),
      };
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = oauthErrorPage(oauthPageLanguage(ctx.req), out.error, out.error_description);
    },
  };

  const provider = new Provider(issuer, configuration);
  provider.proxy = config.trustProxy !== false;

  provider.use(async (koaContext, next) => {
    const ctx = koaContext as unknown as KoaContextWithOIDC;
    if (ctx.path === '/reg' && ctx.method === 'POST') {
      const refusal = await gateRegistration(services, ctx);
      if (refusal !== null) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', `Bearer realm="${issuer}", error="invalid_token"`);
        ctx.body = { error: 'invalid_token', error_description: refusal };
        return;
      }
    }
    if (ctx.path === '/auth' && ctx.method === 'GET') {
      askConsentForOfflineAccess(ctx);
    }
    await next();
    if (ctx.path === '/reg' && ctx.method === 'POST' && ctx.status === 201) {
      await recordRegistration(services, ctx);
    }
    if (ctx.path === '/token' && ctx.method === 'POST' && ctx.status === 200) {
      await addLaunchContext(services, provider, ctx);
    }
  });

  provider.on('server_error', (_ctx, error) => {
    services.background.run('smart-server-error', () => Promise.reject(error));
  });

  return { provider, refreshAt };
}

/** Open registration: public clients only, redirect URIs on https or the loopback interface. */
function checkOpenRegistration(metadata: Record<string, unknown>): void {
  if (metadata.token_endpoint_auth_method !== 'none') {
    throw new errors.InvalidClientMetadata(
      'open registration is for public clients (token_endpoint_auth_method none); ask the clinic for an initial access token',
    );
  }
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [];
  for (const uri of uris) {
    if (typeof uri !== 'string' || !isHttpsOrLoopback(uri)) {
      throw new errors.InvalidRedirectUri('redirect_uris must use https or a loopback address');
    }
  }
}

function isHttpsOrLoopback(uri: string): boolean {
  if (!URL.canParse(uri)) {
    return false;
  }
  const url = new URL(uri);
  if (url.protocol === 'https:') {
    return true;
  }
  return url.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(url.hostname);
}

/**
 * Dynamic registration is open (public clients with https or loopback redirects) when the clinic
 * allows it; otherwise it needs an initial access token an administrator issued.
 */
async function gateRegistration(services: AppServices, ctx: KoaContextWithOIDC): Promise<string | null> {
  const header = ctx.get('authorization');
  const bearer = /^Bearer (\S+)$/iu.exec(header)?.[1];
  if (bearer !== undefined) {
    const record = await findOauthRecord(services.db, 'InitialAccessToken', bearer);
    if (record === null || (record.expiresAt !== null && record.expiresAt <= services.now())) {
      return 'initial access token not found or expired';
    }
    ctx.state.smartRegistration = 'initial_access_token';
    ctx.state.smartRegistrationToken = bearer;
    ctx.state.smartRegistrationIssuer =
      typeof record.payload.issuedBy === 'string' ? record.payload.issuedBy : null;
    // The provider itself checks no token here (it serves open registration too).
    delete ctx.headers.authorization;
    return null;
  }
  if (!(await isOpenRegistrationAllowed(services))) {
    return 'registration needs an initial access token from the clinic';
  }
  ctx.state.smartRegistration = 'open';
  return null;
}

/**
 * OpenID Connect drops offline_access unless the request says prompt=consent; SMART apps ask for
 * it without one, and this server always shows its consent screen, so the prompt is added.
 */
function askConsentForOfflineAccess(ctx: KoaContextWithOIDC): void {
  const query = new URLSearchParams(ctx.querystring);
  const scopes = (query.get('scope') ?? '').split(' ');
  if (scopes.includes('offline_access') && !query.has('prompt')) {
    query.set('prompt', 'consent');
    ctx.querystring = query.toString();
    // The provider reads its mount path from the original URL: keep the two in step.
    Object.assign(ctx.req, { originalUrl: `${oauthMountPath}${ctx.url}` });
  }
}

/** Whether the clinic setting opens dynamic registration (off unless set). */
export async function isOpenRegistrationAllowed(services: AppServices): Promise<boolean> {
  const values = await readSettings(services.db, [openRegistrationSettingKey]);
  return values.get(openRegistrationSettingKey) === true;
}

async function recordRegistration(services: AppServices, ctx: KoaContextWithOIDC): Promise<void> {
  const body = ctx.body as { client_id?: string; client_name?: string; redirect_uris?: string[] };
  if (typeof body.client_id !== 'string') {
    return;
  }
  const mode = ctx.state.smartRegistration === 'initial_access_token' ? 'initial_access_token' : 'dynamic';
  const issuedBy =
    typeof ctx.state.smartRegistrationIssuer === 'string' ? ctx.state.smartRegistrationIssuer : null;
  const at = services.now();
  if (typeof ctx.state.smartRegistrationToken === 'string') {
    // An initial access token registers one app.
    await deleteOauthRecord(services.db, 'InitialAccessToken', ctx.state.smartRegistrationToken);
  }
  await insertSmartClient(services.db, {
    clientId: body.client_id,
    name: body.client_name ?? body.client_id,
    registration: mode,
    registeredByUserId: issuedBy,
    registeredAt: at,
  });
  await recordAuditEvent(
    services.db,
    {
      now: services.now,
      actorUserId: issuedBy,
      request: { ip: ctx.ip, userAgent: ctx.get('user-agent') || null, requestId: null },
    },
    {
      action: 'smart.app_registered',
      targetType: 'smart_app',
      targetId: body.client_id,
      details: { name: body.client_name ?? null, registration: mode, redirectUris: body.redirect_uris ?? [] },
    },
  );
}

/** SMART's launch context in the token response: `patient` and `fhirUser` beside the token. */
async function addLaunchContext(
  services: AppServices,
  provider: Provider,
  ctx: KoaContextWithOIDC,
): Promise<void> {
  const body = ctx.body as Record<string, unknown> | undefined;
  if (body === undefined || typeof body.access_token !== 'string') {
    return;
  }
  const token = await provider.AccessToken.find(body.access_token);
  if (token === undefined) {
    return;
  }
  if (typeof token.extra?.patient === 'string') {
    body.patient = token.extra.patient;
  }
  if (typeof token.extra?.fhirUser === 'string') {
    body.fhirUser = token.extra.fhirUser;
  }
  if (typeof token.grantId === 'string') {
    await touchConnection(services.db, token.grantId, services.now());
  }
}

async function isPatientUser(services: AppServices, userId: string): Promise<boolean> {
  const roles = await findUserRoles(services.db, userId);
  return roles.some((role) => role.key === 'patient');
}

/** The private signing keys: made once with jose, sealed in the database, the same on every start. */
const grantable = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

/** oidc-provider's storage in the `oauth_records` table (PGlite and PostgreSQL alike). */
function createDatabaseAdapter(services: AppServices): new (name: string) => Adapter {
  const { db } = services;
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly name: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await upsertOauthRecord(db, {
        model: this.name,
        id,
        payload,
        grantId: grantable.has(this.name) ? (payload.grantId ?? null) : null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expiresIn > 0 ? new Date(services.now().getTime() + expiresIn * 1000) : null,
      });
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.alive(await findOauthRecord(db, this.name, id));
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.alive(await findOauthRecordBy(db, this.name, 'userCode', userCode));
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.alive(await findOauthRecordBy(db, this.name, 'uid', uid));
    }

    async consume(id: string): Promise<void> {
      await consumeOauthRecord(db, this.name, id, services.now());
    }

    async destroy(id: string): Promise<void> {
      await deleteOauthRecord(db, this.name, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteOauthRecordsOfGrant(db, grantId, this.name);
    }

    private alive(row: Awaited<ReturnType<typeof findOauthRecord>>): AdapterPayload | undefined {
      if (row === null || (row.expiresAt !== null && row.expiresAt <= services.now())) {
        return undefined;
      }
      return {
        ...(row.payload as AdapterPayload),
        ...(row.consumedAt === null ? {} : { consumed: Math.floor(row.consumedAt.getTime() / 1000) }),
      };
    }
  };
}
