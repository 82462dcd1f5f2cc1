/*
 * The SMART App Launch scopes this server grants: OpenID Connect, launch context, refresh, and
 * read access to FHIR resources in SMART v2 (`patient/Observation.rs`) and v1 (`.read`) syntax.
 * Only reads exist (the FHIR API serves no writes), so `c`, `u`, `d` are never granted.
 */

/** The resource types the FHIR API serves (and `*` for all of them). */
export const smartResourceTypes = [
  'Patient',
  'Practitioner',
  'PractitionerRole',
  'Organization',
  'Schedule',
  'Slot',
  'Appointment',
  'Encounter',
  'AllergyIntolerance',
  'Condition',
  'MedicationStatement',
  'MedicationRequest',
  'Observation',
  'DocumentReference',
  'Binary',
  'AuditEvent',
  'Consent',
] as const;

const readSuffixes = ['rs', 'r', 's', 'read'] as const;
const contexts = ['patient', 'user'] as const;

/** Scopes outside the resource grammar. */
export const smartBaseScopes = ['openid', 'fhirUser', 'launch/patient', 'offline_access'] as const;

/** Every resource scope the server accepts (the grammar spelled out: it is finite). */
export const smartResourceScopes: readonly string[] = contexts.flatMap((context) =>
  ['*', ...smartResourceTypes].flatMap((type) =>
    readSuffixes.map((suffix) => `${context}/${type}.${suffix}`),
  ),
);

/** What discovery lists: the base scopes and the wildcard and per-resource v2 read scopes. */
export const smartAdvertisedScopes: readonly string[] = [
  ...smartBaseScopes,
  ...contexts.flatMap((context) => ['*', ...smartResourceTypes].map((type) => `${context}/${type}.rs`)),
];

export const smartAllScopes: readonly string[] = [...smartBaseScopes, ...smartResourceScopes];

export interface ParsedResourceScope {
  context: 'patient' | 'user';
  resourceType: string;
  canRead: boolean;
  canSearch: boolean;
}

/** Reads a resource scope (`patient/Observation.rs`, `user/*.read`); null for anything else. */
export function parseResourceScope(scope: string): ParsedResourceScope | null {
  const match = /^(patient|user)\/([A-Za-z]+|\*)\.(rs|r|s|read)$/u.exec(scope);
  if (match === null) {
    return null;
  }
  const [, context, resourceType, suffix] = match;
  return {
    context: context as 'patient' | 'user',
    resourceType: resourceType ?? '',
    canRead: suffix !== 's',
    canSearch: suffix !== 'r',
  };
}
