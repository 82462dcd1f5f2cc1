import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../app.js';
import { writeSetting } from '../modules/settings/settings.repository.js';
import { openRegistrationSettingKey } from '../modules/smart/smart-provider.js';

/*
 * The real SMART standalone launch driven by HTTP inject, as a third-party app and
 * a signed-in person's browser would (registration, authorize with PKCE, the consent API, the
 * code, the token). Other modules' tests use it to get real Bearer tokens.
 */

export const testRedirectUri = 'http://127.0.0.1:8765/callback';

export interface SmartTestClient {
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
}

export interface SmartTokens {
  accessToken: string;
  refreshToken: string | null;
  idToken: string | null;
  patient: string | null;
  fhirUser: string | null;
  scope: string;
  expiresIn: number;
  body: Record<string, unknown>;
}

/** A cookie jar for the authorization server's own cookies (paths ignored: one test browser). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: LightMyRequestResponse): void {
    const header = response.headers['set-cookie'];
    const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
    for (const line of list) {
      const [pair] = line.split(';');
      const index = pair?.indexOf('=') ?? -1;
      if (pair === undefined || index < 0) {
        continue;
      }
      const value = pair.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/iu.test(line)) {
        this.cookies.delete(pair.slice(0, index));
      } else {
        this.cookies.set(pair.slice(0, index), value);
      }
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Opens dynamic registration (the clinic setting; on in the demo data). */
export async function allowOpenRegistration(app: App, isOpen = true): Promise<void> {
  await writeSetting(app.services.db, openRegistrationSettingKey, isOpen, { now: app.services.now() });
}

/** RFC 7591 registration of a public client (or a confidential one with `confidential: true`). */
export async function registerTestClient(
  app: App,
  options: { name?: string; confidential?: boolean; initialAccessToken?: string; redirectUri?: string } = {},
): Promise<{ client: SmartTestClient | null; response: LightMyRequestResponse }> {
  const redirectUri = options.redirectUri ?? testRedirectUri;
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/reg',
    headers: {
      'content-type': 'application/json',
      ...(options.initialAccessToken === undefined
        ? {}
        : { authorization: `Bearer ${options.initialAccessToken}` }),
    },
    payload: {
      client_name: options.name ?? 'Mi App de Salud',
      client_uri: 'https://app.example.org',
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: options.confidential === true ? 'client_secret_basic' : 'none',
    },
  });
  if (response.statusCode !== 201) {
    return { client: null, response };
  }
  const body = response.json<{ client_id: string; client_secret?: string }>();
  return {
    client: { clientId: body.client_id, clientSecret: body.client_secret ?? null, redirectUri },
    response,
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeResult {
  /** The code from the redirect back to the app, or null when it got an error. */
  code: string | null;
  /** The redirect back to the app (with code and state, or error). */
  callback: URL;
  verifier: string;
}

/**
 * Authorize in the browser: GET /oauth/auth → the consent screen's uid → the person's decision
 * through /api/v1 with their session → back to /oauth/auth/:uid → the redirect to the app.
 */
export async function authorizeWithConsent(
  app: App,
  client: SmartTestClient,
  session: Record<string, string>,
  options: { scope?: string; decision?: 'allow' | 'deny'; verifier?: string } = {},
): Promise<AuthorizeResult> {
  const jar = new CookieJar();
  const { verifier, challenge } =
    options.verifier === undefined
      ? pkcePair()
      : {
          verifier: options.verifier,
          challenge: createHash('sha256').update(options.verifier).digest('base64url'),
        };
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    scope: options.scope ?? 'openid fhirUser launch/patient offline_access patient/*.rs',
    state: 'state-123',
    aud: `${app.services.config.publicOrigin}/fhir/R4`,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const start = await app.inject({ method: 'GET', url: `/oauth/auth?${query.toString()}` });
  jar.take(start);
  const location = String(start.headers.location ?? '');
  const uid = /\/connected-apps\/authorize\/([^/?#]+)/u.exec(location)?.[1];
  if (uid === undefined) {
    throw new Error(
      `authorize did not reach the consent screen: ${start.statusCode} ${location} ${start.body}`,
    );
  }
  const decision = await app.inject({
    method: 'POST',
    url: `/api/v1/smart/interactions/${uid}/decision`,
    headers: session,
    payload: { decision: options.decision ?? 'allow' },
  });
  if (decision.statusCode !== 200) {
    throw new Error(`decision answered ${decision.statusCode}: ${decision.body}`);
  }
  let next = new URL(decision.json<{ redirectTo: string }>().redirectTo, 'http://localhost');
  for (let hop = 0; hop < 5; hop += 1) {
    if (!next.pathname.startsWith('/oauth/')) {
      break;
    }
    const response = await app.inject({
      method: 'GET',
      url: `${next.pathname}${next.search}`,
      headers: { cookie: jar.header() },
    });
    jar.take(response);
    next = new URL(String(response.headers.location ?? ''), 'http://localhost');
  }
  return { code: next.searchParams.get('code'), callback: next, verifier };
}

/** POST /oauth/token (form), as a public client or with client_secret_basic. */
export function tokenRequest(
  app: App,
  client: SmartTestClient,
  form: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const basic =
    client.clientSecret === null
      ? {}
      : {
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        };
  return app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic },
    payload: new URLSearchParams({
      ...(client.clientSecret === null ? { client_id: client.clientId } : {}),
      ...form,
    }).toString(),
  });
}

export function tokensOf(response: LightMyRequestResponse): SmartTokens {
  const body = response.json<Record<string, unknown>>();
  return {
    accessToken: String(body.access_token),
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    idToken: typeof body.id_token === 'string' ? body.id_token : null,
    patient: typeof body.patient === 'string' ? body.patient : null,
    fhirUser: typeof body.fhirUser === 'string' ? body.fhirUser : null,
    scope: typeof body.scope === 'string' ? body.scope : '',
    expiresIn: Number(body.expires_in),
    body,
  };
}

/**
 * The whole standalone patient launch for a signed-in person (`session`: their cookie and XSRF
 * headers): registers a public app (opening registration), authorizes with consent and PKCE,
 * exchanges the code. Returns the tokens and the app.
 */
export async function launchSmartApp(
  app: App,
  session: Record<string, string>,
  options: { scope?: string; name?: string } = {},
): Promise<{ client: SmartTestClient; tokens: SmartTokens }> {
  await allowOpenRegistration(app);
  const { client, response } = await registerTestClient(app, { name: options.name });
  if (client === null) {
    throw new Error(`registration answered ${response.statusCode}: ${response.body}`);
  }
  const { code, verifier, callback } = await authorizeWithConsent(app, client, session, {
    scope: options.scope,
  });
  if (code === null) {
    throw new Error(`authorization gave no code: ${callback.toString()}`);
  }
  const token = await tokenRequest(app, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirectUri,
    code_verifier: verifier,
  });
  if (token.statusCode !== 200) {
    throw new Error(`token answered ${token.statusCode}: ${token.body}`);
  }
  return { client, tokens: tokensOf(token) };
}
