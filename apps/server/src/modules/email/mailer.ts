import type { Language } from '@telemedicina/shared';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database, DatabaseClient } from '../../db/client.js';
import type { OutboxAttachment } from '../../db/schema.js';
import { insertOutboxMessage, updateOutboxStatus } from './email.repository.js';
import { hideSecretLinks } from './secret-links.js';

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

/** The attachments as the outbox stores them (content base64; a clinical file's withheld). */
export function toOutboxAttachments(attachments: OutgoingEmail['attachments']): OutboxAttachment[] {
  return (attachments ?? []).map((attachment) => {
    const bytes = Buffer.from(attachment.content, attachment.encoding === 'base64' ? 'base64' : 'utf8');
    return attachment.isClinical === true
      ? {
          filename: attachment.filename,
          contentType: attachment.contentType,
          content: '',
          size: bytes.length,
          isClinical: true,
        }
      : {
          filename: attachment.filename,
          contentType: attachment.contentType,
          content: bytes.toString('base64'),
        };
  });
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

export interface MailerOptions {
  db: DatabaseClient;
  smtpUrl: string | null;
  from: string;
  now: () => Date;
  logger: FastifyBaseLogger;
}

export function createMailer(options: MailerOptions): Mailer {
  const transport =
    options.smtpUrl === null
      ? null
      : nodemailer.createTransport({
          url: options.smtpUrl,
          // Fail a delivery in seconds rather than holding it open for minutes.
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        });
  const pending = new Set<Promise<void>>();

  const deliver = async (id: string, message: OutgoingEmail): Promise<void> => {
    if (transport === null) {
      return;
    }
    try {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
        attachments: message.attachments?.map(({ filename, contentType, content, encoding }) => ({
          filename,
          contentType,
          content,
          ...(encoding === undefined ? {} : { encoding }),
        })),
      });
      await updateOutboxStatus(options.db.db, id, { status: 'sent', error: null, sentAt: options.now() });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      options.logger.warn({ outboxId: id, err: error }, 'email delivery failed');
      await updateOutboxStatus(options.db.db, id, {
        status: 'failed',
        error: reason.slice(0, 500),
        sentAt: null,
      }).catch((updateError: unknown) => {
        options.logger.error({ err: updateError }, 'could not record the failed delivery');
      });
    }
  };

  const insert = (db: Database, message: OutgoingEmail) =>
    insertOutboxMessage(db, {
      toAddress: message.to,
      subject: hideSecretLinks(message.subject),
      html: hideSecretLinks(message.html),
      text: hideSecretLinks(message.text),
      language: message.language,
      template: message.template,
      status: transport === null ? 'stored' : 'queued',
      attachments: toOutboxAttachments(message.attachments),
      error: null,
      createdAt: options.now(),
      sentAt: null,
    });

  const store = async (
    db: Database,
    message: OutgoingEmail,
  ): Promise<{ id: string; deliver: () => void }> => {
    const row = await insert(db, message);
    return {
      id: row.id,
      deliver: () => {
        if (transport !== null) {
          const delivery = deliver(row.id, message).finally(() => pending.delete(delivery));
          pending.add(delivery);
        }
      },
    };
  };
  return {
    store,
    send: async (message) => {
      const row = await insert(options.db.db, message);
      if (transport !== null) {
        const delivery = deliver(row.id, message).finally(() => pending.delete(delivery));
        pending.add(delivery);
      }
      return row.id;
    },
    idle: async () => {
      while (pending.size > 0) {
        await Promise.all([...pending]);
      }
    },
    close: async () => {
      while (pending.size > 0) {
        await Promise.all([...pending]);
      }
      transport?.close();
    },
  };
}
