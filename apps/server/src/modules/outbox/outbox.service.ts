import type { ListQuery } from '@telemedicina/shared';
import { AppError } from '../../lib/app-error.js';
import type { ServiceContext } from '../context.js';
import { findOutboxMessage, listOutbox, type OutboxRow } from '../email/email.repository.js';
import { isUuid } from '../users/users.service.js';

/** One page of stored emails, newest first; `q` searches recipient and subject. */
export function listOutboxMessages(
  ctx: ServiceContext,
  query: ListQuery,
): Promise<{ rows: OutboxRow[]; total: number }> {
  return listOutbox(ctx.db.db, query);
}

export async function getOutboxMessage(ctx: ServiceContext, id: string): Promise<OutboxRow> {
  const row = isUuid(id) ? await findOutboxMessage(ctx.db.db, id) : null;
  if (row === null) {
    throw new AppError(404, 'NOT_FOUND', 'No such message.');
  }
  return row;
}
