import type { OutboxItem, OutboxMessage } from '@telemedicina/shared';
import type { OutboxRow } from '../email/email.repository.js';

export function presentOutboxItem(row: OutboxRow): OutboxItem {
  return {
    id: row.id,
    to: row.toAddress,
    subject: row.subject,
    template: row.template,
    language: row.language === 'en' ? 'en' : 'es',
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

export function presentOutboxMessage(row: OutboxRow): OutboxMessage {
  return {
    ...presentOutboxItem(row),
    html: row.html,
    text: row.text,
    // The bytes are served on their own; here only what a download link needs.
    attachments: row.attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.contentType,
      size: Buffer.byteLength(attachment.content, 'base64'),
    })),
  };
}
