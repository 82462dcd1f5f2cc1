import type { Actor, ServiceContext } from '../context.js';
import type { FileStorage } from '../files/file-storage.js';
import { isUuid } from '../../lib/uuid.js';
import { isAppError } from '../../lib/app-error.js';
import { authorizeChartRead, authorizeChartReads, type ChartGrant } from '../records/records.policy.js';
import { requireReadAccess } from '../prescriptions/prescriptions.policy.js';
import type { FhirAccess } from './fhir-access.js';
import { FhirError } from './fhir-outcome.js';
import type { ResourceScope, ScopeInteraction } from './smart-scopes.js';
import { decideScope } from './smart-scopes.js';

/** One request's reader: the person (as the app's policies see them), the access and its scopes. */
export interface FhirReader {
  /** The service context acting as the person the access is for (its audit writes carry them). */
  ctx: ServiceContext & { actor: Actor };
  access: FhirAccess;
  scopes: readonly ResourceScope[];
  storage: FileStorage;
}

/** What one interaction on one type may see, after the scopes were checked. */
export interface FhirScopeLimit {
  /** Set when only `patient/` scopes allow it: nothing about anyone else is visible. */
  patientId: string | null;
  restrictions: readonly ReadonlyMap<string, readonly string[]>[] | null;
}

/** Checks the scopes for `interaction` on `type`: 403 when none allows it. */
export function limitFor(reader: FhirReader, type: string, interaction: ScopeInteraction): FhirScopeLimit {
  const decision = decideScope(reader.scopes, type, interaction);
  if (!decision.allowed) {
    throw new FhirError(403, `The granted scopes do not allow ${interaction} of ${type}.`);
  }
  if (decision.patientOnly && reader.access.patientId === null) {
    throw new FhirError(403, `Patient-level scopes for ${type} need a patient in context.`);
  }
  return {
    patientId: decision.patientOnly ? reader.access.patientId : null,
    restrictions: decision.restrictions,
  };
}

/** How much of a patient's record the reader sees: what the chart shows them. */
export type PatientPart = 'administrative' | 'clinical' | 'prescriptions';

export interface PatientGrant {
  patientId: string;
  /** The chart grant (for the audit details), null for prescriptions read by their issuer. */
  chart: ChartGrant | null;
}

/**
 * Whether the reader may see `part` of the patient's record, by the app's own policies
 * (records.policy for the chart, prescriptions.policy for prescriptions) and the scope's patient
 * limit. Null when not: the caller answers 404 (a read) or an empty page (a search).
 */
export async function grantFor(
  reader: FhirReader,
  limit: FhirScopeLimit,
  patientId: string,
  part: PatientPart,
): Promise<PatientGrant | null> {
  if (!isUuid(patientId) || (limit.patientId !== null && limit.patientId !== patientId)) {
    return null;
  }
  const { ctx } = reader;
  try {
    if (part === 'prescriptions') {
      await requireReadAccess(ctx.db, ctx.actor, patientId, ctx.now());
      const chart = await authorizeChartRead(ctx.db, ctx.actor, patientId, ctx.now()).catch(() => null);
      return { patientId, chart };
    }
    const chart = await authorizeChartRead(ctx.db, ctx.actor, patientId, ctx.now());
    if (part === 'clinical' && chart.access === 'administrative') {
      return null;
    }
    return { patientId, chart };
  } catch (error) {
    if (isAppError(error) && (error.statusCode === 404 || error.statusCode === 403)) {
      return null;
    }
    throw error;
  }
}

/**
 * `grantFor` for all the patients of a search page at once, by the same policies: one access
 * decision (records.policy's `authorizeChartReads`: one query, two when a doctor meets patients
 * they do not treat) instead of one per patient. The map holds the patients the reader may see.
 * Prescriptions (the prescriptions policy, searched one patient at a time) are decided per patient.
 */
export async function grantsFor(
  reader: FhirReader,
  limit: FhirScopeLimit,
  patientIds: readonly string[],
  part: PatientPart,
): Promise<Map<string, PatientGrant>> {
  const ids = [...new Set(patientIds)].filter(
    (id) => isUuid(id) && (limit.patientId === null || limit.patientId === id),
  );
  const grants = new Map<string, PatientGrant>();
  if (part === 'prescriptions') {
    const each = await Promise.all(ids.map((id) => grantFor(reader, limit, id, part)));
    for (const grant of each) {
      if (grant !== null) {
        grants.set(grant.patientId, grant);
      }
    }
    return grants;
  }
  const { ctx } = reader;
  const charts =
    ids.length === 0
      ? new Map<string, ChartGrant>()
      : await authorizeChartReads(ctx.db, ctx.actor, ids, ctx.now());
  for (const [patientId, chart] of charts) {
    if (part === 'clinical' && chart.access === 'administrative') {
      continue;
    }
    grants.set(patientId, { patientId, chart });
  }
  return grants;
}

/** `Patient/<id>` or `<id>` (a search's `patient`/`subject` value) → the id, or null. */
export function patientReferenceId(value: string): string | null {
  const id = value.startsWith('Patient/') ? value.slice('Patient/'.length) : value;
  return isUuid(id) ? id : null;
}

/**
 * The patient a patient-scoped search is about: its `patient` parameter, else the patient in
 * context, else the reader themself when they are a patient. `none`: nothing visible (an empty
 * page); `missing`: no patient could be chosen (the handler decides).
 */
export async function searchPatient(
  reader: FhirReader,
  limit: FhirScopeLimit,
  patientParam: string | null,
  part: PatientPart,
): Promise<{ kind: 'granted'; grant: PatientGrant } | { kind: 'none' } | { kind: 'missing' }> {
  let patientId: string | null;
  if (patientParam !== null) {
    patientId = patientReferenceId(patientParam);
    if (patientId === null) {
      throw new FhirError(400, 'The search parameter patient takes Patient/<id> or <id>.', 'patient');
    }
  } else if (limit.patientId !== null) {
    patientId = limit.patientId;
  } else if (isPatientReader(reader.ctx.actor)) {
    patientId = reader.ctx.actor.userId;
  } else {
    return { kind: 'missing' };
  }
  const grant = await grantFor(reader, limit, patientId, part);
  return grant === null ? { kind: 'none' } : { kind: 'granted', grant };
}

/** Someone who reads only their own record (a patient), not a clinician or staff. */
export function isPatientReader(actor: Actor): boolean {
  return (
    actor.permissions.has('records.read.own') &&
    !actor.permissions.has('records.read') &&
    !actor.permissions.has('patients.read.admin')
  );
}

export const patientRequired = () =>
  new FhirError(400, 'This search needs the patient parameter (patient=Patient/<id>).', 'patient');
