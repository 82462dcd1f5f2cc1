import { findFreeSlotsOfMany } from '../availability/availability.service.js';
import type { ServiceContext } from '../context.js';
import { loadBookingRules } from '../settings/settings.service.js';
import type { DoctorRow } from './doctors.repository.js';

/**
 * The start of each doctor's next free slots in [from, until), through the
 * availability module's slot search (weekly rules, exceptions, live
 * appointments, visit length, minimum notice). The doctors are already
 * loaded and the clinic's minimum notice is read once; the rules, exceptions
 * and appointments of the whole page are read in one query each (not per doctor).
 */
export async function findNextFreeSlots(
  ctx: ServiceContext,
  doctors: readonly DoctorRow[],
  window: { from: Date; until: Date; limit: number },
): Promise<Map<string, Date[]>> {
  if (doctors.length === 0) {
    return new Map();
  }
  const { minimumNoticeMinutes } = await loadBookingRules(ctx.db);
  const slots = await findFreeSlotsOfMany(
    ctx.db,
    doctors.map((doctor) => ({
      userId: doctor.id,
      name: doctor.name,
      timeZone: doctor.timeZone,
      status: doctor.status,
      visitMinutes: doctor.visitMinutes,
      acceptsNewPatients: doctor.acceptsNewPatients,
    })),
    { from: window.from, to: window.until, now: ctx.now(), limit: window.limit, minimumNoticeMinutes },
  );
  return new Map(
    doctors.map((doctor) => [doctor.id, (slots.get(doctor.id) ?? []).map((slot) => slot.startsAt)]),
  );
}
