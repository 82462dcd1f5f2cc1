import { z } from 'zod';

/*
 * SMART on FHIR sign-in: the consent screen of the authorization page, the person's connected
 * apps and the administrators' registered apps.
 */

export const smartInteractionUidSchema = z
  .string()
  .min(10)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/u);

/** What the consent screen shows: the app and each permission it asks for. */
export const smartInteractionSchema = z.object({
  uid: z.string(),
  client: z.object({ id: z.string(), name: z.string(), uri: z.string().nullable() }),
  scopes: z.array(z.string()),
});
export type SmartInteraction = z.infer<typeof smartInteractionSchema>;

export const smartDecisionRequestSchema = z.object({ decision: z.enum(['allow', 'deny']) });
export type SmartDecisionRequest = z.infer<typeof smartDecisionRequestSchema>;

/** Where the browser goes next (back to the authorization server, which answers the app). */
export const smartDecisionResponseSchema = z.object({ redirectTo: z.string() });

export const connectedAppSchema = z.object({
  id: z.string(),
  client: z.object({ id: z.string(), name: z.string(), uri: z.string().nullable() }),
  scopes: z.array(z.string()),
  connectedAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ConnectedApp = z.infer<typeof connectedAppSchema>;
export const connectedAppListSchema = z.object({ data: z.array(connectedAppSchema) });

export const registeredAppSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  redirectUris: z.array(z.string()),
  registration: z.enum(['dynamic', 'initial_access_token']),
  registeredAt: z.string(),
  registeredByName: z.string().nullable(),
  blockedAt: z.string().nullable(),
});
export type RegisteredApp = z.infer<typeof registeredAppSchema>;
export const registeredAppListSchema = z.object({
  data: z.array(registeredAppSchema),
  openRegistration: z.boolean(),
});

export const blockAppRequestSchema = z.object({ blocked: z.boolean() });
export const openRegistrationRequestSchema = z.object({ openRegistration: z.boolean() });

export const initialAccessTokenSchema = z.object({ token: z.string(), expiresAt: z.string() });

export interface SmartScopeLabel {
  key: string;
  resourceType: string | null;
  /** The category a v2 scope is limited to (`?category=vital-signs`, code without its system). */
  category: string | null;
}

/** The words key of a scope on the consent screen and in connected apps (resource scopes by type). */
export function smartScopeLabel(scope: string): SmartScopeLabel | null {
  if (scope === 'openid' || scope === 'fhirUser' || scope === 'profile') {
    return { key: 'identity', resourceType: null, category: null };
  }
  if (scope === 'launch/patient') {
    return { key: 'launchPatient', resourceType: null, category: null };
  }
  if (scope === 'offline_access') {
    return { key: 'offline', resourceType: null, category: null };
  }
  const match = /^(patient|user)\/([A-Za-z]+|\*)\.(rs|r|s|read)(?:\?category=([^\s?&]+))?$/u.exec(scope);
  if (match === null) {
    return null;
  }
  const category = match[4] === undefined ? null : match[4].slice(match[4].lastIndexOf('|') + 1);
  return {
    key: match[1] === 'patient' ? 'patientRead' : 'userRead',
    resourceType: match[2] ?? null,
    category,
  };
}
