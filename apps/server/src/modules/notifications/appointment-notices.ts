import type { Language, NotificationKind } from '@telemedicina/shared';
import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { buildIcs } from '../../lib/ics.js';
import type { AppointmentCapacity } from '../appointments/appointments.policy.js';
import type { AppointmentRow } from '../appointments/appointments.repository.js';
import type { AppServices, ServiceContext } from '../context.js';
import { appLink } from '../email/email.service.js';
import type { OutgoingEmail } from '../email/mailer.js';
import { renderEmail, type AppointmentEmailData, type EmailContent } from '../email/templates.js';
import { deleteReminders, insertReminders, moveReminders } from '../reminders/reminders.repository.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { offerFreedSlot } from '../waitlist/waitlist.service.js';
import { storeNotifications } from './notifications.service.js';

/** A participant of an appointment as emails and calendars need them. */
export interface Participant {
  id: string;
  name: string;
  email: string;
  language: Language;
  timeZone: string;
}

export async function loadParticipants(
  db: Database,
  appointment: Pick<AppointmentRow, 'doctorUserId' | 'patientUserId'>,
): Promise<{ doctor: Participant; patient: Participant }> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      language: users.language,
      timeZone: users.timeZone,
    })
    .from(users)
    .where(inArray(users.id, [appointment.doctorUserId, appointment.patientUserId]));
  const byId = new Map(rows.map((row) => [row.id, { ...row, language: row.language as Language }]));
  const doctor = byId.get(appointment.doctorUserId);
  const patient = byId.get(appointment.patientUserId);
  if (doctor === undefined || patient === undefined) {
    throw new Error(
      `appointment participants missing (${appointment.doctorUserId}, ${appointment.patientUserId})`,
    );
  }
  return { doctor, patient };
}

/** The visit's page in the web app. */
export function appointmentLink(services: Pick<AppServices, 'config'>, appointmentId: string): string {
  return appLink(services, `/admin/appointments/${appointmentId}`);
}

/**
 * The appointment as an iCalendar file in `language`. SEQUENCE grows with
 * every change: seconds between creation and the last update.
 */
export function appointmentCalendar(
  services: Pick<AppServices, 'config'>,
  appointment: AppointmentRow,
  people: { doctor: Participant; patient: Participant },
  language: Language,
  clinicName: string,
  stamp: Date,
): string {
  const link = appointmentLink(services, appointment.id);
  const summary =
    language === 'es'
      ? `Cita en ${clinicName}: ${people.doctor.name} y ${people.patient.name}`
      : `Appointment at ${clinicName}: ${people.doctor.name} and ${people.patient.name}`;
  const description =
    language === 'es'
      ? `Consulta por vídeo en ${clinicName}.\nEntre a la cita desde: ${link}`
      : `Video visit at ${clinicName}.\nJoin the visit at: ${link}`;
  return buildIcs({
    uid: appointment.id,
    host: new URL(services.config.publicOrigin).hostname,
    stamp,
    start: appointment.startsAt,
    end: appointment.endsAt,
    summary,
    description,
    location: link,
    status: appointment.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED',
    sequence: Math.max(
      0,
      Math.floor((appointment.updatedAt.getTime() - appointment.createdAt.getTime()) / 1000),
    ),
  });
}

type AppointmentTemplate = Extract<
  EmailContent['template'],
  'appointment-booked' | 'appointment-rescheduled' | 'appointment-cancelled' | 'appointment-reminder'
>;

/** Renders an appointment email for one participant, with the calendar file attached. */
export async function appointmentEmail(
  services: Pick<AppServices, 'config' | 'now'>,
  db: Database,
  appointment: AppointmentRow,
  people: { doctor: Participant; patient: Participant },
  recipient: 'doctor' | 'patient',
  content: (base: AppointmentEmailData) => Extract<EmailContent, { template: AppointmentTemplate }>,
): Promise<OutgoingEmail> {
  const to = people[recipient];
  const other = recipient === 'doctor' ? people.patient : people.doctor;
  const { clinicName } = await loadIdentitySettings(db, services.config);
  const built = content({
    name: to.name,
    recipient,
    otherName: other.name,
    startsAt: appointment.startsAt,
    timeZone: to.timeZone,
    link: appointmentLink(services, appointment.id),
  });
  const rendered = renderEmail(built, to.language, clinicName);
  const ics = appointmentCalendar(services, appointment, people, to.language, clinicName, services.now());
  return {
    to: to.email,
    language: to.language,
    template: built.template,
    ...rendered,
    attachments: [
      {
        filename: 'cita.ics',
        contentType: `text/calendar; charset=utf-8; method=${appointment.status === 'cancelled' ? 'CANCEL' : 'REQUEST'}`,
        content: ics,
      },
    ],
  };
}

async function tellBoth(
  ctx: ServiceContext,
  appointment: AppointmentRow,
  kind: NotificationKind,
  data: Record<string, unknown>,
  content: (
    recipient: 'doctor' | 'patient',
    base: AppointmentEmailData,
  ) => Extract<EmailContent, { template: AppointmentTemplate }>,
): Promise<{ doctor: Participant; patient: Participant }> {
  const db = ctx.db.db;
  const people = await loadParticipants(db, appointment);
  for (const recipient of ['patient', 'doctor'] as const) {
    await ctx.mailer.send(
      await appointmentEmail(ctx, db, appointment, people, recipient, (base) => content(recipient, base)),
    );
  }
  const now = ctx.now();
  const publish = await storeNotifications(
    ctx,
    db,
    [people.patient.id, people.doctor.id].map((userId) => ({
      userId,
      kind,
      data: { appointmentId: appointment.id, startsAt: appointment.startsAt.toISOString(), ...data },
      createdAt: now,
    })),
  );
  publish();
  return people;
}

/** After a booking: emails with the invitation to both, notifications, reminders. */
export async function announceBooked(ctx: ServiceContext, appointment: AppointmentRow): Promise<void> {
  await insertReminders(ctx.db.db, appointment.id, appointment.startsAt, ctx.now());
  await tellBoth(ctx, appointment, 'appointment.booked', {}, (_recipient, base) => ({
    template: 'appointment-booked',
    data: base,
  }));
}

/** After a reschedule: the updated invitation, notifications, reminders moved. */
export async function announceRescheduled(
  ctx: ServiceContext,
  appointment: AppointmentRow,
  previousStartsAt: Date,
): Promise<void> {
  await moveReminders(ctx.db.db, appointment.id, previousStartsAt, appointment.startsAt, ctx.now());
  await tellBoth(
    ctx,
    appointment,
    'appointment.rescheduled',
    { previousStartsAt: previousStartsAt.toISOString() },
    (_recipient, base) => ({ template: 'appointment-rescheduled', data: { ...base, previousStartsAt } }),
  );
}

/**
 * After a cancellation: the cancelled invitation to both with who cancelled;
 * the reason goes only to the patient and only when the clinic (doctor or
 * staff) gave it. Reminders are dropped.
 */
export async function announceCancelled(
  ctx: ServiceContext,
  appointment: AppointmentRow,
  by: AppointmentCapacity,
): Promise<void> {
  await deleteReminders(ctx.db.db, appointment.id);
  const { doctor } = await tellBoth(ctx, appointment, 'appointment.cancelled', { by }, (recipient, base) => ({
    template: 'appointment-cancelled',
    data: {
      ...base,
      cancelledBy: by,
      reason: recipient === 'patient' && by !== 'patient' ? appointment.cancellationReason : null,
    },
  }));
  await offerFreedSlot(ctx, appointment, doctor.name);
}
