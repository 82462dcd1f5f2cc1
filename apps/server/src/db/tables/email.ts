import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A file attached to an email (an ICS invitation, a PDF summary), stored with the message. */
export interface OutboxAttachment {
  filename: string;
  contentType: string;
  /** The content, base64; empty for a clinical file (its bytes are not stored). */
  content: string;
  /** Bytes, when the content is not stored (else the content's length). */
  size?: number;
  /** A clinical file (a visit summary): only its name, type and size are kept. */
  isClinical?: boolean;
}

export const outboxStatuses = ['stored', 'queued', 'sent', 'failed'] as const;
export type OutboxStatus = (typeof outboxStatuses)[number];

/** Every email the server produced; with SMTP it is also sent and its status follows. */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: uuid().primaryKey().defaultRandom(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    language: text().notNull(),
    template: text().notNull(),
    status: text().$type<OutboxStatus>().notNull(),
    /** Attachments as sent (small files only: calendar invitations, PDF summaries). */
    attachments: jsonb().$type<OutboxAttachment[]>().notNull().default([]),
    error: text(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('email_outbox_created_idx').on(table.createdAt),
    index('email_outbox_to_template_idx').on(table.toAddress, table.template, table.createdAt),
    check('email_outbox_status_check', sql`${table.status} in ('stored', 'queued', 'sent', 'failed')`),
  ],
);
