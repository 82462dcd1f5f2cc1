import type { Actor } from '../context.js';
import type { AppointmentRow } from './appointments.repository.js';

/**
 * Who sees an appointment: `appointments.read.any` sees all; with
 * `appointments.read.own`, only those where one is the doctor or the
 * patient. Anything else answers 404, so existence is never revealed.
 */
export function canSeeAppointment(
  actor: Actor,
  appointment: Pick<AppointmentRow, 'doctorUserId' | 'patientUserId'>,
): boolean {
  if (actor.permissions.has('appointments.read.any')) {
    return true;
  }
  return (
    actor.permissions.has('appointments.read.own') &&
    (appointment.doctorUserId === actor.userId || appointment.patientUserId === actor.userId)
  );
}

/** Lists show everything to `appointments.read.any`, else only one's own appointments. */
export function canListAllAppointments(actor: Actor): boolean {
  return actor.permissions.has('appointments.read.any');
}

/**
 * In which capacity the actor changes an appointment: `staff` (anyone with
 * `appointments.manage.any`), its `doctor`, its `patient`, or null (no
 * changes allowed). Staff and doctors give a reason and ignore the
 * cancellation window; patients keep to it.
 */
export type AppointmentCapacity = 'staff' | 'doctor' | 'patient';

export function capacityFor(
  actor: Actor,
  appointment: Pick<AppointmentRow, 'doctorUserId' | 'patientUserId'>,
): AppointmentCapacity | null {
  if (actor.permissions.has('appointments.manage.any')) {
    return 'staff';
  }
  if (appointment.doctorUserId === actor.userId && actor.permissions.has('appointments.read.own')) {
    return 'doctor';
  }
  if (appointment.patientUserId === actor.userId && actor.permissions.has('appointments.book.self')) {
    return 'patient';
  }
  return null;
}

/** Booking for someone else takes `appointments.book.any`; for oneself, `appointments.book.self`. */
export function canBookFor(actor: Actor, patientUserId: string): boolean {
  return patientUserId === actor.userId
    ? actor.permissions.has('appointments.book.self')
    : actor.permissions.has('appointments.book.any');
}

/**
 * Who asks for appointments, for the parts of an answer that depend on it: the user, and whether
 * the clinic lets staff read the reasons for visits (privacy setting, off by default).
 */
export interface AppointmentReader {
  userId: string;
  canStaffReadVisitReasons: boolean;
}

/**
 * The reason a patient gave for a visit is clinical (minimum necessary): the visit's doctor and its
 * patient always read it; anyone else who sees the appointment — reception, administrators — only
 * when the clinic allows staff to. Every answer that carries the reason (lists, detail, booking and
 * change answers, the chart's visit list) decides with this, through its presenter.
 */
export function canReadVisitReason(
  reader: AppointmentReader,
  appointment: Pick<AppointmentRow, 'doctorUserId' | 'patientUserId'>,
): boolean {
  return (
    appointment.doctorUserId === reader.userId ||
    appointment.patientUserId === reader.userId ||
    reader.canStaffReadVisitReasons
  );
}
