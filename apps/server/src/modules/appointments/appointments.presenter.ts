import type { Appointment } from '@telemedicina/shared';
import type { AppointmentWithPeople } from './appointments.repository.js';

export function presentAppointment(appointment: AppointmentWithPeople): Appointment {
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
    reason: appointment.reason,
    createdAt: appointment.createdAt.toISOString(),
    cancelledAt: appointment.cancelledAt?.toISOString() ?? null,
    cancellationReason: appointment.cancellationReason,
  };
}
