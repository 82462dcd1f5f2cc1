import {
  canTransitionAppointment,
  type AppointmentListQuery,
  type BookAppointmentRequest,
  type CancelAppointmentRequest,
  type ChangeAppointmentStatusRequest,
  type RescheduleAppointmentRequest,
  type SlotTakenDetails,
} from '@telemedicina/shared/booking';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import type { Database } from '../../db/client.js';
import type { AppError } from '../../lib/app-error.js';
import { appError, invalidField } from '../../lib/app-error.js';
import { isExclusionViolation } from '../../lib/database-errors.js';
import { hasSeenDoctor, type DoctorScheduleInfo } from '../availability/availability.repository.js';
import { classifySlot, findDoctorOr404, findFreeSlotsOf } from '../availability/availability.service.js';
import { recordAuditEvent } from '../audit/audit.service.js';
import { type AuditEventInput, type ServiceContext, requireActor } from '../context.js';
import {
  announceBooked,
  announceCancelled,
  announceRescheduled,
  type AfterCommit,
} from './appointment-notices.js';
import { loadBookingRules, loadCanStaffReadVisitReasons } from '../settings/settings.service.js';
import { isUuid } from '../../lib/uuid.js';
import { createDueIntakeForms } from '../questionnaires/questionnaires.service.js';
import { runBookingFollowUps } from './booking-follow-ups.js';
import { insertReminders } from './reminders.repository.js';
import {
  canBookFor,
  canListAllAppointments,
  canSeeAppointment,
  capacityFor,
  type AppointmentCapacity,
  type AppointmentReader,
} from './appointments.policy.js';
import {
  findAppointment,
  insertAppointment,
  isActivePatient,
  lockDoctorAgenda,
  listAppointments as listAppointmentRows,
  updateAppointmentIfStatus,
  type AppointmentRow,
  type AppointmentWithPeople,
} from './appointments.repository.js';

const minuteMs = 60_000;
const hourMs = 60 * minuteMs;
const dayMs = 24 * hourMs;

/** How far ahead the next free slots offered after a lost race are looked for. */
const nextSlotsHorizonDays = 31;

/** 409 SLOT_TAKEN with the doctor's next three free slots from `after` on. */
async function slotTaken(ctx: ServiceContext, doctor: DoctorScheduleInfo, after: Date): Promise<AppError> {
  const next = await findFreeSlotsOf(ctx.db, doctor, {
    from: after,
    to: new Date(after.getTime() + nextSlotsHorizonDays * dayMs),
    now: ctx.now(),
    limit: 3,
  });
  const details: SlotTakenDetails = {
    nextSlots: next.map((slot) => ({
      startsAt: slot.startsAt.toISOString(),
      endsAt: slot.endsAt.toISOString(),
    })),
  };
  return appError('SLOT_TAKEN', 'That time is no longer free.', details);
}

/**
 * Checks that `startsAt` is one of the doctor's slots (weekly rules,
 * exceptions, minimum notice): 400 `validation.slotUnavailable` when it is not
 * a slot at all, 409 SLOT_TAKEN when it is but a live appointment holds it.
 * Only a pre-check: the insert or update that follows is what the exclusion
 * constraint guards.
 */
async function assertBookableSlot(
  ctx: ServiceContext,
  doctor: DoctorScheduleInfo,
  startsAt: Date,
  exceptAppointmentId: string | null,
): Promise<Date> {
  const slot = await classifySlot(ctx.db, doctor, startsAt, { now: ctx.now(), exceptAppointmentId });
  if (slot.kind === 'notSlot') {
    throw invalidField('startsAt', 'validation.slotUnavailable');
  }
  if (slot.kind === 'taken') {
    throw await slotTaken(ctx, doctor, startsAt);
  }
  return slot.endsAt;
}

async function findVisibleAppointment(ctx: ServiceContext, id: string): Promise<AppointmentWithPeople> {
  const actor = requireActor(ctx);
  const appointment = isUuid(id) ? await findAppointment(ctx.db, id) : null;
  if (appointment === null || !canSeeAppointment(actor, appointment)) {
    throw appError('NOT_FOUND', 'No such appointment.');
  }
  return appointment;
}

async function reload(ctx: ServiceContext, id: string): Promise<AppointmentWithPeople> {
  const appointment = await findAppointment(ctx.db, id);
  if (appointment === null) {
    throw appError('NOT_FOUND', 'No such appointment.');
  }
  return appointment;
}

/** Writes the actor's audit event with `db` (the change's own transaction). */
function auditIn(ctx: ServiceContext, db: Database, event: AuditEventInput): Promise<void> {
  return recordAuditEvent(
    db,
    { now: ctx.now, actorUserId: ctx.actor?.userId ?? null, request: ctx.request },
    event,
  );
}

/**
 * Runs a change and everything it records in one transaction: the
 * appointment row, the audit event, reminders, the stored emails and
 * notifications (all or nothing, so a failure never leaves a booking without
 * its emails, nor an answer of 500 for a booking that was saved). SMTP
 * delivery and Socket.IO pushes start only after the commit. A change that
 * takes a `slot` holds the doctor's agenda lock first; an exclusion violation
 * (a lost race) rolls everything back and answers 409 SLOT_TAKEN.
 */
async function inTransaction<T>(
  ctx: ServiceContext,
  slot: { doctorUserId: string; onTaken: () => Promise<AppError> } | null,
  change: (db: Database) => Promise<{ result: T; afterCommit: AfterCommit }>,
): Promise<T> {
  let outcome: { result: T; afterCommit: AfterCommit };
  try {
    outcome = await ctx.db.transaction(async (db) => {
      if (slot !== null) {
        await lockDoctorAgenda(db, slot.doctorUserId);
      }
      return change(db);
    });
  } catch (error) {
    if (slot !== null && isExclusionViolation(error)) {
      throw await slot.onTaken();
    }
    throw error;
  }
  outcome.afterCommit();
  return outcome.result;
}

/** Minimal audit details: ids and times, never the reason for the visit. */
function auditDetails(appointment: AppointmentRow): Record<string, unknown> {
  return {
    doctorId: appointment.doctorUserId,
    patientId: appointment.patientUserId,
    startsAt: appointment.startsAt.toISOString(),
  };
}

// ---------------------------------------------------------------- booking

/**
 * Books a free slot, confirmed at once. A patient books for themself
 * (`appointments.book.self`; `patientId` absent or their own); staff with
 * `appointments.book.any` name the patient. The slot must be one of the
 * doctor's (rules, exceptions, minimum notice); a doctor not accepting new
 * patients only takes those who have seen them before. The row goes in with
 * one INSERT and the database's exclusion constraint settles races: the
 * loser gets 409 SLOT_TAKEN with the next free slots.
 */
export async function bookAppointment(
  ctx: ServiceContext,
  request: BookAppointmentRequest,
): Promise<AppointmentWithPeople> {
  const actor = requireActor(ctx);
  const patientId = request.patientId ?? actor.userId;
  if (request.patientId === undefined && !actor.permissions.has('appointments.book.self')) {
    throw invalidField('patientId', 'validation.required');
  }
  if (!canBookFor(actor, patientId)) {
    throw appError('FORBIDDEN', 'You cannot book appointments for other people.');
  }
  if (patientId !== actor.userId && !(await isActivePatient(ctx.db, patientId))) {
    throw invalidField('patientId', 'validation.id');
  }
  const doctor = await findDoctorOr404(ctx, request.doctorId);
  if (doctor.status !== 'active' || doctor.userId === patientId) {
    throw appError('NOT_FOUND', 'No such doctor.');
  }
  if (!doctor.acceptsNewPatients && !(await hasSeenDoctor(ctx.db, doctor.userId, patientId))) {
    throw appError('NOT_ACCEPTING_NEW_PATIENTS', 'This doctor is not accepting new patients.');
  }
  const startsAt = new Date(request.startsAt);
  const endsAt = await assertBookableSlot(ctx, doctor, startsAt, null);
  const now = ctx.now();
  const created = await inTransaction(
    ctx,
    { doctorUserId: doctor.userId, onTaken: () => slotTaken(ctx, doctor, startsAt) },
    async (db) => {
      const row = await insertAppointment(db, {
        doctorUserId: doctor.userId,
        patientUserId: patientId,
        startsAt,
        endsAt,
        status: 'confirmed',
        reason: request.reason,
        createdByUserId: actor.userId,
        createdAt: now,
        updatedAt: now,
      });
      await auditIn(ctx, db, {
        action: 'appointment.booked',
        targetType: 'appointment',
        targetId: row.id,
        details: { ...auditDetails(row), forOther: patientId !== actor.userId },
      });
      const announced = await announceBooked(ctx, db, row);
      const formsDue = await createDueIntakeForms(ctx, db, row);
      if (formsDue.count > 0) {
        // Forms still open 24 h before the visit are reminded once (modules/reminders).
        await insertReminders(db, row.id, row.startsAt, now, ['intake']);
      }
      const followUps = await runBookingFollowUps(ctx, db, row);
      return {
        result: row,
        afterCommit: () => {
          announced();
          formsDue.afterCommit();
          followUps();
        },
      };
    },
  );
  return reload(ctx, created.id);
}

// ---------------------------------------------------------------- reading

/** Patients and doctors see their own appointments; `appointments.read.any` sees all. */
export async function listAppointments(
  ctx: ServiceContext,
  query: AppointmentListQuery,
): Promise<{ rows: AppointmentWithPeople[]; total: number }> {
  const actor = requireActor(ctx);
  return listAppointmentRows(ctx.db, query, {
    participantUserId: canListAllAppointments(actor) ? null : actor.userId,
  });
}

/**
 * The actor as a reader of appointments: who they are and whether the clinic lets staff read visit
 * reasons (read fresh: switching it off applies to the next answer).
 */
export async function appointmentReaderOf(ctx: ServiceContext): Promise<AppointmentReader> {
  const actor = requireActor(ctx);
  return { userId: actor.userId, canStaffReadVisitReasons: await loadCanStaffReadVisitReasons(ctx.db) };
}

/** One appointment, 404 when it does not exist or is not the actor's to see. */
export async function getAppointment(ctx: ServiceContext, id: string): Promise<AppointmentWithPeople> {
  return findVisibleAppointment(ctx, id);
}

// ---------------------------------------------------------------- changes

/** 409 CANCELLATION_WINDOW_PASSED when a patient acts less than the window before the start. */
async function assertOutsideCancellationWindow(
  ctx: ServiceContext,
  appointment: AppointmentRow,
): Promise<void> {
  const { cancellationWindowHours } = await loadBookingRules(ctx.db);
  if (appointment.startsAt.getTime() - ctx.now().getTime() < cancellationWindowHours * hourMs) {
    throw appError('CANCELLATION_WINDOW_PASSED', 'The appointment starts too soon to change it online.', {
      cancellationWindowHours,
    });
  }
}

function invalidTransition(from: AppointmentStatus, to: AppointmentStatus): AppError {
  return appError('INVALID_TRANSITION', `An appointment cannot go from ${from} to ${to}.`, {
    from,
    to,
  });
}

/**
 * The one way a status changes: checked against the transition table
 * (shared `appointmentTransitions`), then written only if the row is still in
 * the status it was read in (a concurrent change answers 409 as well).
 * `db` is the caller's transaction when the change records more.
 */
export async function transitionAppointment(
  ctx: ServiceContext,
  appointment: AppointmentRow,
  to: AppointmentStatus,
  extra: { cancellationReason?: string | null; cancelledBy?: AppointmentCapacity } = {},
  db: Database = ctx.db,
): Promise<AppointmentRow> {
  if (!canTransitionAppointment(appointment.status, to)) {
    throw invalidTransition(appointment.status, to);
  }
  const now = ctx.now();
  const updated = await updateAppointmentIfStatus(db, appointment.id, [appointment.status], {
    status: to,
    updatedAt: now,
    ...(to === 'cancelled'
      ? {
          cancelledAt: now,
          cancellationReason: extra.cancellationReason ?? null,
          cancelledBy: extra.cancelledBy ?? null,
        }
      : {}),
  });
  if (updated === null) {
    throw invalidTransition(appointment.status, to);
  }
  return updated;
}

/**
 * Cancels: the patient only outside the cancellation window (409
 * CANCELLATION_WINDOW_PASSED), the doctor or staff at any time with a reason.
 */
export async function cancelAppointment(
  ctx: ServiceContext,
  id: string,
  request: CancelAppointmentRequest,
): Promise<AppointmentWithPeople> {
  const actor = requireActor(ctx);
  const appointment = await findVisibleAppointment(ctx, id);
  const capacity = capacityFor(actor, appointment);
  if (capacity === null) {
    throw appError('FORBIDDEN', 'You cannot cancel this appointment.');
  }
  if (capacity !== 'patient' && request.reason === undefined) {
    throw invalidField('reason', 'validation.reasonRequired');
  }
  if (!canTransitionAppointment(appointment.status, 'cancelled')) {
    throw invalidTransition(appointment.status, 'cancelled');
  }
  if (capacity === 'patient') {
    await assertOutsideCancellationWindow(ctx, appointment);
  }
  const updated = await inTransaction(ctx, null, async (db) => {
    const row = await transitionAppointment(
      ctx,
      appointment,
      'cancelled',
      { cancellationReason: request.reason ?? null, cancelledBy: capacity },
      db,
    );
    await auditIn(ctx, db, {
      action: 'appointment.cancelled',
      targetType: 'appointment',
      targetId: row.id,
      details: { ...auditDetails(row), by: capacity },
    });
    return { result: row, afterCommit: await announceCancelled(ctx, db, row, capacity) };
  });
  return reload(ctx, updated.id);
}

/** Statuses whose appointment can still move to another time. */
const reschedulableStatuses: readonly AppointmentStatus[] = ['requested', 'confirmed'];

/**
 * Moves an appointment to another free slot of the same doctor, with the
 * booking rules (the slot must be a slot, minimum notice) and, for the
 * patient, the cancellation window. One UPDATE of the times, so the
 * exclusion constraint guards it as it guards a booking.
 */
export async function rescheduleAppointment(
  ctx: ServiceContext,
  id: string,
  request: RescheduleAppointmentRequest,
): Promise<AppointmentWithPeople> {
  const actor = requireActor(ctx);
  const appointment = await findVisibleAppointment(ctx, id);
  const capacity = capacityFor(actor, appointment);
  if (capacity === null) {
    throw appError('FORBIDDEN', 'You cannot change this appointment.');
  }
  if (!reschedulableStatuses.includes(appointment.status)) {
    throw invalidTransition(appointment.status, appointment.status);
  }
  if (capacity === 'patient') {
    await assertOutsideCancellationWindow(ctx, appointment);
  }
  const doctor = await findDoctorOr404(ctx, appointment.doctorUserId);
  const startsAt = new Date(request.startsAt);
  const endsAt = await assertBookableSlot(ctx, doctor, startsAt, appointment.id);
  const updated = await inTransaction(
    ctx,
    { doctorUserId: doctor.userId, onTaken: () => slotTaken(ctx, doctor, startsAt) },
    async (db) => {
      const row = await updateAppointmentIfStatus(db, appointment.id, reschedulableStatuses, {
        startsAt,
        endsAt,
        updatedAt: ctx.now(),
      });
      if (row === null) {
        throw invalidTransition(appointment.status, appointment.status);
      }
      await auditIn(ctx, db, {
        action: 'appointment.rescheduled',
        targetType: 'appointment',
        targetId: row.id,
        details: { ...auditDetails(row), previousStartsAt: appointment.startsAt.toISOString(), by: capacity },
      });
      return { result: row, afterCommit: await announceRescheduled(ctx, db, row, appointment.startsAt) };
    },
  );
  return reload(ctx, updated.id);
}

/** The statuses `POST /appointments/:id/status` sets today; visits (check-in, start, end) come later. */
export const directStatusTargets: readonly AppointmentStatus[] = ['confirmed', 'no_show'];

/**
 * Sets a status directly, for the appointment's doctor or staff: confirm a
 * requested appointment, or mark a no-show once the start has passed.
 * Cancelling has its own endpoint (reason, window).
 */
export async function changeAppointmentStatus(
  ctx: ServiceContext,
  id: string,
  request: ChangeAppointmentStatusRequest,
): Promise<AppointmentWithPeople> {
  const actor = requireActor(ctx);
  const appointment = await findVisibleAppointment(ctx, id);
  const capacity = capacityFor(actor, appointment);
  if (capacity === null || capacity === 'patient') {
    throw appError('FORBIDDEN', 'You cannot change the status of this appointment.');
  }
  if (!directStatusTargets.includes(request.status)) {
    throw invalidField('status', 'validation.status');
  }
  if (request.status === 'no_show' && appointment.startsAt > ctx.now()) {
    throw invalidTransition(appointment.status, request.status);
  }
  const updated = await transitionAppointment(ctx, appointment, request.status);
  await ctx.audit({
    action: 'appointment.status_changed',
    targetType: 'appointment',
    targetId: updated.id,
    details: { ...auditDetails(updated), from: appointment.status, to: updated.status, by: capacity },
  });
  return reload(ctx, updated.id);
}
