import { AppointmentPage } from '../features/appointments';
import { AppointmentNoteSection } from '../features/notes';

/** The appointment page with the visit note's section under it (composition only). */
export function AppointmentRoute() {
  return (
    <AppointmentPage
      renderExtra={(appointment) => (
        <AppointmentNoteSection
          appointment={{
            id: appointment.id,
            status: appointment.status,
            doctorId: appointment.doctor.id,
            patientId: appointment.patient.id,
          }}
        />
      )}
    />
  );
}
