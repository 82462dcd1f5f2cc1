import type { Appointment } from '@telemedicina/shared/appointment';
import type { AppointmentStatus } from '@telemedicina/shared/common';

export type AppointmentCapacity = 'staff' | 'doctor' | 'patient';

/**
 * In which capacity the viewer may change an appointment — the same rule as the server's policy:
 * staff (`appointments.manage.any`), its doctor, or its patient; null when they may not.
 */
export function capacityFor(
  viewer: { userId: string; permissions: readonly string[] },
  appointment: Pick<Appointment, 'doctor' | 'patient'>,
): AppointmentCapacity | null {
  const holds = (name: string) => viewer.permissions.includes(name);
  if (holds('appointments.manage.any')) {
    return 'staff';
  }
  if (appointment.doctor.id === viewer.userId && holds('appointments.read.own')) {
    return 'doctor';
  }
  if (appointment.patient.id === viewer.userId && holds('appointments.book.self')) {
    return 'patient';
  }
  return null;
}

const cancellable: readonly AppointmentStatus[] = ['requested', 'confirmed', 'checked_in'];
const reschedulable: readonly AppointmentStatus[] = ['requested', 'confirmed'];

/** The actions the appointment page offers, by capacity, status and whether it is still ahead. */
export function appointmentActions(
  capacity: AppointmentCapacity | null,
  appointment: Pick<Appointment, 'status' | 'startsAt'>,
  now: Date = new Date(),
): { canCancel: boolean; canReschedule: boolean; reasonRequired: boolean } {
  const isAhead = Date.parse(appointment.startsAt) > now.getTime();
  return {
    canCancel: capacity !== null && cancellable.includes(appointment.status),
    canReschedule: capacity !== null && isAhead && reschedulable.includes(appointment.status),
    reasonRequired: capacity !== null && capacity !== 'patient',
  };
}
