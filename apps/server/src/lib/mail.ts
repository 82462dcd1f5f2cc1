import type { Language } from '@telemedicina/shared/i18n';
import type { Database } from '../db/client.js';

/** A message to send; the email module's mailer (modules/email/mailer.ts) implements the sending. */
export interface OutgoingEmail {
  to: string;
  language: Language;
  template: string;
  subject: string;
  html: string;
  text: string;
  /**
   * Files sent along (calendar invitations, visit summaries): `content` is
   * text (UTF-8) unless `encoding` says base64. The outbox stores them with
   * the message, base64, except a clinical file (`isClinical`): of that only
   * the name, type and size are stored; its bytes go to the recipient alone.
   */
  attachments?: {
    filename: string;
    contentType: string;
    content: string;
    encoding?: 'base64';
    isClinical?: boolean;
  }[];
}

/**
 * Stores every message in `email_outbox` (admins read it at /admin/outbox)
 * and, with SMTP configured, queues it and sends it in the background, so a
 * request never waits for a mail server (and its timing never tells whether
 * an email went out); the row then records `sent` or `failed` with the error.
 *
 * What is stored is a copy without secrets: the `token` of every link
 * (password reset, verification, invitation) is replaced by a placeholder and
 * a clinical attachment keeps only its name, type and size. The full message
 * lives only in memory until it is handed to the mail server, right after the
 * row is stored (or its transaction commits). Without SMTP nothing is
 * delivered and the secret is gone with the request; a message whose process
 * stopped before delivery stays `queued` and cannot be resent (ask for a new
 * link). So nothing an API, a backup or a database reader can see lets anyone
 * act as the recipient.
 */
export interface Mailer {
  /** Stores the message (and starts delivery); resolves with its outbox id. */
  send(message: OutgoingEmail): Promise<string>;
  /**
   * Stores the message with `db` (a transaction) without starting delivery;
   * call `deliver` once that transaction has committed.
   */
  store(db: Database, message: OutgoingEmail): Promise<{ id: string; deliver: () => void }>;
  /** Resolves once every delivery started so far has finished (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}
