import type { Language } from '@telemedicina/shared/i18n';
import type { NotificationKind } from '@telemedicina/shared/notifications';
import { webPathForReader } from '@telemedicina/shared/portal';
import type { Database } from '../../db/client.js';
import { formatInstantWithZone } from '../../lib/clock.js';
import { buildIcs } from '../../lib/ics.js';
import { t } from '../../text/catalogue.js';
import type { AppointmentCapacity } from './appointments.policy.js';
import { listNoticeRecipients, type AppointmentRow } from './appointments.repository.js';
import type { AppServices, ServiceContext } from '../context.js';
import { appLink } from '../email/email.service.js';
import type { OutgoingEmail } from '../email/mailer.js';
import { renderEmail, type AppointmentEmailData, type EmailContent } from '../email/templates.js';
import { deleteReminders, insertReminders, moveReminders } from './reminders.repository.js';
import { loadIdentitySettings } from '../settings/settings.service.js';
import { offerFreedSlot } from '../waitlist/waitlist.service.js';
import { storeNotifications } from '../notifications/notifications.service.js';

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
  const rows = await listNoticeRecipients(db, [appointment.doctorUserId, appointment.patientUserId]);
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

/**
 * The visit's page in the web app for its reader: the patient's portal (`/portal/…`) for the
 * appointment's patient, the admin area for the doctor and staff: each lands where they work.
 */
export function appointmentLink(
  services: Pick<AppServices, 'config'>,
  appointmentId: string,
  reader: 'doctor' | 'patient' | 'staff',
): string {
  return appLink(services, webPathForReader(`/admin/appointments/${appointmentId}`, reader === 'patient'));
}

/**
 * The appointment as an iCalendar file for one reader, in their `language`. DTSTART/DTEND are UTC
 * (the calendar shows them in the device's zone); the description says the time as the reader's
 * account clock does, the zone in words (`lib/clock`), so the two can be compared. SEQUENCE grows
 * with every change: seconds between creation and the last update.
 */
export function appointmentCalendar(
  services: Pick<AppServices, 'config'>,
  appointment: AppointmentRow,
  people: { doctor: Participant; patient: Participant },
  reader: { language: Language; timeZone: string; role: 'doctor' | 'patient' | 'staff' },
  clinicName: string,
  stamp: Date,
): string {
  const { language, timeZone } = reader;
  const link = appointmentLink(services, appointment.id, reader.role);
  const when = formatInstantWithZone(appointment.startsAt, language, timeZone, 'fullDateTime');
  const summary = t(language, 'ics.summary', {
    clinic: clinicName,
    doctor: people.doctor.name,
    patient: people.patient.name,
  });
  const description = t(language, 'ics.description', { clinic: clinicName, when, link });
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
    link: appointmentLink(services, appointment.id, recipient),
  });
  const rendered = renderEmail(built, to.language, clinicName);
  const ics = appointmentCalendar(
    services,
    appointment,
    people,
    { ...to, role: recipient },
    clinicName,
    services.now(),
  );
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

/** Work to start once the transaction that stored it has committed (SMTP delivery, Socket.IO pushes). */
export type AfterCommit = () => void;

/** Runs every piece of after-commit work, in order. */
export function runAll(work: readonly AfterCommit[]): AfterCommit {
  return () => {
    for (const run of work) {
      run();
    }
  };
}

/**
 * Stores the appointment email for both participants and their notifications
 * with `db` (the caller's transaction); nothing leaves the server until the
 * returned function runs after the commit.
 */
async function tellBoth(
  ctx: ServiceContext,
  db: Database,
  appointment: AppointmentRow,
  kind: NotificationKind,
  data: Record<string, unknown>,
  content: (
    recipient: 'doctor' | 'patient',
    base: AppointmentEmailData,
  ) => Extract<EmailContent, { template: AppointmentTemplate }>,
): Promise<{ people: { doctor: Participant; patient: Participant }; afterCommit: AfterCommit }> {
  const people = await loadParticipants(db, appointment);
  const work: AfterCommit[] = [];
  for (const recipient of ['patient', 'doctor'] as const) {
    const email = await appointmentEmail(ctx, db, appointment, people, recipient, (base) =>
      content(recipient, base),
    );
    work.push((await ctx.mailer.store(db, email)).deliver);
  }
  const now = ctx.now();
  work.push(
    await storeNotifications(
      ctx,
      db,
      // `recipient` says whom each copy is for, so the screen can address its reader ("you cancelled").
      (['patient', 'doctor'] as const).map((recipient) => ({
        userId: people[recipient].id,
        kind,
        data: {
          appointmentId: appointment.id,
          startsAt: appointment.startsAt.toISOString(),
          recipient,
          ...data,
        },
        createdAt: now,
      })),
    ),
  );
  return { people, afterCommit: runAll(work) };
}

/**
 * After a booking, in its transaction (`db`): reminders, the emails with the
 * invitation to both, notifications. Returns what to start after the commit.
 */
export async function announceBooked(
  ctx: ServiceContext,
  db: Database,
  appointment: AppointmentRow,
): Promise<AfterCommit> {
  await insertReminders(db, appointment.id, appointment.startsAt, ctx.now());
  const { afterCommit } = await tellBoth(
    ctx,
    db,
    appointment,
    'appointment.booked',
    {},
    (_recipient, base) => ({
      template: 'appointment-booked',
      data: base,
    }),
  );
  return afterCommit;
}

/** After a reschedule, in its transaction: reminders moved, the updated invitation, notifications. */
export async function announceRescheduled(
  ctx: ServiceContext,
  db: Database,
  appointment: AppointmentRow,
  previousStartsAt: Date,
): Promise<AfterCommit> {
  await moveReminders(db, appointment.id, previousStartsAt, appointment.startsAt, ctx.now());
  const { afterCommit } = await tellBoth(
    ctx,
    db,
    appointment,
    'appointment.rescheduled',
    { previousStartsAt: previousStartsAt.toISOString() },
    (_recipient, base) => ({ template: 'appointment-rescheduled', data: { ...base, previousStartsAt } }),
  );
  return afterCommit;
}

/**
 * After a cancellation, in its transaction: the cancelled invitation to both
 * with who cancelled; the reason goes only to the patient and only when the
 * clinic (doctor or staff) gave it. Reminders are dropped and the freed slot
 * is offered to the waiting list.
 */
export async function announceCancelled(
  ctx: ServiceContext,
  db: Database,
  appointment: AppointmentRow,
  by: AppointmentCapacity,
): Promise<AfterCommit> {
  await deleteReminders(db, appointment.id);
  const { people, afterCommit } = await tellBoth(
    ctx,
    db,
    appointment,
    'appointment.cancelled',
    { by },
    (recipient, base) => ({
      template: 'appointment-cancelled',
      data: {
        ...base,
        cancelledBy: by,
        reason: recipient === 'patient' && by !== 'patient' ? appointment.cancellationReason : null,
      },
    }),
  );
  const offered = await offerFreedSlot(ctx, db, appointment, people.doctor.name);
  return runAll([afterCommit, offered]);
}
