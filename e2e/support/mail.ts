/**
 * The loopback mail server journeys hand to the built server as SMTP_URL: the outbox keeps emails
 * without their link secrets, so a journey reads a verification, reset or invitation link where
 * the person would, in the delivered email.
 */
export { startSmtpCatcher, type SmtpCatcher } from '../../apps/server/src/test/smtp-catcher.js';
