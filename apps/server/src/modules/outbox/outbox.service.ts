import type { OutboxListQuery } from '@telemedicina/shared/admin';
import type { OutboxAttachment } from '../../db/schema.js';
import { appError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { findOutboxMessage, type OutboxRow } from '../email/email.repository.js';
import { isUuid } from '../../lib/uuid.js';
import { listOutboxPage } from './outbox.repository.js';

/** One page of stored emails, newest first; `q` searches recipient and subject, `status` filters. */
export function listOutboxMessages(
  ctx: ServiceContext,
  query: OutboxListQuery,
): Promise<{ rows: OutboxRow[]; total: number }> {
  return listOutboxPage(ctx.db, query);
}

export async function getOutboxMessage(ctx: ServiceContext, id: string): Promise<OutboxRow> {
  const row = isUuid(id) ? await findOutboxMessage(ctx.db, id) : null;
  if (row === null) {
    throw appError('NOT_FOUND', 'No such message.');
  }
  return row;
}

/** Templates whose attachments are clinical (rows stored before attachments were marked). */
const clinicalTemplates: ReadonlySet<string> = new Set(['visit-summary']);

/**
 * Whether an attachment is part of someone's clinical record (a visit
 * summary): the outbox shows only its name, type and size, never its bytes.
 */
export function isClinicalAttachment(
  row: Pick<OutboxRow, 'template'>,
  attachment: OutboxAttachment,
): boolean {
  return attachment.isClinical === true || clinicalTemplates.has(row.template);
}

/**
 * One attachment of a stored email by its position; 404 when the message or
 * the position is not there, 403 `CLINICAL_ATTACHMENT_WITHHELD` for a clinical
 * file: the outbox is no way into a patient's record (that is the chart, or
 * the export, which asks a reason and is in the patient's access log).
 */
export async function getOutboxAttachment(
  ctx: ServiceContext,
  id: string,
  index: number,
): Promise<OutboxAttachment> {
  const row = await getOutboxMessage(ctx, id);
  const attachment = row.attachments[index];
  if (attachment === undefined) {
    throw appError('NOT_FOUND', 'No such attachment.');
  }
  if (isClinicalAttachment(row, attachment)) {
    throw appError(
      'CLINICAL_ATTACHMENT_WITHHELD',
      'A clinical file is not kept in the outbox; only its name, type and size are shown.',
    );
  }
  return attachment;
}

/**
 * A filename safe inside `content-disposition: attachment; filename="…"`:
 * printable ASCII without quotes, backslashes, semicolons or path parts, at
 * most 100 characters; a non-ASCII original also goes in `filename*` (RFC 6266).
 */
export function contentDisposition(filename: string): string {
  const base = (filename.split(/[\\/]/).pop() ?? '').slice(0, 200);
  const ascii = base
    .normalize('NFKD')
    .replace(/[^ -~]/g, '')
    .replace(/["\\;]/g, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 100);
  const safe = ascii === '' ? 'attachment' : ascii;
  if (base === safe || base.trim() === '') {
    return `attachment; filename="${safe}"`;
  }
  const encoded = encodeURIComponent(base).replace(
    /['()*!]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${safe}"; filename*=UTF-8''${encoded}`;
}

/** The stored content type when it is a plain `type/subtype[; params]`, else a neutral one. */
export function safeContentType(contentType: string): string {
  return /^[\w.+-]+\/[\w.+-]+(\s*;[ -~]*)?$/.test(contentType) ? contentType : 'application/octet-stream';
}
