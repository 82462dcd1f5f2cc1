import { isPermission } from '@telemedicina/shared/permission-catalogue';
import type { Actor, AppServices } from '../context.js';
import { isPatientOnly, resolveSessionToken } from '../identity/sessions.service.js';
import type { BearerResolver, FhirAccess } from './fhir-access.js';
import { FhirError } from './fhir-outcome.js';
import { findUserGrants } from './fhir.repository.js';

/** The first-party grants: a patient reads their own record, anyone else as the app lets them. */
export const firstPartyPatientScopes = ['patient/*.rs'] as const;
export const firstPartyUserScopes = ['user/*.rs'] as const;

/** Until the SMART server is wired, no Bearer token is known. */
export const noBearerTokens: BearerResolver = () => Promise.resolve(null);

export interface FhirCredentials {
  /** The Authorization header, if any. */
  authorization: string | undefined;
  /** The session cookie's token, when the request may use it (same origin), else null. */
  sessionToken: string | null;
}

/** Who reads: a SMART token (Bearer) or the app's own session, as the person's actor and access. */
export async function authenticateFhir(
  services: AppServices,
  resolveBearer: BearerResolver,
  credentials: FhirCredentials,
): Promise<{ actor: Actor; access: FhirAccess }> {
  if (credentials.authorization !== undefined) {
    const match = /^Bearer\s+([\x21-\x7e]+)$/i.exec(credentials.authorization);
    if (match === null) {
      throw new FhirError(401, 'Send the access token as Authorization: Bearer <token>.');
    }
    const access = await resolveBearer(services, match[1]!);
    const actor = access === null ? null : await actorOf(services, access);
    if (access === null || actor === null) {
      throw new FhirError(401, 'The access token is not valid (unknown, expired or revoked).');
    }
    return { actor, access };
  }
  const resolution =
    credentials.sessionToken === null ? null : await resolveSessionToken(services, credentials.sessionToken);
  if (resolution?.kind !== 'live') {
    throw new FhirError(401, 'Authenticate with a SMART access token (Authorization: Bearer).');
  }
  const { actor } = resolution;
  if (actor.mfaEnrollmentRequired) {
    throw new FhirError(403, 'Set up the second factor in the app first.');
  }
  const isPatient = isPatientOnly(actor.roleKeys);
  return {
    actor,
    access: {
      userId: actor.userId,
      client: null,
      patientId: isPatient ? actor.userId : null,
      scopes: isPatient ? firstPartyPatientScopes : firstPartyUserScopes,
      tokenExpiresAt: actor.session.expiresAt,
    },
  };
}

/** The person a token acts for, as the app's policies see them; null when they cannot sign in now. */
async function actorOf(services: AppServices, access: FhirAccess): Promise<Actor | null> {
  const grants = await findUserGrants(services.db, access.userId);
  if (grants === null || grants.status !== 'active') {
    return null;
  }
  const now = services.now();
  return {
    userId: access.userId,
    sessionId: `fhir:${access.client?.id ?? 'first-party'}`,
    permissions: new Set(grants.permissions.filter(isPermission)),
    roleKeys: grants.roleKeys,
    mfaEnrollmentRequired: false,
    session: { createdAt: now, idleTimeoutSeconds: 0, expiresAt: access.tokenExpiresAt ?? now },
  };
}
