import type { AppointmentStatus } from '@telemedicina/shared/common';
import type { VisitParticipant } from '@telemedicina/shared/visits';
import type { AppError } from '../../lib/app-error.js';
import { appError } from '../../lib/app-error.js';
import { findAppointment, type AppointmentWithPeople } from '../appointments/appointments.repository.js';
import { findUserById } from '../identity/users.repository.js';
import { isUuid } from '../../lib/uuid.js';
import type { VisitContext, VisitDependencies } from './visit-context.js';
import { visitCapacityOf, type VisitCapacity } from './visits.policy.js';
import { guestParticipant } from './visits.presenter.js';
import { findVisitGuest, type VisitGuestRow } from './visits.repository.js';

/** Statuses of a visit that may still happen (the waiting room lists them). */
export const openStatuses: readonly AppointmentStatus[] = [
  'requested',
  'confirmed',
  'checked_in',
  'in_progress',
];
export const finalStatuses: readonly AppointmentStatus[] = ['completed', 'cancelled', 'no_show'];

export const userKey = (userId: string): string => `user:${userId}`;
export const guestKey = (guestId: string): string => `guest:${guestId}`;

export function notFound(): AppError {
  return appError('NOT_FOUND', 'No such visit.');
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
  const appointment = await findAppointment(ctx.db, appointmentId);
  if (appointment === null) {
    throw notFound();
  }
  const capacity = visitCapacityOf(caller, appointment);
  if (capacity === null) {
    throw notFound();
  }
  if (caller.kind === 'guest') {
    const guest = await findVisitGuest(ctx.db, caller.guestId);
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

export function isLiveGuest(
  guest: VisitGuestRow | null,
  appointmentId: string,
  now: Date,
): guest is VisitGuestRow {
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
  const user = await findUserById(ctx.db, userId);
  return { key: userKey(userId), name: user?.name ?? '', role: 'staff' };
}
