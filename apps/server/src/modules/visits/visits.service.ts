import {
  canTransitionAppointment,
  deviceRiskOf,
  maxVisitParticipants,
  visitCheckInOpensMinutesBefore,
  visitJoinGraceMinutes,
  type AppointmentStatus,
  type ChatHistory,
  type ChatHistoryQuery,
  type ChatMessage,
  type DeviceCheck,
  type DeviceCheckResult,
  type VisitParticipant,
  type VisitPhase,
  type VisitState,
  type WaitingRoom,
  type WaitingRoomEntry,
} from '@telemedicina/shared';
import { AppError } from '../../lib/app-error.js';
import { findAppointment, type AppointmentWithPeople } from '../appointments/appointments.repository.js';
import { calendarDateIn } from '../settings/clinic-dates.js';
import { getCachedClinicSettings } from '../settings/settings.service.js';
import { findUserById, findUserPermissions } from '../users/users.repository.js';
import { isUuid } from '../../lib/uuid.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { estimateQueue } from './visit-queue.js';
import {
  canUseVisitRecord,
  canWatchWaitingRoom,
  visitCapacityOf,
  type VisitCapacity,
} from './visits.policy.js';
import { guestParticipant, presentChatMessage, presentDeviceCheck } from './visits.presenter.js';
import {
  findAdmittedGuestIds,
  findVisit,
  findVisitGuest,
  findVisits,
  listDoctorDayAppointments,
  listVisitGuests,
  listVisitMessages,
  markVisitStarted,
  setRunningLate,
  updateVisitAppointment,
  upsertDeviceCheck,
  type VisitGuestRow,
  type VisitMessageWithFile,
  type VisitRow,
} from './visits.repository.js';

const minuteMs = 60_000;

/**
 * Lets pending I/O (socket events in and out) run before going on. Embedded PGlite answers queries
 * without returning to the event loop, so a chain of queries would otherwise hold back every
 * socket event meanwhile — e.g. the WebRTC offer and answer of a call that has just been admitted.
 * Two turns of `setImmediate`: the first may run in the same loop iteration, before any new poll
 * for I/O; the second comes after one.
 */
const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

/** Statuses of a visit that may still happen (the waiting room lists them). */
const openStatuses: readonly AppointmentStatus[] = ['requested', 'confirmed', 'checked_in', 'in_progress'];
const finalStatuses: readonly AppointmentStatus[] = ['completed', 'cancelled', 'no_show'];

export const userKey = (userId: string): string => `user:${userId}`;
export const guestKey = (guestId: string): string => `guest:${guestId}`;

function notFound(): AppError {
  return new AppError(404, 'NOT_FOUND', 'No such visit.');
}

/** A visit as one caller sees it. */
export interface LoadedVisit {
  appointment: AppointmentWithPeople;
  capacity: VisitCapacity;
  /** Who the caller is in this visit. */
  self: VisitParticipant;
  /** The caller's invitation, when the caller is a guest. */
  guest: VisitGuestRow | null;
}

/**
 * Loads the visit for the caller: 404 when it does not exist, when the caller
 * has no part in it, or when a guest's invitation is no longer live.
 */
export async function loadVisit(ctx: VisitContext, appointmentId: string): Promise<LoadedVisit> {
  const caller = ctx.caller;
  if (caller === null || !isUuid(appointmentId)) {
    throw notFound();
  }
  const appointment = await findAppointment(ctx.db.db, appointmentId);
  if (appointment === null) {
    throw notFound();
  }
  const capacity = visitCapacityOf(caller, appointment);
  if (capacity === null) {
    throw notFound();
  }
  if (caller.kind === 'guest') {
    const guest = await findVisitGuest(ctx.db.db, caller.guestId);
    if (!isLiveGuest(guest, appointment.id, ctx.now())) {
      throw notFound();
    }
    return { appointment, capacity, self: guestParticipant(guest), guest };
  }
  return {
    appointment,
    capacity,
    self: await userParticipant(ctx, appointment, capacity, caller.userId),
    guest: null,
  };
}

function isLiveGuest(guest: VisitGuestRow | null, appointmentId: string, now: Date): guest is VisitGuestRow {
  return (
    guest !== null &&
    guest.appointmentId === appointmentId &&
    guest.redeemedAt !== null &&
    guest.revokedAt === null &&
    guest.expiresAt > now
  );
}

async function userParticipant(
  ctx: VisitDependencies,
  appointment: AppointmentWithPeople,
  capacity: VisitCapacity,
  userId: string,
): Promise<VisitParticipant> {
  if (capacity === 'doctor') {
    return { key: userKey(userId), name: appointment.doctorName, role: 'doctor' };
  }
  if (capacity === 'patient') {
    return { key: userKey(userId), name: appointment.patientName, role: 'patient' };
  }
  const user = await findUserById(ctx.db.db, userId);
  return { key: userKey(userId), name: user?.name ?? '', role: 'staff' };
}

// ---------------------------------------------------------------- phases and state

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

async function loadIceServers(deps: VisitDependencies): Promise<VisitState['iceServers']> {
  const { settings } = await getCachedClinicSettings(deps.db, deps.config);
  return settings.video.iceServers.map((server) => ({
    urls: server.urls,
    ...(server.username === undefined ? {} : { username: server.username }),
    ...(server.credential === undefined ? {} : { credential: server.credential }),
  }));
}

/** The doctor's queue on the appointment's day (in the doctor's zone). */
async function queueOf(
  deps: VisitDependencies,
  appointment: AppointmentWithPeople,
  runningLateMinutes: number | null,
): Promise<Map<string, { position: number; waitMinutes: number }>> {
  const date = calendarDateIn(appointment.startsAt, appointment.doctorTimeZone);
  const day = await listDoctorDayAppointments(
    deps.db.db,
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
  const [visitRow, iceServers, admitted, holdsInvitePermission] = await Promise.all([
    findVisit(deps.db.db, appointment.id),
    loadIceServers(deps),
    visit.guestId === null
      ? Promise.resolve(new Set<string>())
      : findAdmittedGuestIds(deps.db.db, [visit.guestId]),
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
    iceServers,
    canShareFiles: canUseVisitRecord(capacity) && appointment.status === 'in_progress',
    canInvite: isOpen && canUseVisitRecord(capacity) && holdsInvitePermission,
    canHost: capacity === 'doctor' && isOpen,
  };
}

/** The caller's phase alone (what {@link stateFor} answers as `phase`), without the rest of the state. */
export async function phaseFor(ctx: VisitContext, visit: LoadedVisit): Promise<VisitPhase> {
  const isGuestAdmitted =
    visit.guest !== null && (await findAdmittedGuestIds(ctx.db.db, [visit.guest.id])).has(visit.guest.id);
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
  return (await findUserPermissions(deps.db.db, key.slice('user:'.length))).includes(permission);
}

/**
 * The view of a participant other than the caller (pushed to their
 * connection): capacity from their key, permissions not needed beyond what
 * joining already required.
 */
async function stateOfParticipant(
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
  const appointment = await findAppointment(deps.db.db, appointmentId);
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

/** After the queue moved: fresh states for the doctor's waiting visits today, and the watchers' list. */
async function pushDoctorQueue(deps: VisitDependencies, appointment: AppointmentWithPeople): Promise<void> {
  const date = calendarDateIn(deps.now(), appointment.doctorTimeZone);
  const waiting = await listDoctorDayAppointments(
    deps.db.db,
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

// ---------------------------------------------------------------- waiting room (doctor's side)

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
  const doctor = isUuid(doctorId) ? await findUserById(deps.db.db, doctorId) : null;
  if (doctor === null) {
    return null;
  }
  const date = calendarDateIn(deps.now(), doctor.timeZone);
  const day = await listDoctorDayAppointments(deps.db.db, doctorId, date, doctor.timeZone, openStatuses);
  const ids = day.map((entry) => entry.id);
  const [visitRows, presence] = await Promise.all([findVisits(deps.db.db, ids), deps.realtime.presence(ids)]);
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
    throw new AppError(404, 'NOT_FOUND', 'No such waiting room.');
  }
  const room = await buildWaitingRoom(ctx, doctorId);
  if (room === null) {
    throw new AppError(404, 'NOT_FOUND', 'No such waiting room.');
  }
  return room;
}

// ---------------------------------------------------------------- device check

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
  const row = await upsertDeviceCheck(ctx.db.db, visit.appointment.id, { result, risk, at: now });
  await ctx.audit({
    action: 'visit.device_checked',
    targetType: 'appointment',
    targetId: visit.appointment.id,
    details: { risk },
  });
  await notifyWaitingRoom(ctx, visit.appointment.doctorUserId);
  return presentDeviceCheck(row) ?? { result, risk, checkedAt: now.toISOString() };
}

// ---------------------------------------------------------------- check-in, admission, end

function assertNotFinal(appointment: { status: AppointmentStatus }): void {
  if (finalStatuses.includes(appointment.status)) {
    throw new AppError(409, 'VISIT_ENDED', 'This visit has ended.', { status: appointment.status });
  }
}

function invalidTransition(from: AppointmentStatus, to: AppointmentStatus): AppError {
  return new AppError(409, 'INVALID_TRANSITION', `A visit cannot go from ${from} to ${to}.`, { from, to });
}

async function reloadAppointment(ctx: VisitContext, id: string): Promise<AppointmentWithPeople> {
  const appointment = await findAppointment(ctx.db.db, id);
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
    throw new AppError(403, 'FORBIDDEN', 'Only the patient checks in.');
  }
  const { appointment } = visit;
  assertNotFinal(appointment);
  if (appointment.status === 'checked_in' || appointment.status === 'in_progress') {
    return stateFor(ctx, visit);
  }
  const now = ctx.now();
  const { opensAt, closesAt } = visitWindow(appointment);
  if (appointment.status !== 'confirmed' || now < opensAt || now > closesAt) {
    throw new AppError(409, 'VISIT_NOT_OPEN', 'Check-in is not open for this visit.', {
      opensAt: opensAt.toISOString(),
      closesAt: closesAt.toISOString(),
    });
  }
  const updated = await updateVisitAppointment(ctx.db.db, appointment.id, ['confirmed'], {
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
    throw new AppError(403, 'FORBIDDEN', 'Only the visit’s doctor can do this.');
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
    if (await markVisitStarted(deps.db.db, appointment.id, deps.now())) {
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
    const found = isUuid(guestId) ? await findVisitGuest(ctx.db.db, guestId) : null;
    if (!isLiveGuest(found, appointment.id, now)) {
      throw new AppError(404, 'NOT_FOUND', 'No such guest in this visit.');
    }
    guest = found;
    admitted = guestParticipant(found);
  }
  const inCall = await callParticipants(ctx, appointment.id);
  const isAlreadyIn = inCall.some((participant) => participant.key === key);
  if (!isAlreadyIn && inCall.length >= maxVisitParticipants) {
    throw new AppError(409, 'VISIT_FULL', 'The call already has four participants.', {
      max: maxVisitParticipants,
    });
  }
  // The patient's admission is audited once the call is announced (below): the pages start
  // negotiating meanwhile. The audit still completes before the answer.
  let auditAdmission = false;
  if (guest === null) {
    if (appointment.status !== 'in_progress') {
      const updated = await updateVisitAppointment(ctx.db.db, appointment.id, ['checked_in'], {
        status: 'in_progress',
        admittedAt: now,
        updatedAt: now,
      });
      if (updated === null) {
        throw invalidTransition(appointment.status, 'in_progress');
      }
      auditAdmission = true;
    }
  } else if (!(await findAdmittedGuestIds(ctx.db.db, [guest.id])).has(guest.id)) {
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
        ? new AppError(409, 'VISIT_ENDED', 'This visit has ended.', { status: appointment.status })
        : invalidTransition(appointment.status, 'completed');
    }
    const now = ctx.now();
    const updated = await updateVisitAppointment(ctx.db.db, appointment.id, ['in_progress'], {
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
    ctx.db.db,
    appointment.doctorUserId,
    date,
    appointment.doctorTimeZone,
    openStatuses,
  );
  const ids = new Set(today.map((entry) => entry.id));
  if (!finalStatuses.includes(appointment.status)) {
    ids.add(appointment.id);
  }
  await setRunningLate(ctx.db.db, [...ids], value, ctx.now());
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

// ---------------------------------------------------------------- chat history

/** Participant keys of a visit mapped to their role, for presenting messages. */
export async function visitRoles(
  deps: VisitDependencies,
  appointment: Pick<AppointmentWithPeople, 'id' | 'doctorUserId' | 'patientUserId'>,
): Promise<Map<string, VisitParticipant['role']>> {
  const roles = new Map<string, VisitParticipant['role']>([
    [userKey(appointment.doctorUserId), 'doctor'],
    [userKey(appointment.patientUserId), 'patient'],
  ]);
  for (const guest of await listVisitGuests(deps.db.db, appointment.id)) {
    roles.set(guestKey(guest.id), guest.role);
  }
  return roles;
}

export async function presentMessages(
  deps: VisitDependencies,
  appointment: Pick<AppointmentWithPeople, 'id' | 'doctorUserId' | 'patientUserId'>,
  rows: readonly VisitMessageWithFile[],
): Promise<ChatMessage[]> {
  if (rows.length === 0) {
    return [];
  }
  const roles = await visitRoles(deps, appointment);
  return rows.map((row) => presentChatMessage(row, roles));
}

/** `GET /visits/:id/messages?after`: the doctor and the patient, during and after the visit. */
export async function getChatHistory(
  ctx: VisitContext,
  appointmentId: string,
  query: ChatHistoryQuery,
): Promise<ChatHistory> {
  const visit = await loadVisit(ctx, appointmentId);
  if (!canUseVisitRecord(visit.capacity)) {
    throw notFound();
  }
  const rows = await listVisitMessages(ctx.db.db, visit.appointment.id, query.after, query.limit);
  const data = await presentMessages(ctx, visit.appointment, rows);
  const visitRow = await findVisit(ctx.db.db, visit.appointment.id);
  return { data, lastSeq: visitRow?.chatSeq ?? 0 };
}
