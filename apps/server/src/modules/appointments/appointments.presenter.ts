import type { Appointment } from '@telemedicina/shared/appointment';
import { canReadVisitReason, type AppointmentReader } from './appointments.policy.js';
import type { AppointmentWithPeople } from './appointments.repository.js';

/**
 * An appointment for `reader`: the reason for the visit only when {@link canReadVisitReason}
 * allows it, otherwise null with `isReasonWithheld` (true only when there is a reason to withhold).
 */
export function presentAppointment(
  appointment: AppointmentWithPeople,
  reader: AppointmentReader,
): Appointment {
  const hasReason = appointment.reason !== null && appointment.reason !== '';
  const mayReadReason = canReadVisitReason(reader, appointment);
  return {
    id: appointment.id,
    doctor: {
      id: appointment.doctorUserId,
      name: appointment.doctorName,
      timeZone: appointment.doctorTimeZone,
    },
    patient: { id: appointment.patientUserId, name: appointment.patientName },
    startsAt: appointment.startsAt.toISOString(),
    endsAt: appointment.endsAt.toISOString(),
    status: appointment.status,
    reason: mayReadReason ? appointment.reason : null,
    isReasonWithheld: hasReason && !mayReadReason,
    createdAt: appointment.createdAt.toISOString(),
    cancelledAt: appointment.cancelledAt?.toISOString() ?? null,
    cancellationReason: appointment.cancellationReason,
    cancelledBy: appointment.cancelledBy ?? null,
  };
}
