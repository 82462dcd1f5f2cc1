import { deviceRiskOf, type DeviceCheck, type DeviceCheckResult } from '@telemedicina/shared/visits';
import { loadVisit, notFound } from './visit-access.js';
import type { VisitContext } from './visit-context.js';
import { notifyWaitingRoom } from './visit-waiting-room.service.js';
import { presentDeviceCheck } from './visits.presenter.js';
import { upsertDeviceCheck } from './visits.repository.js';

/**
 * Stores the patient's pre-call check and its risk (the doctor may run the
 * check too: it is answered, not stored, since only the patient's is the
 * visit's risk). Watchers of the waiting room see it at once.
 */
export async function storeDeviceCheck(
  ctx: VisitContext,
  appointmentId: string,
  result: DeviceCheckResult,
): Promise<DeviceCheck> {
  const visit = await loadVisit(ctx, appointmentId);
  if (visit.capacity !== 'patient' && visit.capacity !== 'doctor') {
    throw notFound();
  }
  const risk = deviceRiskOf(result);
  const now = ctx.now();
  if (visit.capacity === 'doctor') {
    return { result, risk, checkedAt: now.toISOString() };
  }
  const row = await upsertDeviceCheck(ctx.db, visit.appointment.id, { result, risk, at: now });
  await ctx.audit({
    action: 'visit.device_checked',
    targetType: 'appointment',
    targetId: visit.appointment.id,
    details: { risk },
  });
  await notifyWaitingRoom(ctx, visit.appointment.doctorUserId);
  return presentDeviceCheck(row) ?? { result, risk, checkedAt: now.toISOString() };
}
