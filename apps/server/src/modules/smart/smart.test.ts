import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEventsOf, createUser, send, signIn, type SignedInClient } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';
import { resolveSmartBearer } from './smart-bearer.js';
import { parseStoredKeys } from './smart-keys.js';
import { createSmartServer } from './smart-provider.js';
import {
  allowOpenRegistration,
  authorizeWithConsent,
  launchSmartApp,
  registerTestClient,
  tokenRequest,
  tokensOf,
} from './smart-test-support.js';

let context: TestContext;
let clock = new Date('2026-11-20T10:00:00Z');
let patient: SignedInClient;
let patientId: string;
let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext({ now: () => clock });
  const patientUser = await createUser(context.app, { roles: ['patient'] });
  patientId = patientUser.id;
  patient = await signIn(context.app, patientUser);
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
});

afterAll(async () => {
  await context?.close();
});

describe('SMART discovery', () => {
  it('advertises the endpoints, capabilities and PKCE S256 beside the FHIR base', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/fhir/R4/.well-known/smart-configuration',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<Record<string, unknown>>();
    expect(body.authorization_endpoint).toBe('http://app.test/oauth/auth');
    expect(body.token_endpoint).toBe('http://app.test/oauth/token');
    expect(body.registration_endpoint).toBe('http://app.test/oauth/reg');
    expect(body.code_challenge_methods_supported).toEqual(['S256']);
    expect(body.capabilities).toEqual(
      expect.arrayContaining([
        'launch-standalone',
        'context-standalone-patient',
        'permission-v2',
        'client-public',
      ]),
    );
    const oidc = await context.app.inject({ method: 'GET', url: '/oauth/.well-known/openid-configuration' });
    expect(oidc.statusCode).toBe(200);
    expect(oidc.json<{ issuer: string }>().issuer).toBe('http://app.test/oauth');
    const jwks = await context.app.inject({ method: 'GET', url: '/oauth/jwks' });
    expect(jwks.json<{ keys: { kty: string; d?: string }[] }>().keys[0]).toMatchObject({ kty: 'RSA' });
    expect(jwks.json<{ keys: { d?: string }[] }>().keys[0]?.d).toBeUndefined();
  });
});

describe('SMART standalone patient launch', () => {
  it('registers, authorizes with consent and PKCE, exchanges, refreshes and revokes', async () => {
    const { client, tokens } = await launchSmartApp(context.app, patient.headers);
    expect(tokens.patient).toBe(patientId);
    expect(tokens.fhirUser).toBe(`http://app.test/fhir/R4/Patient/${patientId}`);
    expect(tokens.refreshToken).not.toBeNull();
    expect(tokens.idToken).not.toBeNull();
    expect(tokens.scope.split(' ')).toEqual(
      expect.arrayContaining(['openid', 'fhirUser', 'launch/patient', 'offline_access', 'patient/*.rs']),
    );

    const access = await resolveSmartBearer(context.app.services, tokens.accessToken);
    expect(access).toMatchObject({
      userId: patientId,
      patientId,
      client: { id: client.clientId, name: 'Mi App de Salud' },
    });
    expect(access?.scopes).toContain('patient/*.rs');
    expect(await resolveSmartBearer(context.app.services, 'not-a-token-at-all-0123456789')).toBeNull();

    const refreshed = await tokenRequest(context.app, client, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refreshToken ?? '',
    });
    expect(refreshed.statusCode).toBe(200);
    const second = tokensOf(refreshed);
    expect(second.accessToken).not.toBe(tokens.accessToken);
    expect(second.patient).toBe(patientId);
    expect(await resolveSmartBearer(context.app.services, second.accessToken)).not.toBeNull();

    const revoked = await context.app.inject({
      method: 'POST',
      url: '/oauth/token/revocation',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: second.accessToken, client_id: client.clientId }).toString(),
    });
    expect(revoked.statusCode).toBe(200);
    expect(await resolveSmartBearer(context.app.services, second.accessToken)).toBeNull();

    const connections = await send(context.app, 'GET', '/api/v1/me/connected-apps', {
      session: patient.token,
    });
    expect(connections.statusCode).toBe(200);
    const [connection] = connections.json<{
      data: { client: { name: string }; scopes: string[]; lastUsedAt: string | null }[];
    }>().data;
    expect(connection?.client.name).toBe('Mi App de Salud');
    expect(connection?.lastUsedAt).not.toBeNull();
    expect((await auditEventsOf(context.app, 'smart.app_authorized')).length).toBeGreaterThan(0);
    expect((await auditEventsOf(context.app, 'smart.app_registered')).length).toBeGreaterThan(0);
  });

  it('refuses a wrong PKCE verifier', async () => {
    await allowOpenRegistration(context.app);
    const { client } = await registerTestClient(context.app);
    const { code } = await authorizeWithConsent(context.app, client!, patient.headers);
    const token = await tokenRequest(context.app, client!, {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: client!.redirectUri,
      code_verifier: 'a-completely-different-verifier-0123456789abcdefghij',
    });
    expect(token.statusCode).toBe(400);
    expect(token.json<{ error: string }>().error).toBe('invalid_grant');
  });

  it('refuses an authorization without PKCE and a redirect URI that was not registered', async () => {
    await allowOpenRegistration(context.app);
    const { client } = await registerTestClient(context.app);
    const noPkce = await context.app.inject({
      method: 'GET',
      url: `/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: client!.clientId, redirect_uri: client!.redirectUri, scope: 'openid patient/*.rs' }).toString()}`,
    });
    expect(noPkce.statusCode).toBe(303);
    expect(String(noPkce.headers.location)).toContain('error=invalid_request');
    const wrongRedirect = await context.app.inject({
      method: 'GET',
      url: `/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: client!.clientId, redirect_uri: 'https://evil.example/cb', scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString()}`,
    });
    expect(wrongRedirect.statusCode).toBe(400);
    expect(wrongRedirect.headers.location).toBeUndefined();
    expect(wrongRedirect.body).toContain('redirect_uri');
  });

  it('shows a request it cannot send back as a page in the person’s language, with the security headers', async () => {
    await allowOpenRegistration(context.app);
    const { client } = await registerTestClient(context.app);
    const url = `/oauth/auth?${new URLSearchParams({ response_type: 'code', client_id: client!.clientId, redirect_uri: 'https://evil.example/cb', scope: 'openid', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).toString()}`;
    const spanish = await context.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-language': 'es-MX,es;q=0.9' },
    });
    expect(spanish.statusCode).toBe(400);
    expect(spanish.headers['content-type']).toContain('text/html');
    expect(spanish.body).toContain('<html lang="es">');
    expect(spanish.body).toContain('No se pudo conectar la aplicación');
    expect(spanish.body).toContain('no tiene registrada');
    expect(spanish.body).not.toContain('evil.example/cb"');
    expect(spanish.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(spanish.headers['content-security-policy']).toContain("default-src 'none'");
    expect(spanish.headers['x-frame-options']).toBe('DENY');
    expect(spanish.headers['x-content-type-options']).toBe('nosniff');
    expect(spanish.headers['referrer-policy']).toBe('no-referrer');
    const english = await context.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-language': 'en-GB,en;q=0.9' },
    });
    expect(english.body).toContain('<html lang="en">');
    expect(english.body).toContain('The app could not be connected');
    const jwks = await context.app.inject({ method: 'GET', url: '/oauth/jwks' });
    expect(jwks.headers['x-content-type-options']).toBe('nosniff');
    expect(jwks.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('sends access_denied back to the app when the person refuses, and audits it', async () => {
    await allowOpenRegistration(context.app);
    const { client } = await registerTestClient(context.app);
    const { code, callback } = await authorizeWithConsent(context.app, client!, patient.headers, {
      decision: 'deny',
    });
    expect(code).toBeNull();
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect((await auditEventsOf(context.app, 'smart.app_refused')).length).toBeGreaterThan(0);
  });

  it('keeps one connection per person and app: a second authorization adds to it', async () => {
    const other = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    const { client } = await launchSmartApp(context.app, other.headers, {
      scope: 'openid patient/Observation.rs',
    });
    const { code, verifier } = await authorizeWithConsent(context.app, client, other.headers, {
      scope: 'openid launch/patient patient/Appointment.rs',
    });
    const exchanged = await tokenRequest(context.app, client, {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: client.redirectUri,
      code_verifier: verifier,
    });
    expect(exchanged.statusCode).toBe(200);
    const list = await send(context.app, 'GET', '/api/v1/me/connected-apps', { session: other.token });
    const rows = list.json<{ data: { scopes: string[] }[] }>().data;
    expect(rows).toHaveLength(1);
    expect(rows[0]?.scopes).toEqual(
      expect.arrayContaining([
        'openid',
        'patient/Observation.rs',
        'launch/patient',
        'patient/Appointment.rs',
      ]),
    );
  });

  it('grants a SMART v2 scope limited to a category, and the FHIR API keeps to it', async () => {
    const scope = 'patient/Observation.rs?category=vital-signs';
    const { tokens } = await launchSmartApp(context.app, patient.headers, {
      scope: `openid launch/patient ${scope}`,
    });
    expect(tokens.scope.split(' ')).toContain(scope);
    const fhir = (url: string) =>
      context.app.inject({
        method: 'GET',
        url: `/fhir/R4${url}`,
        headers: { authorization: `Bearer ${tokens.accessToken}` },
      });
    expect((await fhir(`/Observation?patient=${patientId}&category=vital-signs`)).statusCode).toBe(200);
    expect((await fhir(`/Observation?patient=${patientId}&category=laboratory`)).statusCode).toBe(403);
    expect((await fhir(`/Observation?patient=${patientId}`)).statusCode).toBe(403);
    expect((await fhir(`/Appointment?patient=${patientId}`)).statusCode).toBe(403);
    // With the code system too; a category the API cannot filter on is not granted at all.
    const system = 'http://terminology.hl7.org/CodeSystem/observation-category';
    const second = await launchSmartApp(context.app, patient.headers, {
      scope: `openid patient/Observation.rs?category=${system}|laboratory patient/Observation.rs?category=imaging`,
    });
    expect(second.tokens.scope.split(' ')).toContain(`patient/Observation.rs?category=${system}|laboratory`);
    expect(second.tokens.scope).not.toContain('imaging');
  });

  it('issues no refresh token without offline_access', async () => {
    const { tokens } = await launchSmartApp(context.app, patient.headers, {
      scope: 'openid launch/patient patient/Observation.rs',
    });
    expect(tokens.refreshToken).toBeNull();
    expect(tokens.patient).toBe(patientId);
  });

  it('stops resolving a disconnected connection and an expired token', async () => {
    const { client, tokens } = await launchSmartApp(context.app, patient.headers);
    const list = await send(context.app, 'GET', '/api/v1/me/connected-apps', { session: patient.token });
    const id =
      list
        .json<{ data: { id: string; client: { id: string } }[] }>()
        .data.find((row) => row.client.id === client.clientId)?.id ?? '';
    const access = await resolveSmartBearer(context.app.services, tokens.accessToken);
    expect(access).not.toBeNull();
    // Someone else cannot disconnect it.
    const other = await signIn(context.app, await createUser(context.app, { roles: ['patient'] }));
    expect(
      (await send(context.app, 'DELETE', `/api/v1/me/connected-apps/${id}`, { session: other.token }))
        .statusCode,
    ).toBe(404);
    const disconnected = await send(context.app, 'DELETE', `/api/v1/me/connected-apps/${id}`, {
      session: patient.token,
    });
    expect(disconnected.statusCode).toBe(204);
    expect(await resolveSmartBearer(context.app.services, tokens.accessToken)).toBeNull();
    expect((await auditEventsOf(context.app, 'smart.app_disconnected')).length).toBe(1);

    const fresh = await launchSmartApp(context.app, patient.headers);
    expect(await resolveSmartBearer(context.app.services, fresh.tokens.accessToken)).not.toBeNull();
    const before = clock;
    clock = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    try {
      expect(await resolveSmartBearer(context.app.services, fresh.tokens.accessToken)).toBeNull();
    } finally {
      clock = before;
    }
  });

  it('stops resolving the tokens of a blocked app, and only administrators block', async () => {
    const { client, tokens } = await launchSmartApp(context.app, patient.headers, { name: 'App Bloqueada' });
    expect(
      (
        await send(context.app, 'PATCH', `/api/v1/smart/apps/${client.clientId}`, {
          session: patient.token,
          body: { blocked: true },
        })
      ).statusCode,
    ).toBe(403);
    const blocked = await send(context.app, 'PATCH', `/api/v1/smart/apps/${client.clientId}`, {
      session: admin.token,
      body: { blocked: true },
    });
    expect(blocked.statusCode).toBe(204);
    expect(await resolveSmartBearer(context.app.services, tokens.accessToken)).toBeNull();
    const apps = await send(context.app, 'GET', '/api/v1/smart/apps', { session: admin.token });
    const listed = apps
      .json<{ data: { clientId: string; blockedAt: string | null; redirectUris: string[] }[] }>()
      .data.find((row) => row.clientId === client.clientId);
    expect(listed?.blockedAt).not.toBeNull();
    expect(listed?.redirectUris).toEqual([client.redirectUri]);
    const consent = await authorizeWithConsent(context.app, client, patient.headers).catch(
      (error: Error) => error,
    );
    expect(consent).toBeInstanceOf(Error);
    expect((await auditEventsOf(context.app, 'smart.app_blocked')).length).toBe(1);
  });
});

describe('dynamic registration', () => {
  it('needs an initial access token when open registration is off, and one token registers one app', async () => {
    await allowOpenRegistration(context.app, false);
    const refused = await registerTestClient(context.app);
    expect(refused.response.statusCode).toBe(401);
    expect(refused.response.json<{ error: string }>().error).toBe('invalid_token');

    expect(
      (await send(context.app, 'POST', '/api/v1/smart/initial-access-tokens', { session: patient.token }))
        .statusCode,
    ).toBe(403);
    const issued = await send(context.app, 'POST', '/api/v1/smart/initial-access-tokens', {
      session: admin.token,
    });
    expect(issued.statusCode).toBe(201);
    const { token } = issued.json<{ token: string }>();
    const registered = await registerTestClient(context.app, {
      confidential: true,
      initialAccessToken: token,
      name: 'Sistema Hospitalario',
    });
    expect(registered.response.statusCode).toBe(201);
    expect(registered.client?.clientSecret).toBeTruthy();
    const again = await registerTestClient(context.app, { initialAccessToken: token });
    expect(again.response.statusCode).toBe(401);

    const apps = await send(context.app, 'GET', '/api/v1/smart/apps', { session: admin.token });
    const row = apps
      .json<{ data: { name: string; registration: string; registeredByName: string | null }[] }>()
      .data.find((app) => app.name === 'Sistema Hospitalario');
    expect(row?.registration).toBe('initial_access_token');
    expect(row?.registeredByName).toBe(admin.me.user.name);

    // A confidential client authenticates with client_secret_basic.
    const { code, verifier } = await authorizeWithConsent(context.app, registered.client!, patient.headers);
    const exchanged = await tokenRequest(context.app, registered.client!, {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: registered.client!.redirectUri,
      code_verifier: verifier,
    });
    expect(exchanged.statusCode).toBe(200);
  });

  it('open registration takes public clients with https or loopback redirects only', async () => {
    await allowOpenRegistration(context.app);
    const confidential = await registerTestClient(context.app, { confidential: true });
    expect(confidential.response.statusCode).toBe(400);
    const plainHttp = await registerTestClient(context.app, { redirectUri: 'http://apps.example.org/cb' });
    expect(plainHttp.response.statusCode).toBe(400);
    const https = await registerTestClient(context.app, { redirectUri: 'https://apps.example.org/cb' });
    expect(https.response.statusCode).toBe(201);
  });
});

describe('SMART tokens on /fhir/R4', () => {
  it('reads the patient with the token, and 401 once the app is disconnected', async () => {
    const { client, tokens } = await launchSmartApp(context.app, patient.headers, { name: 'Lector FHIR' });
    const bearer = { authorization: `Bearer ${tokens.accessToken}` };
    const read = await context.app.inject({
      method: 'GET',
      url: `/fhir/R4/Patient/${patientId}`,
      headers: bearer,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ resourceType: string; id: string }>()).toMatchObject({
      resourceType: 'Patient',
      id: patientId,
    });
    const list = await send(context.app, 'GET', '/api/v1/me/connected-apps', { session: patient.token });
    const connection = list
      .json<{ data: { id: string; client: { id: string }; lastUsedAt: string | null }[] }>()
      .data.find((row) => row.client.id === client.clientId);
    expect(connection?.lastUsedAt).not.toBeNull();
    await send(context.app, 'DELETE', `/api/v1/me/connected-apps/${connection?.id ?? ''}`, {
      session: patient.token,
    });
    const after = await context.app.inject({
      method: 'GET',
      url: `/fhir/R4/Patient/${patientId}`,
      headers: bearer,
    });
    expect(after.statusCode).toBe(401);
    expect(after.json<{ resourceType: string }>().resourceType).toBe('OperationOutcome');
  });

  it('keeps its signing keys across restarts: a second server on the database serves the same ones', async () => {
    const { findSigningKeys } = await import('./smart.repository.js');
    const before = await findSigningKeys(context.app.services.db, 'oidc');
    const second = await createSmartServer(context.app.services).provider();
    expect(await findSigningKeys(context.app.services.db, 'oidc')).toEqual(before);
    const served = context.app.inject({ method: 'GET', url: '/oauth/jwks' });
    const jwks = (await served).json<{ keys: { kid: string; n: string }[] }>().keys;
    const stored = parseStoredKeys(
      JSON.parse(context.app.services.secrets.decrypt(before?.sealed ?? '')),
      before?.createdAt ?? new Date(),
    );
    expect(jwks.map((key) => [key.kid, key.n])).toEqual(stored.map(({ jwk }) => [jwk.kid, jwk.n]));
    expect(second.issuer).toBe('http://app.test/oauth');
  });
});
