import { canTransitionAppointment } from '@telemedicina/shared/booking';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import { maxVisitParticipants } from '@telemedicina/shared/visit-timing';
import type { VisitParticipant, VisitState } from '@telemedicina/shared/visits';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { findAppointment, type AppointmentWithPeople } from '../appointments/appointments.repository.js';
import { calendarDateIn } from '../settings/clinic-dates.js';
import { isUuid } from '../../lib/uuid.js';
import {
  finalStatuses,
  isLiveGuest,
  loadVisit,
  notFound,
  openStatuses,
  userKey,
  type LoadedVisit,
} from './visit-access.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { pushVisitStates, stateFor, stateOfParticipant, visitWindow } from './visit-state.service.js';
import { notifyWaitingRoom } from './visit-waiting-room.service.js';
import { guestParticipant } from './visits.presenter.js';
import {
  findAdmittedGuestIds,
  findVisitGuest,
  listDoctorDayAppointments,
  markVisitStarted,
  setRunningLate,
  updateVisitAppointment,
  type VisitGuestRow,
} from './visits.repository.js';

/**
 * Lets pending I/O (socket events in and out) run before going on. Embedded PGlite answers queries
 * without returning to the event loop, so a chain of queries would otherwise hold back every
 * socket event meanwhile — e.g. the WebRTC offer and answer of a call that has just been admitted.
 * Two turns of `setImmediate`: the first may run in the same loop iteration, before any new poll
 * for I/O; the second comes after one.
 */
const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/** After the queue moved: fresh states for the doctor's waiting visits today, and the watchers' list. */
async function pushDoctorQueue(deps: VisitDependencies, appointment: AppointmentWithPeople): Promise<void> {
  const date = calendarDateIn(deps.now(), appointment.doctorTimeZone);
  const waiting = await listDoctorDayAppointments(
    deps.db,
    appointment.doctorUserId,
    date,
    appointment.doctorTimeZone,
    ['confirmed', 'checked_in', 'in_progress'],
  );
  const ids = new Set(waiting.map((entry) => entry.id));
  ids.delete(appointment.id);
  for (const id of ids) {
    await yieldToEventLoop();
    await pushVisitStates(deps, id);
  }
  await notifyWaitingRoom(deps, appointment.doctorUserId);
}

function assertNotFinal(appointment: { status: AppointmentStatus }): void {
  if (finalStatuses.includes(appointment.status)) {
    throw appError('VISIT_ENDED', 'This visit has ended.', { status: appointment.status });
  }
}

function invalidTransition(from: AppointmentStatus, to: AppointmentStatus): AppError {
  return appError('INVALID_TRANSITION', `A visit cannot go from ${from} to ${to}.`, { from, to });
}

async function reloadAppointment(ctx: VisitContext, id: string): Promise<AppointmentWithPeople> {
  const appointment = await findAppointment(ctx.db, id);
  if (appointment === null) {
    throw notFound();
  }
  return appointment;
}

/**
 * The patient checks in: from 15 minutes before the start until the grace
 * period after the end (409 VISIT_NOT_OPEN otherwise); confirmed →
 * checked_in with the time. Idempotent once checked in or admitted.
 */
export async function checkIn(ctx: VisitContext, appointmentId: string): Promise<VisitState> {
  const visit = await loadVisit(ctx, appointmentId);
  if (visit.capacity !== 'patient') {
    throw appError('FORBIDDEN', 'Only the patient checks in.');
  }
  const { appointment } = visit;
  assertNotFinal(appointment);
  if (appointment.status === 'checked_in' || appointment.status === 'in_progress') {
    return stateFor(ctx, visit);
  }
  const now = ctx.now();
  const { opensAt, closesAt } = visitWindow(appointment);
  if (appointment.status !== 'confirmed' || now < opensAt || now > closesAt) {
    throw appError('VISIT_NOT_OPEN', 'Check-in is not open for this visit.', {
      opensAt: opensAt.toISOString(),
      closesAt: closesAt.toISOString(),
    });
  }
  const updated = await updateVisitAppointment(ctx.db, appointment.id, ['confirmed'], {
    status: 'checked_in',
    checkedInAt: now,
    updatedAt: now,
  });
  if (updated === null) {
    // A concurrent check-in (or cancellation) won: answer what is there now.
    const current = await reloadAppointment(ctx, appointment.id);
    assertNotFinal(current);
    return stateFor(ctx, { ...visit, appointment: current });
  }
  await ctx.audit({ action: 'visit.checked_in', targetType: 'appointment', targetId: appointment.id });
  const current = await reloadAppointment(ctx, appointment.id);
  await pushVisitStates(ctx, appointment.id);
  await pushDoctorQueue(ctx, current);
  return stateFor(ctx, { ...visit, appointment: current });
}

function requireHost(visit: LoadedVisit): void {
  if (visit.capacity !== 'doctor') {
    // Staff see the visit but do not host it; anyone else never got this far (404).
    throw appError('FORBIDDEN', 'Only the visit’s doctor can do this.');
  }
}

/** Distinct participants in the call right now. */
async function callParticipants(ctx: VisitDependencies, appointmentId: string): Promise<VisitParticipant[]> {
  const presence = await ctx.realtime.presence([appointmentId]);
  const byKey = new Map<string, VisitParticipant>();
  for (const entry of presence) {
    if (entry.inCall) {
      byKey.set(entry.participant.key, entry.participant);
    }
  }
  return [...byKey.values()];
}

/**
 * Stamps the start of the call the first time the doctor and the patient are
 * both in it; everyone connected gets the new state.
 */
export async function markStartedIfTogether(
  deps: VisitDependencies,
  appointment: AppointmentWithPeople,
): Promise<void> {
  if (appointment.status !== 'in_progress' || appointment.startedAt !== null) {
    return;
  }
  const inCall = new Set(
    (await callParticipants(deps, appointment.id)).map((participant) => participant.key),
  );
  if (inCall.has(userKey(appointment.doctorUserId)) && inCall.has(userKey(appointment.patientUserId))) {
    if (await markVisitStarted(deps.db, appointment.id, deps.now())) {
      await pushVisitStates(deps, appointment.id);
    }
  }
}

/**
 * The doctor admits the checked-in patient (checked_in → in_progress, with
 * the time) or a waiting guest (`participantKey` = `guest:<id>`, audited).
 * The admitted participant's connection moves from the waiting room into the
 * call on every instance and receives its new state; the others in the call
 * are told to connect to it. At most four in the call: 409 VISIT_FULL.
 */
export async function admitToVisit(
  ctx: VisitContext,
  appointmentId: string,
  participantKey: string | undefined,
): Promise<VisitState> {
  const visit = await loadVisit(ctx, appointmentId);
  requireHost(visit);
  const { appointment } = visit;
  assertNotFinal(appointment);
  const patientKey = userKey(appointment.patientUserId);
  const key = participantKey ?? patientKey;
  const now = ctx.now();
  let admitted: VisitParticipant;
  let guest: VisitGuestRow | null = null;
  if (key === patientKey) {
    if (
      appointment.status !== 'in_progress' &&
      !canTransitionAppointment(appointment.status, 'in_progress')
    ) {
      throw invalidTransition(appointment.status, 'in_progress');
    }
    admitted = { key: patientKey, name: appointment.patientName, role: 'patient' };
  } else {
    const guestId = key.startsWith('guest:') ? key.slice('guest:'.length) : '';
    const found = isUuid(guestId) ? await findVisitGuest(ctx.db, guestId) : null;
    if (!isLiveGuest(found, appointment.id, now)) {
      throw appError('NOT_FOUND', 'No such guest in this visit.');
    }
    guest = found;
    admitted = guestParticipant(found);
  }
  const inCall = await callParticipants(ctx, appointment.id);
  const isAlreadyIn = inCall.some((participant) => participant.key === key);
  if (!isAlreadyIn && inCall.length >= maxVisitParticipants) {
    throw appError('VISIT_FULL', 'The call already has four participants.', {
      max: maxVisitParticipants,
    });
  }
  // The patient's admission is audited once the call is announced (below): the pages start
  // negotiating meanwhile. The audit still completes before the answer.
  let auditAdmission = false;
  if (guest === null) {
    if (appointment.status !== 'in_progress') {
      const updated = await updateVisitAppointment(ctx.db, appointment.id, ['checked_in'], {
        status: 'in_progress',
        admittedAt: now,
        updatedAt: now,
      });
      if (updated === null) {
        throw invalidTransition(appointment.status, 'in_progress');
      }
      auditAdmission = true;
    }
  } else if (!(await findAdmittedGuestIds(ctx.db, [guest.id])).has(guest.id)) {
    await ctx.audit({
      action: 'visit.guest_admitted',
      targetType: 'visit_guest',
      targetId: guest.id,
      details: { appointmentId: appointment.id, role: guest.role },
    });
  }
  if (!isAlreadyIn) {
    const presence = await ctx.realtime.presence([appointment.id]);
    if (presence.some((entry) => entry.participant.key === key)) {
      // Into the call first, so an offer answering the announcement finds the connection there.
      await ctx.realtime.admit(appointment.id, key);
      ctx.realtime.toCallExcept(appointment.id, key, 'visit.participantJoined', {
        appointmentId: appointment.id,
        participant: admitted,
      });
    }
  }
  if (auditAdmission) {
    await ctx.audit({ action: 'visit.admitted', targetType: 'appointment', targetId: appointment.id });
  }
  const current = await reloadAppointment(ctx, appointment.id);
  const admittedState = await stateOfParticipant(ctx, current, admitted);
  if (admittedState !== null) {
    ctx.realtime.toParticipant(appointment.id, key, 'visit.state', admittedState);
  }
  // The pages now negotiate their connection through this process: let their signalling through
  // between the bookkeeping steps that follow (see `yieldToEventLoop`).
  await yieldToEventLoop();
  await markStartedIfTogether(ctx, current);
  await yieldToEventLoop();
  await pushDoctorQueue(ctx, current);
  await yieldToEventLoop();
  return stateFor(ctx, { ...visit, appointment: await reloadAppointment(ctx, appointment.id) });
}

/**
 * The doctor ends the visit: in_progress → completed with the end time;
 * everyone connected gets the ended state and leaves the call. Idempotent
 * once completed.
 */
export async function endVisit(ctx: VisitContext, appointmentId: string): Promise<VisitState> {
  const visit = await loadVisit(ctx, appointmentId);
  requireHost(visit);
  const { appointment } = visit;
  if (appointment.status !== 'completed') {
    if (!canTransitionAppointment(appointment.status, 'completed')) {
      throw finalStatuses.includes(appointment.status)
        ? appError('VISIT_ENDED', 'This visit has ended.', { status: appointment.status })
        : invalidTransition(appointment.status, 'completed');
    }
    const now = ctx.now();
    const updated = await updateVisitAppointment(ctx.db, appointment.id, ['in_progress'], {
      status: 'completed',
      endedAt: now,
      updatedAt: now,
    });
    if (updated === null) {
      throw invalidTransition(appointment.status, 'completed');
    }
    await ctx.audit({
      action: 'visit.ended',
      targetType: 'appointment',
      targetId: appointment.id,
      details: {
        startedAt: updated.startedAt?.toISOString() ?? null,
        endedAt: now.toISOString(),
      },
    });
    await pushVisitStates(ctx, appointment.id);
    await ctx.realtime.clear(appointment.id);
    const current = await reloadAppointment(ctx, appointment.id);
    await pushDoctorQueue(ctx, current);
    return stateFor(ctx, { ...visit, appointment: current });
  }
  return stateFor(ctx, visit);
}

/**
 * The doctor announces a delay (0 or null clears it): stored on all of the
 * doctor's visits today that are not final, so every waiting patient's
 * estimate moves; they get a fresh state at once.
 */
export async function announceRunningLate(
  ctx: VisitContext,
  appointmentId: string,
  minutes: number | null,
): Promise<VisitState> {
  const visit = await loadVisit(ctx, appointmentId);
  requireHost(visit);
  const { appointment } = visit;
  const value = minutes === null || minutes === 0 ? null : minutes;
  const date = calendarDateIn(ctx.now(), appointment.doctorTimeZone);
  const today = await listDoctorDayAppointments(
    ctx.db,
    appointment.doctorUserId,
    date,
    appointment.doctorTimeZone,
    openStatuses,
  );
  const ids = new Set(today.map((entry) => entry.id));
  if (!finalStatuses.includes(appointment.status)) {
    ids.add(appointment.id);
  }
  await setRunningLate(ctx.db, [...ids], value, ctx.now());
  await ctx.audit({
    action: 'visit.running_late',
    targetType: 'appointment',
    targetId: appointment.id,
    details: { minutes: value, visits: ids.size },
  });
  for (const id of ids) {
    await pushVisitStates(ctx, id);
  }
  await notifyWaitingRoom(ctx, appointment.doctorUserId);
  return stateFor(ctx, visit);
}
