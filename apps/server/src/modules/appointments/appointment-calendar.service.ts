import type { Language } from '@telemedicina/shared/i18n';
import { t } from '../../text/catalogue.js';
import { getAppointment } from './appointments.service.js';
import { type ServiceContext, requireActor } from '../context.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { appointmentCalendar, loadParticipants } from './appointment-notices.js';
import { findUserLocale } from './appointments.repository.js';

/** GET /appointments/:id/calendar.ics: the same visibility as the appointment (404 otherwise). */
export async function appointmentCalendarFile(
  ctx: ServiceContext,
  id: string,
): Promise<{ filename: string; body: string }> {
  const actor = requireActor(ctx);
  const appointment = await getAppointment(ctx, id);
  const db = ctx.db;
  const me = await findUserLocale(db, actor.userId);
  const language: Language = me?.language === 'en' ? 'en' : 'es';
  // The reader's zone (the patient, the doctor or staff who downloads it), as their screens say it.
  const reader = {
    language,
    timeZone: me?.timeZone ?? 'UTC',
    // Its link opens the patient's portal for the patient, the admin area for everyone else.
    role: actor.userId === appointment.patientUserId ? ('patient' as const) : ('staff' as const),
  };
  const people = await loadParticipants(db, appointment);
  const { clinicName } = await loadIdentitySettings(db, ctx.config);
  return {
    filename: `${t(language, 'fileName.appointmentCalendar')}-${appointment.id}.ics`,
    body: appointmentCalendar(ctx, appointment, people, reader, clinicName, ctx.now()),
  };
}
