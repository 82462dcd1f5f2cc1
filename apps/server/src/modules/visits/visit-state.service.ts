import type { AppointmentStatus } from '@telemedicina/shared/common';
import { visitCheckInOpensMinutesBefore, visitJoinGraceMinutes } from '@telemedicina/shared/visit-timing';
import type { VisitParticipant, VisitPhase, VisitState } from '@telemedicina/shared/visits';
import { findAppointment, type AppointmentWithPeople } from '../appointments/appointments.repository.js';
import { calendarDateIn } from '../settings/clinic-dates.js';
import { getCachedClinicSettings } from '../settings/clinic-settings-cache.js';
import { findUserPermissions } from '../identity/users.repository.js';
import { finalStatuses, loadVisit, userKey, type LoadedVisit } from './visit-access.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { estimateQueue } from './visit-queue.js';
import { issueTurnServer } from './turn-credentials.js';
import { canUseVisitRecord, type VisitCapacity } from './visits.policy.js';
import { presentCallReadings, presentDeviceCheck } from './visits.presenter.js';
import { findAdmittedGuestIds, findVisit, listDoctorDayAppointments } from './visits.repository.js';

const minuteMs = 60_000;

/** When the patient may check in, and until when the visit may be joined. */
export function visitWindow(appointment: { startsAt: Date; endsAt: Date }): {
  opensAt: Date;
  closesAt: Date;
} {
  return {
    opensAt: new Date(appointment.startsAt.getTime() - visitCheckInOpensMinutesBefore * minuteMs),
    closesAt: new Date(appointment.endsAt.getTime() + visitJoinGraceMinutes * minuteMs),
  };
}

/**
 * The screen a participant should see. The doctor hosts: from the opening of
 * check-in the doctor is in the call (waiting for the patient to be
 * admitted). The patient waits once checked in and is in the call once
 * admitted (in progress). A guest is in the call once admitted, waiting
 * otherwise. Completed → ended; cancelled, no-show, or past the grace period
 * without a call → closed.
 */
export function visitPhaseOf(
  appointment: { status: AppointmentStatus; startsAt: Date; endsAt: Date },
  capacity: VisitCapacity,
  now: Date,
  isGuestAdmitted = false,
): VisitPhase {
  const { status } = appointment;
  if (status === 'completed') {
    return 'ended';
  }
  if (status === 'cancelled' || status === 'no_show') {
    return 'closed';
  }
  if (status === 'in_progress') {
    return capacity === 'guest' && !isGuestAdmitted ? 'waiting' : 'in_call';
  }
  const { opensAt, closesAt } = visitWindow(appointment);
  if (now > closesAt) {
    return 'closed';
  }
  if (status === 'checked_in' && (capacity === 'patient' || capacity === 'staff')) {
    return 'waiting';
  }
  if (now < opensAt || status === 'requested') {
    return 'too_early';
  }
  if (capacity === 'doctor') {
    return 'in_call';
  }
  if (capacity === 'guest') {
    return isGuestAdmitted ? 'in_call' : 'waiting';
  }
  return status === 'checked_in' ? 'waiting' : 'check_in_open';
}

/**
 * The clinic's STUN/TURN servers (settings), then, with a TURN secret configured, a TURN entry with
 * credentials issued to this participant alone (none for staff, who only look at the visit).
 */
async function loadIceServers(
  deps: VisitDependencies,
  participant: { key: string; capacity: VisitCapacity },
): Promise<Pick<VisitState, 'iceServers' | 'iceServersTtlSeconds'>> {
  const { settings } = await getCachedClinicSettings(deps.db, deps.config);
  const iceServers: VisitState['iceServers'] = settings.video.iceServers.map((server) => ({
    urls: server.urls,
    ...(server.username === undefined ? {} : { username: server.username }),
    ...(server.credential === undefined ? {} : { credential: server.credential }),
  }));
  const turn = issueTurnServer(deps.config.turn, participant, deps.now());
  if (turn === null) {
    return { iceServers, iceServersTtlSeconds: null };
  }
  return { iceServers: [...iceServers, turn.server], iceServersTtlSeconds: turn.ttlSeconds };
}

/** The doctor's queue on the appointment's day (in the doctor's zone). */
async function queueOf(
  deps: VisitDependencies,
  appointment: AppointmentWithPeople,
  runningLateMinutes: number | null,
): Promise<Map<string, { position: number; waitMinutes: number }>> {
  const date = calendarDateIn(appointment.startsAt, appointment.doctorTimeZone);
  const day = await listDoctorDayAppointments(
    deps.db,
    appointment.doctorUserId,
    date,
    appointment.doctorTimeZone,
    ['checked_in', 'in_progress'],
  );
  return estimateQueue(day, deps.now(), runningLateMinutes);
}

/**
 * Builds one participant's view of the visit. `holdsInvitePermission`: the
 * participant holds `visits.invite` (looked up when not given).
 */
export async function composeVisitState(
  deps: VisitDependencies,
  visit: Pick<LoadedVisit, 'appointment' | 'capacity' | 'self'> & {
    guestId: string | null;
    holdsInvitePermission?: boolean;
  },
): Promise<VisitState> {
  const { appointment, capacity, self } = visit;
  const now = deps.now();
  const [visitRow, ice, admitted, holdsInvitePermission] = await Promise.all([
    findVisit(deps.db, appointment.id),
    loadIceServers(deps, { key: self.key, capacity }),
    visit.guestId === null
      ? Promise.resolve(new Set<string>())
      : findAdmittedGuestIds(deps.db, [visit.guestId]),
    visit.holdsInvitePermission ?? holdsPermission(deps, visit.self.key, 'visits.invite'),
  ]);
  const isGuestAdmitted = visit.guestId !== null && admitted.has(visit.guestId);
  const phase = visitPhaseOf(appointment, capacity, now, isGuestAdmitted);
  const runningLateMinutes = visitRow?.runningLateMinutes ?? null;
  let queuePosition: number | null = null;
  let estimatedWaitMinutes: number | null = null;
  if (phase === 'waiting') {
    if (appointment.status === 'in_progress') {
      // A guest waiting while the call is on: next in line, admitted any moment.
      queuePosition = 1;
      estimatedWaitMinutes = 0;
    } else {
      const estimate = (await queueOf(deps, appointment, runningLateMinutes)).get(appointment.id);
      queuePosition = estimate?.position ?? null;
      estimatedWaitMinutes = estimate?.waitMinutes ?? null;
    }
  }
  const { opensAt } = visitWindow(appointment);
  const isOpen = !finalStatuses.includes(appointment.status);
  return {
    appointmentId: appointment.id,
    status: appointment.status,
    phase,
    startsAt: appointment.startsAt.toISOString(),
    endsAt: appointment.endsAt.toISOString(),
    checkInOpensAt: opensAt.toISOString(),
    checkedInAt: appointment.checkedInAt?.toISOString() ?? null,
    admittedAt: appointment.admittedAt?.toISOString() ?? null,
    startedAt: appointment.startedAt?.toISOString() ?? null,
    endedAt: appointment.endedAt?.toISOString() ?? null,
    doctor: {
      id: appointment.doctorUserId,
      name: appointment.doctorName,
      timeZone: appointment.doctorTimeZone,
    },
    patient: { id: appointment.patientUserId, name: appointment.patientName },
    self,
    queuePosition,
    estimatedWaitMinutes,
    runningLateMinutes,
    deviceCheck: presentDeviceCheck(visitRow),
    iceServers: ice.iceServers,
    iceServersTtlSeconds: ice.iceServersTtlSeconds,
    canShareFiles: canUseVisitRecord(capacity) && appointment.status === 'in_progress',
    canInvite: isOpen && canUseVisitRecord(capacity) && holdsInvitePermission,
    canHost: capacity === 'doctor' && isOpen,
    // The call's connection readings are for support: the doctor and staff, not the patient or guests.
    ...(capacity === 'doctor' || capacity === 'staff'
      ? { callReadings: presentCallReadings(visitRow?.callReadings) }
      : {}),
  };
}

/** The caller's phase alone (what {@link stateFor} answers as `phase`), without the rest of the state. */
export async function phaseFor(ctx: VisitContext, visit: LoadedVisit): Promise<VisitPhase> {
  const isGuestAdmitted =
    visit.guest !== null && (await findAdmittedGuestIds(ctx.db, [visit.guest.id])).has(visit.guest.id);
  return visitPhaseOf(visit.appointment, visit.capacity, ctx.now(), isGuestAdmitted);
}

/** `GET /visits/:appointmentId` (doctor, patient, staff) and `GET /visit-guests/current` (a guest): the caller's view. */
export async function getVisitState(ctx: VisitContext, appointmentId: string): Promise<VisitState> {
  const visit = await loadVisit(ctx, appointmentId);
  return stateFor(ctx, visit);
}

export function stateFor(ctx: VisitContext, visit: LoadedVisit): Promise<VisitState> {
  const caller = ctx.caller;
  return composeVisitState(ctx, {
    ...visit,
    guestId: visit.guest?.id ?? null,
    holdsInvitePermission: caller?.kind === 'user' && caller.permissions.has('visits.invite'),
  });
}

/** Whether the user behind a participant key holds a permission (guests hold none). */
async function holdsPermission(deps: VisitDependencies, key: string, permission: string): Promise<boolean> {
  if (!key.startsWith('user:')) {
    return false;
  }
  return (await findUserPermissions(deps.db, key.slice('user:'.length))).includes(permission);
}

/**
 * The view of a participant other than the caller (pushed to their
 * connection): capacity from their key, permissions not needed beyond what
 * joining already required.
 */
export async function stateOfParticipant(
  deps: VisitDependencies,
  appointment: AppointmentWithPeople,
  participant: VisitParticipant,
): Promise<VisitState | null> {
  if (participant.key === userKey(appointment.doctorUserId)) {
    return composeVisitState(deps, { appointment, capacity: 'doctor', self: participant, guestId: null });
  }
  if (participant.key === userKey(appointment.patientUserId)) {
    return composeVisitState(deps, { appointment, capacity: 'patient', self: participant, guestId: null });
  }
  if (participant.key.startsWith('guest:')) {
    const guestId = participant.key.slice('guest:'.length);
    return composeVisitState(deps, { appointment, capacity: 'guest', self: participant, guestId });
  }
  return null;
}

/** Pushes a fresh `visit.state` to every participant connected to the visit. */
export async function pushVisitStates(deps: VisitDependencies, appointmentId: string): Promise<void> {
  const appointment = await findAppointment(deps.db, appointmentId);
  if (appointment === null) {
    return;
  }
  const presence = await deps.realtime.presence([appointmentId]);
  const seen = new Set<string>();
  for (const entry of presence) {
    if (seen.has(entry.participant.key)) {
      continue;
    }
    seen.add(entry.participant.key);
    const state = await stateOfParticipant(deps, appointment, entry.participant);
    if (state !== null) {
      deps.realtime.toParticipant(appointmentId, entry.participant.key, 'visit.state', state);
    }
  }
}
