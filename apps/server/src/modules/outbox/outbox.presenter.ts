import type { OutboxItem, OutboxMessage } from '@telemedicina/shared/auth';
import type { OutboxRow } from '../email/email.repository.js';
import { countHiddenLinks, hideSecretLinks } from '../email/secret-links.js';
import { isClinicalAttachment } from './outbox.service.js';

// Secrets are hidden again on the way out: rows stored before the mailer hid them still hold them.

export function presentOutboxItem(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    to: row.toAddress,
    subject: hideSecretLinks(row.subject),
    template: row.template,
    language: row.language === 'en' ? 'en' : 'es',
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

export function presentOutboxMessage(row: OutboxRow): OutboxMessage {
  const text = hideSecretLinks(row.text);
  return {
    ...presentOutboxItem(row),
    html: hideSecretLinks(row.html),
    text,
    hiddenLinks: countHiddenLinks(text),
    // The bytes are served on their own (never a clinical file's); here only what a download link needs.
    attachments: row.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: attachment.size ?? Buffer.byteLength(attachment.content, 'base64'),
      isClinical: isClinicalAttachment(row, attachment),
    })),
  };
}
