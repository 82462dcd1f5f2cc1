import type { AdminUserListQuery } from '@telemedicina/shared/admin';
import type { Language } from '@telemedicina/shared/i18n';
import { languageOf } from '../../lib/language.js';
import type { ServiceContext } from '../context.js';
import { loadActorUser } from './actor.js';
import {
  countAdminUsers,
  findAdminUserExtras,
  listAdminUserPage,
  readAdminUserBatch,
  type AdminUserExtras,
} from './users-list.repository.js';
import { csvByteOrderMark, csvRow } from '../../lib/csv.js';
import { userCsvHeader, userCsvRow } from './users-csv.presenter.js';
import type { UserRow } from './users.repository.js';

export interface AdminUserListResult {
  rows: UserRow[];
  extras: AdminUserExtras;
  total: number;
}

/**
 * One page of the administration's user list with the total for the
 * filters: the page and the count are two statements run side by side (two
 * pool connections on PostgreSQL; PGlite runs them in turn). The page is
 * cheap — an index hands it over in order, or the planner sorts the few
 * matches of a rare search — so the count sets the pace.
 */
export async function listAdminUsers(
  ctx: ServiceContext,
  query: AdminUserListQuery,
): Promise<AdminUserListResult> {
  const db = ctx.db;
  const now = ctx.now();
  const [rows, total] = await Promise.all([
    listAdminUserPage(db, query, now),
    countAdminUsers(db, query, now),
  ]);
  return { rows, extras: await findAdminUserExtras(db, rows, now), total };
}

/** Users per statement while exporting: small enough for memory, large enough to amortise round trips. */
export const exportBatchSize = 1_000;

export interface UserExport {
  filename: string;
  /** The CSV in pieces (BOM and header first), read from the database batch by batch as it is consumed. */
  chunks: AsyncIterable<string>;
}

/**
 * The CSV of every user matching the list's filters (paging ignored), in
 * the requester's language and time zone. Recorded as `user.exported` with
 * the filters before the first byte goes out.
 */
export async function exportAdminUsers(ctx: ServiceContext, query: AdminUserListQuery): Promise<UserExport> {
  const requester = await loadActorUser(ctx);
  const language: Language = languageOf(requester);
  const now = ctx.now();
  const filters = {
    q: query.q,
    role: query.role,
    status: query.status,
    sort: query.sort,
    order: query.order,
  };
  await ctx.audit({
    action: 'user.exported',
    targetType: 'user',
    details: Object.fromEntries(
      Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''),
    ),
  });
  const format = { language, timeZone: requester.timeZone, now };
  return {
    filename: `users-${calendarDate(now, requester.timeZone)}.csv`,
    chunks: csvChunks(ctx, filters, format),
  };
}

async function* csvChunks(
  ctx: ServiceContext,
  filters: Parameters<typeof readAdminUserBatch>[1],
  format: { language: Language; timeZone: string; now: Date },
): AsyncGenerator<string> {
  const db = ctx.db;
  yield csvByteOrderMark + csvRow(userCsvHeader(format.language));
  let cursor: (string | null)[] | null = null;
  do {
    const batch = await readAdminUserBatch(db, filters, cursor, exportBatchSize, format.now);
    if (batch.rows.length > 0) {
      const extras = await findAdminUserExtras(db, batch.rows, format.now);
      yield batch.rows.map((user) => csvRow(userCsvRow(user, extras, format))).join('');
    }
    cursor = batch.next;
  } while (cursor !== null);
}

/** `YYYY-MM-DD` of an instant in a time zone. */
function calendarDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
