import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { findCareRelationship, type CareRelationship } from '../records/care-relationship.js';

/** How the actor reaches a patient's prescriptions; `none` answers 404 (never 403). */
export type PrescriptionAccess = { kind: 'self' } | { kind: 'issuer' } | CareRelationship;

export const notFound = () => appError('NOT_FOUND', 'No such prescription or patient.');

/**
 * Issuing: a doctor who may prescribe and treats the patient, or holds a live emergency access to
 * their record. Nobody prescribes for themselves. Everyone else: 404.
 */
export async function requireIssueAccess(
  db: Database,
  actor: Actor,
  patientUserId: string,
  now: Date,
): Promise<CareRelationship & { kind: 'treating' | 'emergency' }> {
  if (!actor.permissions.has('prescriptions.write') || actor.userId === patientUserId) {
    throw notFound();
  }
  const relationship = await findCareRelationship(db, actor.userId, patientUserId, now);
  if (relationship.kind === 'none') {
    throw notFound();
  }
  return relationship;
}

/**
 * Reading a patient's prescriptions: the patient themselves, or a doctor with records.read who
 * treats them (or holds an emergency access). Reception and administrators never: 404.
 * `issuerUserId` lets the doctor who wrote one prescription read it even after the relationship ended.
 */
export async function requireReadAccess(
  db: Database,
  actor: Actor,
  patientUserId: string,
  now: Date,
  issuerUserId?: string,
): Promise<PrescriptionAccess> {
  if (actor.userId === patientUserId && actor.permissions.has('records.read.own')) {
    return { kind: 'self' };
  }
  if (issuerUserId !== undefined && actor.userId === issuerUserId) {
    return { kind: 'issuer' };
  }
  if (!actor.permissions.has('records.read') || actor.userId === patientUserId) {
    throw notFound();
  }
  const relationship = await findCareRelationship(db, actor.userId, patientUserId, now);
  if (relationship.kind === 'none') {
    throw notFound();
  }
  return relationship;
}

/** Only the doctor who issued a prescription cancels it. */
export function requireIssuer(actor: Actor, doctorUserId: string): void {
  if (actor.userId !== doctorUserId || !actor.permissions.has('prescriptions.write')) {
    throw notFound();
  }
}
