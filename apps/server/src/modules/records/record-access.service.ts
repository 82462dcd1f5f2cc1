import {
  emergencyAccessMinutes,
  type EmergencyAccess,
  type EmergencyAccessRequest,
  type RecordAccessPage,
  type RecordAccessQuery,
} from '@telemedicina/shared/records';
import { appError } from '../../lib/app-error.js';
import { type ServiceContext, requireActor } from '../context.js';
import { notify } from '../notifications/notifications.service.js';
import { isUuid } from '../../lib/uuid.js';
import { findCareRelationship } from './care-relationship.js';
import { findPatientUser } from './patients.repository.js';
import { insertEmergencyAccess, listRecordAccessEvents } from './record-access.repository.js';
import { notFound } from './records.policy.js';
import { presentRecordAccessEntry } from './records.presenter.js';

/**
 * `POST /patients/:patientId/emergency-access`: a doctor with records.emergency who does not
 * treat the patient opens the chart for `emergencyAccessMinutes`, stating why. Audited with the
 * reason; the patient is notified in the app and sees it in their access log.
 */
export async function grantEmergencyAccess(
  ctx: ServiceContext,
  patientId: string,
  body: EmergencyAccessRequest,
): Promise<EmergencyAccess> {
  const actor = requireActor(ctx);
  const patient = isUuid(patientId) ? await findPatientUser(ctx.db, patientId) : null;
  if (patient === null || patient.id === actor.userId) {
    throw notFound();
  }
  const now = ctx.now();
  const relationship = await findCareRelationship(ctx.db, actor.userId, patientId, now);
  if (relationship.kind === 'treating') {
    throw appError('CONFLICT', 'You already treat this patient: open the chart directly.');
  }
  const expiresAt = new Date(now.getTime() + emergencyAccessMinutes * 60_000);
  const row = await insertEmergencyAccess(ctx.db, {
    doctorUserId: actor.userId,
    patientUserId: patientId,
    reason: body.reason,
    grantedAt: now,
    expiresAt,
  });
  await ctx.audit({
    action: 'record.emergency_access',
    targetType: 'patient',
    targetId: patientId,
    details: {
      section: 'chart',
      emergency: true,
      emergencyAccessId: row.id,
      reason: body.reason,
      expiresAt: expiresAt.toISOString(),
    },
  });
  await notify(ctx, [
    {
      userId: patientId,
      kind: 'record.emergencyAccess',
      data: { doctorId: actor.userId, grantedAt: now.toISOString(), expiresAt: expiresAt.toISOString() },
      createdAt: now,
    },
  ]);
  return {
    id: row.id,
    patientId,
    grantedAt: row.grantedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** `GET /me/record-access`: who viewed or changed the signed-in patient's record, newest first. */
export async function listMyRecordAccess(
  ctx: ServiceContext,
  query: RecordAccessQuery,
): Promise<RecordAccessPage> {
  const actor = requireActor(ctx);
  const { rows, total } = await listRecordAccessEvents(ctx.db, actor.userId, query);
  return {
    data: rows.map(presentRecordAccessEntry),
    page: query.page,
    pageSize: query.pageSize,
    total,
  };
}
