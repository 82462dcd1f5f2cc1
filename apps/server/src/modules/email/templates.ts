import type { Language } from '@telemedicina/shared';

/** Every email the server sends, with the data each one needs. */
export type EmailContent =
  | { template: 'verify-email'; data: { name: string; link: string } }
  | { template: 'reset-password'; data: { name: string; link: string } }
  | { template: 'invitation'; data: { name: string; link: string; inviterName: string; roleNames: string[] } }
  | { template: 'registration-attempt'; data: { name: string; signInLink: string; resetLink: string } }
  | { template: 'password-changed'; data: { name: string; resetLink: string } };

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
          subject: `Confirma tu correo en ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            `Gracias por registrarte en ${clinic}. Confirma tu dirección de correo para poder iniciar sesión.`,
            `El enlace caduca en ${linkLifetimeHours.verifyEmail} horas.`,
          ],
          action: { label: 'Confirmar mi correo', link: content.data.link },
          footer: ['Si no creaste esta cuenta, ignora este mensaje.', ...footer],
        };
      case 'reset-password':
        return {
          subject: `Restablece tu contraseña de ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            'Recibimos una solicitud para restablecer tu contraseña. Elige una nueva con este enlace.',
            `El enlace caduca en ${linkLifetimeHours.resetPassword} hora y solo sirve una vez.`,
          ],
          action: { label: 'Elegir una contraseña nueva', link: content.data.link },
          footer: ['Si no lo pediste tú, ignora este mensaje: tu contraseña no cambia.', ...footer],
        };
      case 'invitation':
        return {
          subject: `Te invitaron a ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            `${content.data.inviterName} te invitó a ${clinic} con el rol de ${content.data.roleNames.join(', ')}.`,
            `Crea tu contraseña con este enlace. Caduca en ${linkLifetimeHours.invitation / 24} días.`,
          ],
          action: { label: 'Aceptar la invitación', link: content.data.link },
          footer: ['Si no esperabas esta invitación, ignora este mensaje.', ...footer],
        };
      case 'registration-attempt':
        return {
          subject: `Intento de registro con tu correo en ${clinic}`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            'Alguien intentó crear una cuenta nueva con tu dirección de correo, pero ya tienes una.',
            `Puedes iniciar sesión en ${content.data.signInLink}. Si olvidaste tu contraseña, restablécela con el botón.`,
          ],
          action: { label: 'Restablecer mi contraseña', link: content.data.resetLink },
          footer: ['Si fuiste tú, no hace falta hacer nada más. Si no, tu cuenta sigue segura.', ...footer],
        };
      case 'password-changed':
        return {
          subject: `Tu contraseña de ${clinic} cambió`,
          greeting: `Hola, ${content.data.name}:`,
          paragraphs: [
            'La contraseña de tu cuenta acaba de cambiar y se cerraron las demás sesiones.',
            'Si no fuiste tú, restablécela de inmediato y avisa a la clínica.',
          ],
          action: { label: 'Restablecer mi contraseña', link: content.data.resetLink },
          footer,
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
    }
  },
};

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
            ? 'Si el botón no funciona, copia este enlace en tu navegador:'
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
