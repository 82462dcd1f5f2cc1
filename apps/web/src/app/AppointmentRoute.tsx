import { AppointmentPage } from '../features/appointments';
import { ConsentReminder } from '../features/consents';
import { AppointmentIntakeSection } from '../features/intake';
import { AppointmentNoteSection } from '../features/notes';

/** The appointment page with the visit note's section under it (composition only). */
export function AppointmentRoute() {
  return (
    <AppointmentPage
      renderExtra={(appointment) => (
        <>
          {['requested', 'confirmed', 'checked_in'].includes(appointment.status) ? (
            <ConsentReminder patientId={appointment.patient.id} />
          ) : null}
          <AppointmentIntakeSection appointmentId={appointment.id} />
          <AppointmentNoteSection
            appointment={{
              id: appointment.id,
              status: appointment.status,
              doctorId: appointment.doctor.id,
              patientId: appointment.patient.id,
            }}
          />
        </>
      )}
    />
  );
}
