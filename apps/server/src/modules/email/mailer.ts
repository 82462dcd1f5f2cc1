import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Database } from '../../db/client.js';
import type { OutboxAttachment } from '../../db/schema.js';
import type { Mailer, OutgoingEmail } from '../../lib/mail.js';
import { insertOutboxMessage, updateOutboxStatus } from './email.repository.js';
import { hideSecretLinks } from './secret-links.js';

export type { Mailer, OutgoingEmail } from '../../lib/mail.js';

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

export interface MailerOptions {
  db: Database;
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
      await updateOutboxStatus(options.db, id, { status: 'sent', error: null, sentAt: options.now() });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      options.logger.warn({ outboxId: id, err: error }, 'email delivery failed');
      await updateOutboxStatus(options.db, id, {
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
      const row = await insert(options.db, message);
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
