import type { AppServices } from '../context.js';

/*
 * The contract between the FHIR resource server (this module) and the SMART
 * on FHIR authorization server (modules/smart): the SMART module resolves a
 * Bearer token to a FhirAccess; the /fhir/R4 routes decide what it may read.
 */

/** Who is reading through /fhir/R4, however they authenticated. */
export interface FhirAccess {
  /** The signed-in person the access acts for. */
  userId: string;
  /** The third-party app; null = the app's own session (first-party). */
  client: { id: string; name: string } | null;
  /** SMART launch context: the patient in context (patient launch). */
  patientId: string | null;
  /** Granted scope strings, SMART v1 or v2 syntax. */
  scopes: readonly string[];
  tokenExpiresAt: Date | null;
}

/** Resolves a Bearer token (from the Authorization header) to an access, or null when unknown/expired/revoked. */
export type BearerResolver = (services: AppServices, token: string) => Promise<FhirAccess | null>;
