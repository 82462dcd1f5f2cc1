import type { OutboxListQuery } from '@telemedicina/shared';
import { AppError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { findOutboxMessage, type OutboxRow } from '../email/email.repository.js';
import { isUuid } from '../users/users.service.js';
import { listOutboxPage } from './outbox.repository.js';

/** One page of stored emails, newest first; `q` searches recipient and subject, `status` filters. */
export function listOutboxMessages(
  ctx: ServiceContext,
  query: OutboxListQuery,
): Promise<{ rows: OutboxRow[]; total: number }> {
  return listOutboxPage(ctx.db.db, query);
}

export async function getOutboxMessage(ctx: ServiceContext, id: string): Promise<OutboxRow> {
  const row = isUuid(id) ? await findOutboxMessage(ctx.db.db, id) : null;
  if (row === null) {
    throw new AppError(404, 'NOT_FOUND', 'No such message.');
  }
  return row;
}
