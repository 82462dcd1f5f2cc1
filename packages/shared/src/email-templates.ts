/**
 * Every email template the server renders (`modules/email/templates.ts` is typed against this
 * list). The outbox shows each one by a translated label (`outbox.templates.<name>`): a test checks
 * that every template here has one in both languages.
 */
export const emailTemplates = [
  'verify-email',
  'reset-password',
  'invitation',
  'registration-attempt',
  'password-changed',
  'appointment-booked',
  'appointment-rescheduled',
  'appointment-cancelled',
  'appointment-reminder',
  'waitlist-slot-freed',
  'visit-summary',
  'intake-forms-due',
  'consent-to-sign',
] as const;
export type EmailTemplateName = (typeof emailTemplates)[number];
