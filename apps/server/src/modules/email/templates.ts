import type { Language } from '@telemedicina/shared';
import { formatInstantWithZone } from '../../lib/clock.js';

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

const copy: Record<Language, (content: EmailContent, clinic: string) => Parts> = {
  es: (content, clinic) => {
    const footer = [`Este mensaje lo envió ${clinic} automáticamente; no hace falta responder.`];
    switch (content.template) {
      case 'verify-email':
        return {
          subject: `Confirme su correo en ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            `Gracias por registrarse en ${clinic}. Confirme su dirección de correo para poder iniciar sesión.`,
            `El enlace caduca en ${linkLifetimeHours.verifyEmail} horas.`,
          ],
          action: { label: 'Confirmar mi correo', link: content.data.link },
          footer: ['Si usted no creó esta cuenta, ignore este mensaje.', ...footer],
        };
      case 'reset-password':
        return {
          subject: `Restablezca su contraseña de ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            'Recibimos una solicitud para restablecer su contraseña. Elija una nueva con este enlace.',
            `El enlace caduca en ${linkLifetimeHours.resetPassword} hora y solo sirve una vez.`,
          ],
          action: { label: 'Elegir una contraseña nueva', link: content.data.link },
          footer: ['Si no lo pidió usted, ignore este mensaje: su contraseña no cambia.', ...footer],
        };
      case 'invitation':
        if (content.data.isPatient === true) {
          return {
            subject: `Su cuenta de paciente en ${clinic}`,
            greeting: `Hola, ${content.data.name}:`,
            paragraphs: [
              `${content.data.inviterName} le registró como paciente en ${clinic}.`,
              `Elija su contraseña con este enlace para ver sus citas y entrar a sus videoconsultas. Caduca en ${linkLifetimeHours.invitation / 24} días.`,
            ],
            action: { label: 'Elegir mi contraseña', link: content.data.link },
            footer: [`Si usted no pidió una cita en ${clinic}, ignore este mensaje.`, ...footer],
          };
        }
        return {
          subject: `Le invitaron a ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            `${content.data.inviterName} le invitó a ${clinic} con el rol de ${content.data.roleNames.join(', ')}.`,
            `Cree su contraseña con este enlace. Caduca en ${linkLifetimeHours.invitation / 24} días.`,
          ],
          action: { label: 'Aceptar la invitación', link: content.data.link },
          footer: ['Si no esperaba esta invitación, ignore este mensaje.', ...footer],
        };
      case 'registration-attempt':
        return {
          subject: `Intento de registro con su correo en ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            'Alguien intentó crear una cuenta nueva con su dirección de correo, pero usted ya tiene una.',
            `Puede iniciar sesión en ${content.data.signInLink}. Si olvidó su contraseña, restablézcala con el botón.`,
          ],
          action: { label: 'Restablecer mi contraseña', link: content.data.resetLink },
          footer: ['Si fue usted, no hace falta hacer nada más. Si no, su cuenta sigue segura.', ...footer],
        };
      case 'password-changed':
        return {
          subject: `Su contraseña de ${clinic} cambió`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            'La contraseña de su cuenta acaba de cambiar y se cerraron las demás sesiones.',
            'Si no fue usted, restablézcala de inmediato y avise a la clínica.',
          ],
          action: { label: 'Restablecer mi contraseña', link: content.data.resetLink },
          footer,
        };
      case 'appointment-booked':
      case 'appointment-rescheduled':
      case 'appointment-cancelled':
      case 'appointment-reminder':
        return appointmentCopyEs(content, clinic, footer);
      case 'waitlist-slot-freed':
        return {
          subject: `Se liberó un hueco con ${content.data.doctorName} en ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            `Se liberó una cita con ${content.data.doctorName} el ${formatVisitTime(content.data.startsAt, content.data.timeZone, 'es')}.`,
            'Si le interesa, resérvela cuanto antes: el primero que la reserve se la queda.',
          ],
          action: { label: 'Ver los horarios', link: content.data.link },
          footer: ['Recibe este aviso porque está en la lista de espera de este médico.', ...footer],
        };
      case 'visit-summary':
        return {
          subject: `Resumen de su consulta en ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            `${content.data.doctorName} firmó la nota de su consulta del ${formatVisitTime(content.data.startsAt, content.data.timeZone, 'es')}.`,
            'Le adjuntamos el resumen en PDF: diagnósticos, plan y recomendaciones, medicación recetada y las constantes que nos comunicó. También lo encontrará en su historia clínica.',
          ],
          action: { label: 'Ver la consulta', link: content.data.link },
          footer: ['El resumen contiene datos de salud: guárdelo en un lugar seguro.', ...footer],
        };
    }
  },
  en: (content, clinic) => {
    const footer = [`This message was sent automatically by ${clinic}; there is no need to reply.`];
    switch (content.template) {
      case 'verify-email':
        return {
          subject: `Confirm your email for ${clinic}`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            `Thank you for signing up with ${clinic}. Confirm your email address to be able to sign in.`,
            `The link expires in ${linkLifetimeHours.verifyEmail} hours.`,
          ],
          action: { label: 'Confirm my email', link: content.data.link },
          footer: ['If you did not create this account, ignore this message.', ...footer],
        };
      case 'reset-password':
        return {
          subject: `Reset your ${clinic} password`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            'We received a request to reset your password. Choose a new one with this link.',
            `The link expires in ${linkLifetimeHours.resetPassword} hour and works only once.`,
          ],
          action: { label: 'Choose a new password', link: content.data.link },
          footer: [
            'If you did not ask for this, ignore this message: your password stays the same.',
            ...footer,
          ],
        };
      case 'invitation':
        if (content.data.isPatient === true) {
          return {
            subject: `Your patient account at ${clinic}`,
            greeting: `Hello ${content.data.name},`,
            paragraphs: [
              `${content.data.inviterName} registered you as a patient at ${clinic}.`,
              `Choose your password with this link to see your appointments and join your video visits. It expires in ${linkLifetimeHours.invitation / 24} days.`,
            ],
            action: { label: 'Choose my password', link: content.data.link },
            footer: [`If you did not ask for an appointment at ${clinic}, ignore this message.`, ...footer],
          };
        }
        return {
          subject: `You are invited to ${clinic}`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            `${content.data.inviterName} invited you to ${clinic} as ${content.data.roleNames.join(', ')}.`,
            `Create your password with this link. It expires in ${linkLifetimeHours.invitation / 24} days.`,
          ],
          action: { label: 'Accept the invitation', link: content.data.link },
          footer: ['If you did not expect this invitation, ignore this message.', ...footer],
        };
      case 'registration-attempt':
        return {
          subject: `Sign-up attempt with your email at ${clinic}`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            'Someone tried to create a new account with your email address, but you already have one.',
            `You can sign in at ${content.data.signInLink}. If you forgot your password, reset it with the button.`,
          ],
          action: { label: 'Reset my password', link: content.data.resetLink },
          footer: [
            'If it was you, there is nothing else to do. If not, your account is still safe.',
            ...footer,
          ],
        };
      case 'password-changed':
        return {
          subject: `Your ${clinic} password was changed`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            'The password of your account was just changed and your other sessions were signed out.',
            'If this was not you, reset it right away and tell the clinic.',
          ],
          action: { label: 'Reset my password', link: content.data.resetLink },
          footer,
        };
      case 'appointment-booked':
      case 'appointment-rescheduled':
      case 'appointment-cancelled':
      case 'appointment-reminder':
        return appointmentCopyEn(content, clinic, footer);
      case 'waitlist-slot-freed':
        return {
          subject: `A slot with ${content.data.doctorName} opened up at ${clinic}`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            `An appointment with ${content.data.doctorName} on ${formatVisitTime(content.data.startsAt, content.data.timeZone, 'en')} is free again.`,
            'If you want it, book it soon: the first one to book it gets it.',
          ],
          action: { label: 'See the times', link: content.data.link },
          footer: ["You get this notice because you are on this doctor's waiting list.", ...footer],
        };
      case 'visit-summary':
        return {
          subject: `Summary of your visit at ${clinic}`,
          greeting: `Hello ${content.data.name},`,
          paragraphs: [
            `${content.data.doctorName} signed the note of your visit on ${formatVisitTime(content.data.startsAt, content.data.timeZone, 'en')}.`,
            'The summary is attached as a PDF: diagnoses, plan and recommendations, the medication prescribed and the vitals you reported. You will also find it in your medical record.',
          ],
          action: { label: 'View the visit', link: content.data.link },
          footer: ['The summary contains health information: keep it somewhere safe.', ...footer],
        };
    }
  },
};

type AppointmentContent = Extract<
  EmailContent,
  {
    template:
      'appointment-booked' | 'appointment-rescheduled' | 'appointment-cancelled' | 'appointment-reminder';
  }
>;

function appointmentCopyEs(content: AppointmentContent, clinic: string, footer: string[]): Parts {
  const data = content.data;
  const when = formatVisitTime(data.startsAt, data.timeZone, 'es');
  const withWhom =
    data.recipient === 'patient' ? `con ${data.otherName}` : `con su paciente ${data.otherName}`;
  const greeting = `Hola, ${data.name}:`;
  const action = { label: 'Ver la cita', link: data.link };
  const calendar = 'Adjuntamos la cita para su calendario (archivo .ics).';
  switch (content.template) {
    case 'appointment-booked':
      return {
        subject: `Cita confirmada en ${clinic}`,
        greeting,
        paragraphs: [`Su cita ${withWhom} quedó confirmada para el ${when}.`, calendar],
        action,
        footer,
      };
    case 'appointment-rescheduled':
      return {
        subject: `Su cita en ${clinic} cambió de hora`,
        greeting,
        paragraphs: [
          `Su cita ${withWhom} pasó del ${formatVisitTime(content.data.previousStartsAt, data.timeZone, 'es')} al ${when}.`,
          calendar,
        ],
        action,
        footer,
      };
    case 'appointment-cancelled': {
      const by =
        content.data.cancelledBy === data.recipient
          ? 'usted'
          : { patient: 'el paciente', doctor: 'el médico', staff: 'la clínica' }[content.data.cancelledBy];
      return {
        subject: `Cita cancelada en ${clinic}`,
        greeting,
        paragraphs: [
          `Su cita ${withWhom} del ${when} fue cancelada por ${by}.`,
          ...(content.data.reason === null ? [] : [`Motivo: ${content.data.reason}`]),
        ],
        action,
        footer,
      };
    }
    case 'appointment-reminder':
      return {
        subject: `Recordatorio: cita en ${clinic} ${content.data.reminder === '24h' ? 'mañana' : 'en una hora'}`,
        greeting,
        paragraphs: [`Le recordamos su cita ${withWhom} el ${when}.`],
        action,
        footer,
      };
  }
}

function appointmentCopyEn(content: AppointmentContent, clinic: string, footer: string[]): Parts {
  const data = content.data;
  const when = formatVisitTime(data.startsAt, data.timeZone, 'en');
  const withWhom =
    data.recipient === 'patient' ? `with ${data.otherName}` : `with your patient ${data.otherName}`;
  const greeting = `Hello ${data.name},`;
  const action = { label: 'View the appointment', link: data.link };
  const calendar = 'The appointment is attached for your calendar (.ics file).';
  switch (content.template) {
    case 'appointment-booked':
      return {
        subject: `Appointment confirmed at ${clinic}`,
        greeting,
        paragraphs: [`Your appointment ${withWhom} is confirmed for ${when}.`, calendar],
        action,
        footer,
      };
    case 'appointment-rescheduled':
      return {
        subject: `Your appointment at ${clinic} was moved`,
        greeting,
        paragraphs: [
          `Your appointment ${withWhom} moved from ${formatVisitTime(content.data.previousStartsAt, data.timeZone, 'en')} to ${when}.`,
          calendar,
        ],
        action,
        footer,
      };
    case 'appointment-cancelled': {
      const by =
        content.data.cancelledBy === data.recipient
          ? 'you'
          : { patient: 'the patient', doctor: 'the doctor', staff: 'the clinic' }[content.data.cancelledBy];
      return {
        subject: `Appointment cancelled at ${clinic}`,
        greeting,
        paragraphs: [
          `Your appointment ${withWhom} on ${when} was cancelled by ${by}.`,
          ...(content.data.reason === null ? [] : [`Reason: ${content.data.reason}`]),
        ],
        action,
        footer,
      };
    }
    case 'appointment-reminder':
      return {
        subject: `Reminder: appointment at ${clinic} ${content.data.reminder === '24h' ? 'tomorrow' : 'in one hour'}`,
        greeting,
        paragraphs: [`This is a reminder of your appointment ${withWhom} on ${when}.`],
        action,
        footer,
      };
  }
}

/** Renders an email in the recipient's language, as HTML (escaped, inline styles) and plain text. */
export function renderEmail(content: EmailContent, language: Language, clinicName: string): RenderedEmail {
  const parts = copy[language](content, clinicName);
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
        paragraph(
          language === 'es'
            ? 'Si el botón no funciona, copie este enlace en su navegador:'
            : 'If the button does not work, copy this link into your browser:',
        ) +
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
