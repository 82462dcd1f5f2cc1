import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { isUuid } from '../../lib/uuid.js';
import type { Actor } from '../context.js';
import { authorizeDocumentRead } from '../records/documents.policy.js';
import type { ChartGrant } from '../records/records.policy.js';

export const consentNotFound = () => appError('NOT_FOUND', 'No such consent or patient.');

/**
 * Reading a patient's signed consents: the chart's clinical readers (the patient, a doctor who
 * treats them or holds a live emergency access). Another patient, reception, administrators and
 * doctors without a care relationship get 404, as if there were nothing to read.
 */
export async function authorizeConsentRead(
  db: Database,
  actor: Actor,
  patientUserId: string,
  now: Date,
): Promise<ChartGrant> {
  if (!isUuid(patientUserId)) {
    throw consentNotFound();
  }
  try {
    return await authorizeDocumentRead(db, actor, patientUserId, now);
  } catch {
    throw consentNotFound();
  }
}

/** Signing and withdrawing: only the patient, for themself. */
export function requireSigner(actor: Actor, patientUserId?: string): void {
  if (!actor.permissions.has('records.read.own') || !actor.roleKeys.includes('patient')) {
    throw consentNotFound();
  }
  if (patientUserId !== undefined && patientUserId !== actor.userId) {
    throw consentNotFound();
  }
}

/** What a consent audit event carries about how the chart was reached. */
export function grantDetails(grant: ChartGrant): Record<string, unknown> {
  return grant.emergency === null
    ? { access: grant.access, emergency: false }
    : { access: grant.access, emergency: true, emergencyAccessId: grant.emergency.accessId };
}
