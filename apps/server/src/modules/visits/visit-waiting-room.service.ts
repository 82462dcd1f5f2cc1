import type { VisitParticipant, WaitingRoom, WaitingRoomEntry } from '@telemedicina/shared/visits';
import { appError } from '../../lib/app-error.js';
import { calendarDateIn } from '../settings/clinic-dates.js';
import { findUserById } from '../identity/users.repository.js';
import { isUuid } from '../../lib/uuid.js';
import { openStatuses, userKey } from './visit-access.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { canWatchWaitingRoom } from './visits.policy.js';
import { presentDeviceCheck } from './visits.presenter.js';
import { findVisits, listDoctorDayAppointments, type VisitRow } from './visits.repository.js';

/** Pushes `waitingRoom.updated` to whoever watches the doctor's waiting room (nothing when nobody does). */
export async function notifyWaitingRoom(deps: VisitDependencies, doctorId: string): Promise<void> {
  if (!(await deps.realtime.hasWatchers(doctorId))) {
    return;
  }
  const room = await buildWaitingRoom(deps, doctorId);
  if (room !== null) {
    deps.realtime.toWatchers(doctorId, 'waitingRoom.updated', room);
  }
}

/**
 * Today's (in the doctor's zone) visits of the doctor that are not final, in
 * start order, with the patient's device check, whether the patient's page is
 * connected, and guests waiting to be admitted. Null when no such doctor.
 */
export async function buildWaitingRoom(
  deps: VisitDependencies,
  doctorId: string,
): Promise<WaitingRoom | null> {
  const doctor = isUuid(doctorId) ? await findUserById(deps.db, doctorId) : null;
  if (doctor === null) {
    return null;
  }
  const date = calendarDateIn(deps.now(), doctor.timeZone);
  const day = await listDoctorDayAppointments(deps.db, doctorId, date, doctor.timeZone, openStatuses);
  const ids = day.map((entry) => entry.id);
  const [visitRows, presence] = await Promise.all([findVisits(deps.db, ids), deps.realtime.presence(ids)]);
  const visitsById = new Map<string, VisitRow>(visitRows.map((row) => [row.appointmentId, row]));
  let runningLate: { minutes: number; at: number } | null = null;
  for (const row of visitRows) {
    if (row.runningLateMinutes !== null && row.runningLateAt !== null) {
      const at = row.runningLateAt.getTime();
      if (runningLate === null || at > runningLate.at) {
        runningLate = { minutes: row.runningLateMinutes, at };
      }
    }
  }
  const entries: WaitingRoomEntry[] = day.map((appointment) => {
    const here = presence.filter((entry) => entry.appointmentId === appointment.id);
    const waitingGuests = new Map<string, VisitParticipant>();
    for (const entry of here) {
      if (!entry.inCall && entry.participant.key.startsWith('guest:')) {
        waitingGuests.set(entry.participant.key, entry.participant);
      }
    }
    return {
      appointmentId: appointment.id,
      patient: { id: appointment.patientUserId, name: appointment.patientName },
      startsAt: appointment.startsAt.toISOString(),
      endsAt: appointment.endsAt.toISOString(),
      status: appointment.status,
      checkedInAt: appointment.checkedInAt?.toISOString() ?? null,
      admittedAt: appointment.admittedAt?.toISOString() ?? null,
      online: here.some((entry) => entry.participant.key === userKey(appointment.patientUserId)),
      deviceCheck: presentDeviceCheck(visitsById.get(appointment.id)),
      waitingGuests: [...waitingGuests.values()],
    };
  });
  return { doctorId, entries, runningLateMinutes: runningLate?.minutes ?? null };
}

/** `GET /doctors/:doctorId/waiting-room`: the doctor themself, or staff; anyone else 404. */
export async function getWaitingRoom(ctx: VisitContext, doctorId: string): Promise<WaitingRoom> {
  const caller = ctx.caller;
  if (caller === null || !canWatchWaitingRoom(caller, doctorId)) {
    throw appError('NOT_FOUND', 'No such waiting room.');
  }
  const room = await buildWaitingRoom(ctx, doctorId);
  if (room === null) {
    throw appError('NOT_FOUND', 'No such waiting room.');
  }
  return room;
}
