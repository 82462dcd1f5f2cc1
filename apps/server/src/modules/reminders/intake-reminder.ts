import type { Database } from '../../db/client.js';
import { languageOf } from '../../lib/language.js';
import type { AppointmentRow } from '../appointments/appointments.repository.js';
import type { AppServices } from '../context.js';
import { appLink } from '../email/email.service.js';
import { renderEmail } from '../email/templates.js';
import { findUserById } from '../identity/users.repository.js';
import { storeNotifications } from '../notifications/notifications.service.js';
import { listResponsesOfAppointment } from '../questionnaires/questionnaires.repository.js';
import { loadIdentitySettings } from '../settings/settings.service.js';

/**
 * The `intake` reminder, inside the pass's transaction (`db`): when forms for the appointment are
 * still open (not submitted), stores one email and one in-app notice to the patient, in their
 * language, the visit's time in their zone, linking to the forms. Returns what to start after the
 * commit, or null when every form is already submitted (nothing is sent; the row is stamped anyway).
 */
export async function remindOpenIntakeForms(
  services: AppServices,
  db: Database,
  appointment: AppointmentRow,
  now: Date,
): Promise<(() => void) | null> {
  const forms = await listResponsesOfAppointment(db, appointment.id);
  const open = forms.filter((row) => row.response.status === 'in-progress').length;
  const patient = open > 0 ? await findUserById(db, appointment.patientUserId) : null;
  if (patient === null) {
    return null;
  }
  const language = languageOf(patient);
  const { clinicName } = await loadIdentitySettings(db, services.config);
  const content = {
    template: 'intake-forms-due',
    data: {
      name: patient.name,
      count: open,
      startsAt: appointment.startsAt,
      timeZone: patient.timeZone,
      link: appLink(services, `/portal/appointments/${appointment.id}`),
      reminder: true,
    },
  } as const;
  const stored = await services.mailer.store(db, {
    to: patient.email,
    language,
    template: content.template,
    ...renderEmail(content, language, clinicName),
  });
  const push = await storeNotifications(services, db, [
    {
      userId: patient.id,
      kind: 'intake.formsDue',
      data: {
        appointmentId: appointment.id,
        startsAt: appointment.startsAt.toISOString(),
        count: open,
        reminder: true,
      },
      createdAt: now,
    },
  ]);
  return () => {
    stored.deliver();
    push();
  };
}
