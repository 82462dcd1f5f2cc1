import type { Resource, ResourceType } from '@medplum/fhirtypes';
import type { FhirReader, FhirScopeLimit, PatientGrant } from './fhir-reader.js';
import { badParam } from './fhir-outcome.js';
import type { DateBound } from './fhir.repository.js';

/*
 * One resource type of /fhir/R4: its read, its search and the search parameters it answers.
 * The routes and the CapabilityStatement are both generated from the table of these
 * (fhir-table.ts), so what /metadata says is what the server does.
 */

export interface SearchParamDefinition {
  name: string;
  type: 'token' | 'reference' | 'date' | 'string';
  documentation: string;
}

/** A search as the handler receives it: the parameters (the paging and format ones taken out). */
export interface SearchRequest {
  params: ReadonlyMap<string, readonly string[]>;
  count: number;
  offset: number;
}

export interface Found<R extends Resource = Resource> {
  resource: R;
  /** The patient whose record it belongs to (audited on them), or null. */
  patient: PatientGrant | null;
}

export interface SearchResult {
  resources: Resource[];
  total: number;
  /** The patients whose records the page shows (each audited). */
  patients: PatientGrant[];
}

/** The raw bytes behind a Binary read, for a client that did not ask for FHIR JSON. */
export interface RawContent {
  contentType: string;
  bytes: Buffer;
}

export interface ResourceHandler {
  type: ResourceType;
  /** What /metadata says about the type. */
  documentation: string;
  /** Profiles the resources claim (IPA, vital signs). */
  supportedProfiles?: readonly string[];
  searchParams: readonly SearchParamDefinition[] | null;
  read: (
    reader: FhirReader,
    limit: FhirScopeLimit,
    id: string,
  ) => Promise<(Found & { raw?: RawContent }) | null>;
  search?: (reader: FhirReader, limit: FhirScopeLimit, request: SearchRequest) => Promise<SearchResult>;
  /** The resource's token values (`system|code`) of a search parameter, for scope restrictions on reads. */
  tokenValues?: (resource: Resource, name: string) => readonly string[];
}

export const emptyResult: SearchResult = { resources: [], total: 0, patients: [] };

/** The one value of a parameter given at most once, or null. */
export function single(params: ReadonlyMap<string, readonly string[]>, name: string): string | null {
  const values = params.get(name);
  if (values === undefined) {
    return null;
  }
  if (values.length !== 1 || values[0]!.includes(',')) {
    throw badParam(name, `The search parameter ${name} takes one value here.`);
  }
  return values[0]!;
}

/** Every value of a token parameter (repeated or comma-separated: OR within one occurrence only). */
export function anyOf(params: ReadonlyMap<string, readonly string[]>, name: string): string[] | null {
  const values = params.get(name);
  if (values === undefined) {
    return null;
  }
  if (values.length !== 1) {
    throw badParam(name, `The search parameter ${name} takes one occurrence (values separated by commas).`);
  }
  return values[0]!.split(',').map((value) => value.trim());
}

/** The code of a token value `system|code` or `code`, checked against `system` when one is given. */
export function tokenCode(value: string, system: string | null): string | null {
  const bar = value.indexOf('|');
  if (bar === -1) {
    return value;
  }
  const given = value.slice(0, bar);
  return given === '' || system === null || given === system ? value.slice(bar + 1) : null;
}

const datePattern =
  /^(eq|ne|gt|lt|ge|le|sa|eb|ap)?(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?$/;

/** `date` parameter values (`ge2026-05-01`, `2026-05-04T10:00:00Z`…) as bounds; 400 when malformed. */
export function dateBounds(params: ReadonlyMap<string, readonly string[]>, name: string): DateBound[] {
  return (params.get(name) ?? []).map((value) => {
    const match = datePattern.exec(value);
    if (match === null) {
      throw badParam(name, `The search parameter ${name} takes a date such as ge2026-05-01 (got ${value}).`);
    }
    const [, prefix = 'eq', year, month, day, hour, minute, second, zone] = match;
    if (!['eq', 'ge', 'gt', 'le', 'lt'].includes(prefix)) {
      throw badParam(name, `The date prefix ${prefix} is not supported by ${name}.`);
    }
    let start: Date;
    let end: Date;
    if (hour !== undefined) {
      start = new Date(
        `${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${zone === 'Z' ? 'Z' : zone}`,
      );
      end = new Date(start.getTime() + (second === undefined ? 60_000 : 1000));
    } else {
      const y = Number(year);
      const m = month === undefined ? 0 : Number(month) - 1;
      const d = day === undefined ? 1 : Number(day);
      start = new Date(Date.UTC(y, m, d));
      end =
        day !== undefined
          ? new Date(Date.UTC(y, m, d + 1))
          : month !== undefined
            ? new Date(Date.UTC(y, m + 1, 1))
            : new Date(Date.UTC(y + 1, 0, 1));
      if (start.getUTCMonth() !== m || start.getUTCDate() !== d) {
        throw badParam(name, `The search parameter ${name} takes a real date (got ${value}).`);
      }
    }
    if (Number.isNaN(start.getTime())) {
      throw badParam(name, `The search parameter ${name} takes a real date (got ${value}).`);
    }
    return { op: prefix as DateBound['op'], start, end };
  });
}

/** Whether an instant satisfies every bound (in-memory searches). */
export function withinBounds(at: Date, bounds: readonly DateBound[]): boolean {
  const time = at.getTime();
  return bounds.every((bound) => {
    switch (bound.op) {
      case 'eq':
        return time >= bound.start.getTime() && time < bound.end.getTime();
      case 'ge':
        return time >= bound.start.getTime();
      case 'gt':
        return time >= bound.end.getTime();
      case 'le':
        return time < bound.end.getTime();
      case 'lt':
        return time < bound.start.getTime();
    }
  });
}

/** A reference in a resource. */
export const ref = (type: string, id: string, display?: string) => ({
  reference: `${type}/${id}`,
  ...(display === undefined ? {} : { display }),
});
