import type { Language } from '@telemedicina/shared/i18n';
import { formatInstantWithZone } from '../../lib/clock.js';
import { t } from '../../text/catalogue.js';

/** Every email the server sends, with the data each one needs. */
export type EmailContent =
  | { template: 'verify-email'; data: { name: string; link: string } }
  | { template: 'reset-password'; data: { name: string; link: string } }
  | {
      template: 'invitation';
      data: {
        name: string;
        link: string;
        inviterName: string;
        roleNames: string[];
        /** A patient registered by reception (a caller or a walk-in), not a member of staff. */
        isPatient?: boolean;
      };
    }
  | { template: 'registration-attempt'; data: { name: string; signInLink: string; resetLink: string } }
  | { template: 'password-changed'; data: { name: string; resetLink: string } }
  | { template: 'appointment-booked'; data: AppointmentEmailData }
  | { template: 'appointment-rescheduled'; data: AppointmentEmailData & { previousStartsAt: Date } }
  | {
      template: 'appointment-cancelled';
      data: AppointmentEmailData & { cancelledBy: 'patient' | 'doctor' | 'staff'; reason: string | null };
    }
  | { template: 'appointment-reminder'; data: AppointmentEmailData & { reminder: '24h' | '1h' } }
  | {
      template: 'waitlist-slot-freed';
      data: { name: string; doctorName: string; startsAt: Date; timeZone: string; link: string };
    }
  | {
      template: 'visit-summary';
      data: { name: string; doctorName: string; startsAt: Date; timeZone: string; link: string };
    }
  | {
      template: 'intake-forms-due';
      /** `reminder`: the forms are still open 24 h before the visit (sent once). */
      data: {
        name: string;
        count: number;
        startsAt: Date;
        timeZone: string;
        link: string;
        reminder?: boolean;
      };
    }
  | {
      template: 'consent-to-sign';
      /** The document's title in the recipient's language; the link opens it to read and sign. */
      data: { name: string; title: string; startsAt: Date; timeZone: string; link: string };
    };

/** What every appointment email shows: to whom, with whom, when (in the recipient's zone), the link. */
export interface AppointmentEmailData {
  name: string;
  /** The recipient's side of the visit. */
  recipient: 'patient' | 'doctor';
  /** The doctor (to the patient) or the patient (to the doctor). */
  otherName: string;
  startsAt: Date;
  timeZone: string;
  link: string;
}

/**
 * "viernes, 27 de marzo de 2026, 9:00 (hora de Madrid)" in the recipient's language and zone: the
 * server's one clock (`lib/clock`), the zone in words, never its IANA id.
 */
export function formatVisitTime(date: Date, timeZone: string, language: Language): string {
  return formatInstantWithZone(date, language, timeZone, 'fullDateTime');
}

export type EmailTemplate = EmailContent['template'];

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

interface Parts {
  subject: string;
  greeting: string;
  paragraphs: string[];
  action?: { label: string; link: string };
  footer: string[];
}

/** Hours a link stays valid, shown in the text; the services use the same numbers. */
export const linkLifetimeHours = { verifyEmail: 48, resetPassword: 1, invitation: 24 * 7 } as const;

/** The words of one email, in the recipient's language, before they are laid out. */
function partsOf(content: EmailContent, language: Language, clinic: string): Parts {
  const greeting = t(language, 'email.greeting', { name: content.data.name });
  const footer = [t(language, 'email.automatic', { clinic })];
  switch (content.template) {
    case 'verify-email':
      return {
        subject: t(language, 'email.verifyEmail.subject', { clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.verifyEmail.body', { clinic }),
          t(language, 'email.verifyEmail.expiry', { hours: linkLifetimeHours.verifyEmail }),
        ],
        action: { label: t(language, 'email.verifyEmail.action'), link: content.data.link },
        footer: [t(language, 'email.verifyEmail.ignore'), ...footer],
      };
    case 'reset-password':
      return {
        subject: t(language, 'email.resetPassword.subject', { clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.resetPassword.body'),
          t(language, 'email.resetPassword.expiry', { hours: linkLifetimeHours.resetPassword }),
        ],
        action: { label: t(language, 'email.resetPassword.action'), link: content.data.link },
        footer: [t(language, 'email.resetPassword.ignore'), ...footer],
      };
    case 'invitation': {
      const days = linkLifetimeHours.invitation / 24;
      const inviter = content.data.inviterName;
      if (content.data.isPatient === true) {
        return {
          subject: t(language, 'email.patientInvitation.subject', { clinic }),
          greeting,
          paragraphs: [
            t(language, 'email.patientInvitation.body', { inviter, clinic }),
            t(language, 'email.patientInvitation.password', { days }),
          ],
          action: { label: t(language, 'email.patientInvitation.action'), link: content.data.link },
          footer: [t(language, 'email.patientInvitation.ignore', { clinic }), ...footer],
        };
      }
      return {
        subject: t(language, 'email.invitation.subject', { clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.invitation.body', { inviter, clinic, roles: content.data.roleNames.join(', ') }),
          t(language, 'email.invitation.password', { days }),
        ],
        action: { label: t(language, 'email.invitation.action'), link: content.data.link },
        footer: [t(language, 'email.invitation.ignore'), ...footer],
      };
    }
    case 'registration-attempt':
      return {
        subject: t(language, 'email.registrationAttempt.subject', { clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.registrationAttempt.body'),
          t(language, 'email.registrationAttempt.signIn', { link: content.data.signInLink }),
        ],
        action: { label: t(language, 'email.registrationAttempt.action'), link: content.data.resetLink },
        footer: [t(language, 'email.registrationAttempt.ignore'), ...footer],
      };
    case 'password-changed':
      return {
        subject: t(language, 'email.passwordChanged.subject', { clinic }),
        greeting,
        paragraphs: [t(language, 'email.passwordChanged.body'), t(language, 'email.passwordChanged.warning')],
        action: { label: t(language, 'email.passwordChanged.action'), link: content.data.resetLink },
        footer,
      };
    case 'appointment-booked':
    case 'appointment-rescheduled':
    case 'appointment-cancelled':
    case 'appointment-reminder':
      return { ...appointmentParts(content, language, clinic), greeting, footer };
    case 'waitlist-slot-freed': {
      const doctor = content.data.doctorName;
      const when = formatVisitTime(content.data.startsAt, content.data.timeZone, language);
      return {
        subject: t(language, 'email.waitlistSlotFreed.subject', { doctor, clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.waitlistSlotFreed.body', { doctor, when }),
          t(language, 'email.waitlistSlotFreed.advice'),
        ],
        action: { label: t(language, 'email.waitlistSlotFreed.action'), link: content.data.link },
        footer: [t(language, 'email.waitlistSlotFreed.why'), ...footer],
      };
    }
    case 'intake-forms-due': {
      const when = formatVisitTime(content.data.startsAt, content.data.timeZone, language);
      const isReminder = content.data.reminder === true;
      return {
        subject: t(
          language,
          isReminder ? 'email.intakeFormsDue.reminderSubject' : 'email.intakeFormsDue.subject',
          {
            clinic,
          },
        ),
        greeting,
        paragraphs: [
          intakeFormsDueBody(language, isReminder, when, content.data.count),
          t(language, 'email.intakeFormsDue.advice'),
        ],
        action: { label: t(language, 'email.intakeFormsDue.action'), link: content.data.link },
        footer,
      };
    }
    case 'consent-to-sign': {
      const when = formatVisitTime(content.data.startsAt, content.data.timeZone, language);
      return {
        subject: t(language, 'email.consentToSign.subject', { clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.consentToSign.body', { when, title: content.data.title }),
          t(language, 'email.consentToSign.advice'),
        ],
        action: { label: t(language, 'email.consentToSign.action'), link: content.data.link },
        footer,
      };
    }
    case 'visit-summary': {
      const when = formatVisitTime(content.data.startsAt, content.data.timeZone, language);
      return {
        subject: t(language, 'email.visitSummary.subject', { clinic }),
        greeting,
        paragraphs: [
          t(language, 'email.visitSummary.body', { doctor: content.data.doctorName, when }),
          t(language, 'email.visitSummary.attachment'),
        ],
        action: { label: t(language, 'email.visitSummary.action'), link: content.data.link },
        footer: [t(language, 'email.visitSummary.safety'), ...footer],
      };
    }
  }
}

type AppointmentContent = Extract<
  EmailContent,
  {
    template:
      'appointment-booked' | 'appointment-rescheduled' | 'appointment-cancelled' | 'appointment-reminder';
  }
>;

function appointmentParts(
  content: AppointmentContent,
  language: Language,
  clinic: string,
): Omit<Parts, 'greeting' | 'footer'> {
  const data = content.data;
  const when = formatVisitTime(data.startsAt, data.timeZone, language);
  const withWhom =
    data.recipient === 'patient'
      ? t(language, 'email.appointment.withDoctor', { name: data.otherName })
      : t(language, 'email.appointment.withPatient', { name: data.otherName });
  const action = { label: t(language, 'email.appointment.action'), link: data.link };
  const calendar = t(language, 'email.appointment.calendar');
  switch (content.template) {
    case 'appointment-booked':
      return {
        subject: t(language, 'email.appointmentBooked.subject', { clinic }),
        paragraphs: [t(language, 'email.appointmentBooked.body', { withWhom, when }), calendar],
        action,
      };
    case 'appointment-rescheduled': {
      const previous = formatVisitTime(content.data.previousStartsAt, data.timeZone, language);
      return {
        subject: t(language, 'email.appointmentRescheduled.subject', { clinic }),
        paragraphs: [
          t(language, 'email.appointmentRescheduled.body', { withWhom, previous, when }),
          calendar,
        ],
        action,
      };
    }
    case 'appointment-cancelled': {
      const { cancelledBy, reason } = content.data;
      const by = t(
        language,
        `email.appointment.cancelledBy.${cancelledBy === data.recipient ? 'you' : cancelledBy}`,
      );
      return {
        subject: t(language, 'email.appointmentCancelled.subject', { clinic }),
        paragraphs: [
          t(language, 'email.appointmentCancelled.body', { withWhom, when, by }),
          ...(reason === null ? [] : [t(language, 'email.appointment.reason', { reason })]),
        ],
        action,
      };
    }
    case 'appointment-reminder':
      return {
        subject:
          content.data.reminder === '24h'
            ? t(language, 'email.appointmentReminder.subjectTomorrow', { clinic })
            : t(language, 'email.appointmentReminder.subjectInOneHour', { clinic }),
        paragraphs: [t(language, 'email.appointmentReminder.body', { withWhom, when })],
        action,
      };
  }
}

/** Renders an email in the recipient's language, as HTML (escaped, inline styles) and plain text. */
export function renderEmail(content: EmailContent, language: Language, clinicName: string): RenderedEmail {
  const parts = partsOf(content, language, clinicName);
  return { subject: parts.subject, html: toHtml(parts, language, clinicName), text: toText(parts) };
}

function toText(parts: Parts): string {
  const lines = [parts.greeting, '', ...parts.paragraphs.flatMap((paragraph) => [paragraph, ''])];
  if (parts.action !== undefined) {
    lines.push(`${parts.action.label}:`, parts.action.link, '');
  }
  lines.push('--', ...parts.footer);
  return `${lines.join('\n')}\n`;
}

function toHtml(parts: Parts, language: Language, clinicName: string): string {
  const paragraph = (text: string): string =>
    `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2933">${escapeHtml(text)}</p>`;
  const action =
    parts.action === undefined
      ? ''
      : `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.link)}" style="display:inline-block;padding:12px 20px;background:#1c7ed6;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(parts.action.label)}</a></p>` +
        paragraph(t(language, 'email.copyLink')) +
        `<p style="margin:0 0 16px;font-size:13px;word-break:break-all;color:#52606d">${escapeHtml(parts.action.link)}</p>`;
  const footer = parts.footer
    .map(
      (line) =>
        `<p style="margin:0 0 8px;font-size:13px;line-height:20px;color:#7b8794">${escapeHtml(line)}</p>`,
    )
    .join('');
  return [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(parts.subject)}</title></head>`,
    '<body style="margin:0;padding:0;background:#f5f7fa;font-family:Arial,Helvetica,sans-serif">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f5f7fa;padding:24px 0"><tr><td align="center">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">',
    `<tr><td><p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#1c7ed6">${escapeHtml(clinicName)}</p>`,
    paragraph(parts.greeting),
    ...parts.paragraphs.map(paragraph),
    action,
    '<hr style="border:none;border-top:1px solid #e4e7eb;margin:24px 0">',
    footer,
    '</td></tr></table></td></tr></table></body></html>',
  ].join('');
}

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** "1 form" or "N forms": the server's catalogue has no plural rules, so each count has its text. */
function intakeFormsDueBody(language: Language, isReminder: boolean, when: string, count: number): string {
  if (isReminder) {
    return count === 1
      ? t(language, 'email.intakeFormsDue.reminderBodyOne', { when })
      : t(language, 'email.intakeFormsDue.reminderBodyOther', { when, count });
  }
  return count === 1
    ? t(language, 'email.intakeFormsDue.bodyOne', { when })
    : t(language, 'email.intakeFormsDue.bodyOther', { when, count });
}
