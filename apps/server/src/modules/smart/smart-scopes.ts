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

/**
 * SMART v2 scopes limited to a category (`patient/Observation.rs?category=vital-signs`, also with the
 * code system: `…?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory`).
 * The authorization server keeps a fixed list of the scopes it grants (an unknown one is dropped),
 * so these are spelled out too: each category the FHIR API can filter on, for the resources that
 * have a `category` search. /fhir/R4 then serves only the matching resources (modules/fhir).
 */
export const smartCategories = [
  {
    resourceType: 'Observation',
    system: 'http://terminology.hl7.org/CodeSystem/observation-category',
    codes: ['vital-signs', 'laboratory'],
  },
] as const;

export const smartCategoryScopes: readonly string[] = contexts.flatMap((context) =>
  smartCategories.flatMap(({ resourceType, system, codes }) =>
    codes.flatMap((code) =>
      (['rs', 'r', 's'] as const).flatMap((suffix) => [
        `${context}/${resourceType}.${suffix}?category=${code}`,
        `${context}/${resourceType}.${suffix}?category=${system}|${code}`,
      ]),
    ),
  ),
);

export const smartAllScopes: readonly string[] = [
  ...smartBaseScopes,
  ...smartResourceScopes,
  ...smartCategoryScopes,
];

/** What discovery lists: the base scopes and the wildcard and per-resource v2 read scopes. */
export const smartAdvertisedScopes: readonly string[] = [
  ...smartBaseScopes,
  ...contexts.flatMap((context) => ['*', ...smartResourceTypes].map((type) => `${context}/${type}.rs`)),
  ...smartCategoryScopes.filter((scope) => scope.includes('.rs?') && !scope.includes('|')),
];

export interface ParsedResourceScope {
  context: 'patient' | 'user';
  resourceType: string;
  canRead: boolean;
  canSearch: boolean;
}

/**
 * Reads a resource scope (`patient/Observation.rs`, `user/*.read`, `patient/Observation.rs?category=…`);
 * null for anything else.
 */
export function parseResourceScope(scope: string): ParsedResourceScope | null {
  const match = /^(patient|user)\/([A-Za-z]+|\*)\.(rs|r|s|read)(?:\?category=[^\s?]+)?$/u.exec(scope);
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
