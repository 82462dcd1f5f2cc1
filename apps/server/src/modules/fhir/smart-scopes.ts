/*
 * SMART App Launch scopes (v1 and v2 syntax) and what they allow on /fhir/R4. Pure: no database.
 *
 * v2: `patient/Observation.rs`, `user/*.cruds`, `patient/Observation.rs?category=vital-signs`
 *     (the letters c r u d s in that order; a query limits the grant to matching resources).
 * v1: `patient/*.read`, `user/Observation.*` (read and `*` grant read and search; write grants none here).
 * Anything else (openid, fhirUser, launch/patient, offline_access…) grants no resource access.
 */

export type ScopeContext = 'patient' | 'user' | 'system';
export type ScopeInteraction = 'read' | 'search';

export interface ResourceScope {
  context: ScopeContext;
  /** A resource type or `*`. */
  resourceType: string;
  read: boolean;
  search: boolean;
  /** v2 query restriction (`?category=vital-signs`): each name with the values one of which must match. */
  restriction: ReadonlyMap<string, readonly string[]> | null;
}

const v2Pattern = /^(patient|user|system)\/(\*|[A-Z][A-Za-z]{0,63})\.(c?r?u?d?s?)(?:\?(.*))?$/;
const v1Pattern = /^(patient|user|system)\/(\*|[A-Z][A-Za-z]{0,63})\.(read|write|\*)$/;

/** One scope string as a resource grant, or null when it grants no resource access. */
export function parseScope(scope: string): ResourceScope | null {
  const v1 = v1Pattern.exec(scope);
  if (v1 !== null) {
    const [, context, resourceType, verb] = v1;
    const reads = verb === 'read' || verb === '*';
    return reads
      ? {
          context: context as ScopeContext,
          resourceType: resourceType!,
          read: true,
          search: true,
          restriction: null,
        }
      : null;
  }
  const v2 = v2Pattern.exec(scope);
  if (v2 === null) {
    return null;
  }
  const [, context, resourceType, letters, query] = v2;
  if (letters === '') {
    return null;
  }
  const read = letters!.includes('r');
  const search = letters!.includes('s');
  if (!read && !search) {
    return null;
  }
  let restriction: Map<string, string[]> | null = null;
  if (query !== undefined) {
    restriction = new Map();
    for (const [name, value] of new URLSearchParams(query)) {
      if (name === '' || value === '') {
        return null;
      }
      restriction.set(name, [...(restriction.get(name) ?? []), ...value.split(',')]);
    }
    if (restriction.size === 0) {
      return null;
    }
  }
  return { context: context as ScopeContext, resourceType: resourceType!, read, search, restriction };
}

/** The resource grants among granted scope strings (the others are ignored). */
export function parseScopes(scopes: readonly string[]): ResourceScope[] {
  return scopes.map(parseScope).filter((scope): scope is ResourceScope => scope !== null);
}

/** What the scopes allow for one interaction on one resource type. */
export type ScopeDecision =
  | { allowed: false }
  | {
      allowed: true;
      /**
       * Limited to the patient in context (only `patient/` scopes match); false when a `user/`
       * (or `system/`) scope matches: the person's own access rules decide then.
       */
      patientOnly: boolean;
      /**
       * Null when some matching scope is unrestricted; else the restrictions, one of which a
       * resource (or a search's parameters) must satisfy.
       */
      restrictions: readonly ReadonlyMap<string, readonly string[]>[] | null;
    };

/** Whether the scopes allow `interaction` on `resourceType`, and under which limits. */
export function decideScope(
  scopes: readonly ResourceScope[],
  resourceType: string,
  interaction: ScopeInteraction,
): ScopeDecision {
  const matching = scopes.filter(
    (scope) =>
      (scope.resourceType === '*' || scope.resourceType === resourceType) &&
      (interaction === 'read' ? scope.read : scope.search),
  );
  if (matching.length === 0) {
    return { allowed: false };
  }
  const broad = matching.filter((scope) => scope.context !== 'patient');
  // The widest context wins; within it, an unrestricted grant lifts every restriction.
  const chosen = broad.length > 0 ? broad : matching;
  const restrictions = chosen.some((scope) => scope.restriction === null)
    ? null
    : chosen.map((scope) => scope.restriction!);
  return { allowed: true, patientOnly: broad.length === 0, restrictions };
}

/**
 * Whether a search's parameters satisfy one of the restrictions: every restricted name is
 * searched with values all allowed (`category=vital-signs` under `?category=vital-signs`).
 */
export function searchSatisfies(
  restrictions: readonly ReadonlyMap<string, readonly string[]>[] | null,
  params: ReadonlyMap<string, readonly string[]>,
): boolean {
  if (restrictions === null) {
    return true;
  }
  return restrictions.some((restriction) =>
    [...restriction].every(([name, allowed]) => {
      const asked = params.get(name);
      return (
        asked !== undefined &&
        asked.length > 0 &&
        asked.every((value) => value.split(',').every((one) => allowed.some((ok) => tokenMatches(ok, one))))
      );
    }),
  );
}

/**
 * Whether a resource's token values satisfy one of the restrictions (`valuesOf(name)` gives the
 * resource's values as `system|code` strings), for reads.
 */
export function resourceSatisfies(
  restrictions: readonly ReadonlyMap<string, readonly string[]>[] | null,
  valuesOf: (name: string) => readonly string[],
): boolean {
  if (restrictions === null) {
    return true;
  }
  return restrictions.some((restriction) =>
    [...restriction].every(([name, allowed]) =>
      valuesOf(name).some((value) => allowed.some((ok) => tokenMatches(ok, value))),
    ),
  );
}

/** FHIR token matching: `code` matches any system, `system|code` only that system. */
function tokenMatches(allowed: string, value: string): boolean {
  const [allowedSystem, allowedCode] = splitToken(allowed);
  const [system, code] = splitToken(value);
  if (allowedCode !== code) {
    return false;
  }
  return allowedSystem === null || system === null || allowedSystem === system;
}

function splitToken(token: string): [string | null, string] {
  const bar = token.indexOf('|');
  return bar === -1 ? [null, token] : [token.slice(0, bar), token.slice(bar + 1)];
}
