import type { BearerResolver } from '../fhir/fhir-access.js';
import {
  findOauthRecord,
  findSmartClient,
  findSmartConnection,
  touchConnection,
} from './smart.repository.js';

/**
 * Resolves a SMART access token (the opaque value oidc-provider issued) to who may read what:
 * null when the token is unknown or expired, its connection was disconnected (grant gone) or
 * its app blocked. Reads the authorization server's own records, so it needs no provider
 * instance; every use marks the connection's last use (at most once a minute).
 */
export const resolveSmartBearer: BearerResolver = async (services, token) => {
  if (token.length < 20 || token.length > 200) {
    return null;
  }
  const now = services.now();
  const record = await findOauthRecord(services.db, 'AccessToken', token);
  if (record === null || record.expiresAt === null || record.expiresAt <= now) {
    return null;
  }
  const payload = record.payload as {
    accountId?: string;
    clientId?: string;
    grantId?: string;
    scope?: string;
    exp?: number;
    extra?: { patient?: string };
  };
  if (
    typeof payload.accountId !== 'string' ||
    typeof payload.clientId !== 'string' ||
    typeof payload.grantId !== 'string'
  ) {
    return null;
  }
  const [grant, client, connection] = await Promise.all([
    findOauthRecord(services.db, 'Grant', payload.grantId),
    findSmartClient(services.db, payload.clientId),
    findSmartConnection(services.db, payload.grantId),
  ]);
  if (grant === null || (grant.expiresAt !== null && grant.expiresAt <= now)) {
    return null;
  }
  if (
    client === null ||
    client.blockedAt !== null ||
    connection === null ||
    connection.disconnectedAt !== null
  ) {
    return null;
  }
  await touchConnection(services.db, payload.grantId, now);
  return {
    userId: payload.accountId,
    client: { id: client.clientId, name: client.name },
    patientId: typeof payload.extra?.patient === 'string' ? payload.extra.patient : null,
    scopes: (payload.scope ?? '').split(' ').filter((scope) => scope !== ''),
    tokenExpiresAt: record.expiresAt,
  };
};
