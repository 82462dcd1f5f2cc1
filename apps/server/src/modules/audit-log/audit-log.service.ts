import type { AuditFacetsResponse, AuditListQuery } from '@telemedicina/shared/admin';
import type { Language } from '@telemedicina/shared/i18n';
import { assertDateRange, calendarDateIn } from '../settings/clinic-dates.js';
import { getCachedClinicSettings } from '../settings/clinic-settings-cache.js';
import type { ServiceContext } from '../context.js';
import { isUuid } from '../../lib/uuid.js';
import { csvByteOrderMark, csvRow } from '../../lib/csv.js';
import { t } from '../../text/catalogue.js';
import {
  findAuditFacets,
  findUserLanguage,
  listAuditEvents,
  listAuditEventsAfter,
  type AuditEventFilter,
  type AuditEventListRow,
} from '../audit/audit.repository.js';

/** The filters of the viewer and the export (the export ignores paging). */
export type AuditLogFilters = Omit<AuditListQuery, 'page' | 'pageSize'>;

/**
 * One page of the audit log with its actors. Viewing the log is itself
 * audited: every call writes `audit.viewed` with the filters used.
 */
export async function listAuditLog(
  ctx: ServiceContext,
  query: AuditListQuery,
): Promise<{ rows: AuditEventListRow[]; total: number }> {
  const filter = await filterOf(ctx, query);
  const result = await listAuditEvents(ctx.db, filter, query);
  await ctx.audit({
    action: 'audit.viewed',
    targetType: 'audit_log',
    details: { filters: describeFilters(query), page: query.page, pageSize: query.pageSize },
  });
  return result;
}

/** Most rows one export writes; a trailing comment line says when it stopped there. */
export const auditExportMaxRows = 100_000;
const exportBatchSize = 1_000;

/** The export's header row in the requester's language. */
function exportHeader(language: Language): string[] {
  return [
    t(language, 'csv.audit.at'),
    t(language, 'csv.audit.action'),
    t(language, 'csv.audit.outcome'),
    t(language, 'csv.audit.user'),
    t(language, 'csv.audit.userEmail'),
    t(language, 'csv.audit.userId'),
    t(language, 'csv.audit.targetType'),
    t(language, 'csv.audit.targetId'),
    t(language, 'csv.audit.ip'),
    t(language, 'csv.audit.userAgent'),
    t(language, 'csv.audit.requestId'),
    t(language, 'csv.audit.details'),
  ];
}

/**
 * The filtered log as CSV (BOM, header in the requester's language, cells
 * safe from formula injection), produced in batches of 1,000 by keyset so a
 * long log streams in constant memory; at most {@link auditExportMaxRows}
 * rows. Audited as `audit.exported` before the first byte.
 */
export async function exportAuditLog(
  ctx: ServiceContext,
  query: AuditLogFilters,
  {
    maxRows = auditExportMaxRows,
    batchSize = exportBatchSize,
  }: { maxRows?: number; batchSize?: number } = {},
): Promise<{ fileName: string; lines: AsyncIterable<string> }> {
  const filter = await filterOf(ctx, query);
  const language = await requesterLanguage(ctx);
  await ctx.audit({
    action: 'audit.exported',
    targetType: 'audit_log',
    details: { filters: describeFilters(query), format: 'csv', maxRows },
  });
  const db = ctx.db;
  async function* lines(): AsyncGenerator<string> {
    yield csvByteOrderMark + csvRow(exportHeader(language));
    let written = 0;
    let after: { at: Date; id: number } | null = null;
    while (written < maxRows) {
      const limit = Math.min(batchSize, maxRows - written);
      const rows = await listAuditEventsAfter(db, filter, query.order, after, limit);
      if (rows.length > 0) {
        yield rows.map(toCsvRow).join('');
        written += rows.length;
        const last = rows[rows.length - 1]!;
        after = { at: last.at, id: last.id };
      }
      if (rows.length < limit) {
        return;
      }
    }
    const [more] = await listAuditEventsAfter(db, filter, query.order, after, 1);
    if (more !== undefined) {
      yield `${t(language, 'csv.audit.capped', { maxRows })}\r\n`;
    }
  }
  return { fileName: `audit-log-${calendarDateIn(ctx.now(), filter.timeZone)}.csv`, lines: lines() };
}

/** Distinct actions and record types, for the viewer's filter lists. */
export function getAuditFacets(ctx: ServiceContext): Promise<AuditFacetsResponse> {
  return findAuditFacets(ctx.db);
}

function toCsvRow(row: AuditEventListRow): string {
  return csvRow([
    row.at.toISOString(),
    row.action,
    row.outcome,
    row.actorName,
    row.actorEmail,
    row.actorUserId,
    row.targetType,
    row.targetId,
    row.actorIp,
    row.userAgent,
    row.requestId,
    Object.keys(row.details).length === 0 ? '' : JSON.stringify(row.details),
  ]);
}

/**
 * The query as the repository reads it: a uuid actor is an exact id, other
 * text matches names and emails; an action ending in `.` or `*` is a prefix;
 * dates are the clinic's calendar days (from after to, or more than 366
 * days: 400 `validation.dateRange` on `from`).
 */
async function filterOf(ctx: ServiceContext, query: AuditLogFilters): Promise<AuditEventFilter> {
  assertDateRange(query.from, query.to);
  const { settings } = await getCachedClinicSettings(ctx.db, ctx.config);
  const filter: AuditEventFilter = { timeZone: settings.clinic.timeZone };
  if (query.actor !== undefined) {
    if (isUuid(query.actor)) {
      filter.actorUserId = query.actor.toLowerCase();
    } else {
      filter.actorText = query.actor;
    }
  }
  if (query.action !== undefined) {
    const { action } = query;
    filter.action = action.endsWith('*')
      ? { prefix: action.slice(0, -1) }
      : action.endsWith('.')
        ? { prefix: action }
        : { exact: action };
  }
  if (query.targetType !== undefined) {
    filter.targetType = query.targetType;
  }
  if (query.targetId !== undefined) {
    filter.targetId = query.targetId;
  }
  if (query.outcome !== undefined) {
    filter.outcome = query.outcome;
  }
  if (query.from !== undefined) {
    filter.from = query.from;
  }
  if (query.to !== undefined) {
    filter.to = query.to;
  }
  if (query.q !== undefined && query.q !== '') {
    filter.q = query.q;
  }
  return filter;
}

/** The filters actually given, for the audit trail (paging kept apart). */
function describeFilters(query: AuditLogFilters): Record<string, string> {
  const described: Record<string, string> = {};
  for (const key of [
    'q',
    'actor',
    'action',
    'targetType',
    'targetId',
    'outcome',
    'from',
    'to',
    'order',
  ] as const) {
    const value = query[key];
    if (value !== undefined && value !== '') {
      described[key] = value;
    }
  }
  return described;
}

async function requesterLanguage(ctx: ServiceContext): Promise<Language> {
  const language = ctx.actor === null ? null : await findUserLanguage(ctx.db, ctx.actor.userId);
  return language === 'en' ? 'en' : 'es';
}
