import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import type { Actor } from '../context.js';
import { authorizeChartRead, type ChartGrant } from './records.policy.js';
import type { DocumentRow } from './documents.repository.js';

/** Reading documents: the chart's clinical readers (the patient, a treating doctor, emergency access). */
export async function authorizeDocumentRead(
  db: Database,
  actor: Actor,
  patientId: string,
  now: Date,
): Promise<ChartGrant> {
  const grant = await authorizeChartRead(db, actor, patientId, now);
  if (grant.access === 'administrative') {
    // Staff see the administrative part of a chart only; documents are clinical.
    throw appError('NOT_FOUND', 'No such document.');
  }
  return grant;
}

/**
 * Uploading (documents.upload): the patient into their own chart, or a doctor (records.read) who
 * treats the patient or holds a live emergency access. Anyone else gets 404 — a chart's existence
 * is not revealed — and this is decided before a byte of the upload is read.
 */
export async function authorizeDocumentUpload(
  db: Database,
  actor: Actor,
  patientId: string,
  now: Date,
): Promise<ChartGrant> {
  const grant = await authorizeChartRead(db, actor, patientId, now);
  const isSelf = grant.access === 'self';
  const isDoctor = grant.access === 'treating' || grant.access === 'emergency';
  if ((!isSelf && !isDoctor) || !actor.permissions.has('documents.upload')) {
    throw appError('NOT_FOUND', 'No such patient.');
  }
  return grant;
}

/**
 * Removing: uploads only (a visit summary belongs to a signed note), by their uploader or by a
 * doctor who treats the patient (records.write). Never for staff or under emergency access alone.
 */
export function canRemoveDocument(actor: Actor, grant: ChartGrant, document: DocumentRow): boolean {
  if (document.kind !== 'upload' || document.removedAt !== null) {
    return false;
  }
  if (document.uploadedByUserId === actor.userId) {
    return true;
  }
  return grant.access === 'treating' && actor.permissions.has('records.write');
}
