import type { Config } from './config.js';

/**
 * The warning a production start prints when no mail server is configured:
 * every email (password resets, verifications, invitations, visit
 * confirmations and summaries) is then only recorded in the outbox, which
 * keeps no link secrets and no clinical files, so nobody receives them. Null
 * when there is nothing to say (SMTP set, or not production).
 */
export function mailDeliveryWarning(config: Pick<Config, 'isProduction' | 'smtpUrl'>): string | null {
  if (!config.isProduction || config.smtpUrl !== null) {
    return null;
  }
  const rule = '!'.repeat(78);
  return [
    rule,
    '!! WARNING: SMTP_URL is not set. Emails are NOT delivered to anyone.',
    '!! Password reset, email verification and invitation links, appointment emails and',
    '!! visit summaries are only recorded in the outbox, without their links and files,',
    '!! so people cannot verify, reset or accept invitations. Set SMTP_URL',
    '!! (e.g. smtp://user:password@mail.example.org:587) and restart.',
    rule,
  ].join('\n');
}
