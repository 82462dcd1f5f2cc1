import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import { Badge, Stack, Text } from '@mantine/core';
import type { AuditEvent } from '@telemedicina/shared/admin';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useAuditEvents, type AuditFilters } from '../api/get-audit-events';
import { auditFilterSpec, readDate } from '../audit-filters';
import classes from './Audit.module.css';
import { AuditEventDrawer } from './AuditEventDrawer';
import { AuditFiltersBar } from './AuditFiltersBar';
import { outcomeColors } from './outcome-colors';
import { useAuditLabels } from '../audit-labels';
import { useViewerTimeZone } from '../../../lib/use-clock';

/**
 * `/admin/audit` (audit.read): who did what and when, newest first — filtered by actor, action,
 * record, outcome and dates, all kept in the address (`/admin/audit?targetId=<id>` from a user's
 * page works), paged, exportable as CSV. A row opens the event's details (`?event=<id>`). Every
 * view is itself audited by the server (`audit.viewed`).
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="audit-page"
      title={t('admin.nav.audit')}
      description={t('admin.sections.audit')}
      permissions={['audit.read']}
    >
      <AuditList />
    </ListPageFrame>
  );
}

function AuditList() {
  const { t } = useTranslation();
  const { actionLabel, targetTypeLabel } = useAuditLabels();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const [searchParams] = useSearchParams();
  const params = useListParams({
    sorts: ['at'],
    defaultSort: 'at',
    defaultOrder: 'desc',
    filters: auditFilterSpec,
  });
  const { filters } = params;
  const auditFilters: AuditFilters = {
    q: params.q,
    actor: filters.actor,
    action: filters.action,
    targetType: filters.targetType,
    targetId: filters.targetId,
    outcome: filters.outcome,
    from: readDate(filters.from),
    to: readDate(filters.to),
  };
  const result = useAuditEvents({ page: params.page, pageSize: params.pageSize, ...auditFilters });
  const openId = searchParams.get('event');
  const openEvent = result.data?.data.find((event) => String(event.id) === openId) ?? null;

  const eventHref = (event: AuditEvent) => {
    const next = new URLSearchParams(searchParams);
    next.set('event', String(event.id));
    return `?${next.toString()}`;
  };

  const actorText = (event: AuditEvent) =>
    event.actor ? (
      <Stack gap={0} className={classes.cellText}>
        <Text size="sm" fw={600} className={classes.actor}>
          {event.actor.name}
        </Text>
        <Text size="xs" c="gray.7" className={classes.actor}>
          {event.actor.email}
        </Text>
      </Stack>
    ) : (
      <Text size="sm" c="gray.7" fs="italic">
        {event.actorUserId ? t('audit.deletedUser') : t('audit.anonymous')}
      </Text>
    );

  const columns: ListTableColumn<AuditEvent>[] = [
    {
      accessor: 'at',
      title: t('audit.columns.at'),
      render: (event) => (
        <Stack gap={2} className={classes.cellText}>
          <Text size="sm" className={classes.time} data-testid="audit-row-at">
            {formatDateTime(event.at, language, timeZone)}
          </Text>
          <Text
            size="xs"
            fw={600}
            hiddenFrom="sm"
            className={classes.wrap}
            data-testid="audit-row-action-mobile"
            data-action={event.action}
          >
            {actionLabel(event.action)}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="sm" className={classes.wrap}>
            {event.actor
              ? event.actor.name
              : event.actorUserId
                ? t('audit.deletedUser')
                : t('audit.anonymous')}
          </Text>
        </Stack>
      ),
    },
    { accessor: 'actor', title: t('audit.columns.actor'), visibleFrom: 'sm', render: actorText },
    {
      accessor: 'action',
      title: t('audit.columns.action'),
      visibleFrom: 'sm',
      render: (event) => (
        <Text size="sm" className={classes.wrap} data-testid="audit-row-action" data-action={event.action}>
          {actionLabel(event.action)}
        </Text>
      ),
    },
    {
      accessor: 'target',
      title: t('audit.columns.record'),
      visibleFrom: 'md',
      render: (event) =>
        event.targetType ? (
          // The record's kind only: its id is on the event's detail view (copyable), not cut off here.
          <Text size="sm" className={classes.actor} data-testid="audit-row-target">
            {targetTypeLabel(event.targetType)}
          </Text>
        ) : (
          <Text size="sm" c="gray.7">
            —
          </Text>
        ),
    },
    {
      accessor: 'outcome',
      title: t('audit.columns.outcome'),
      width: 130,
      render: (event) => (
        <Badge variant="light" tt="none" color={outcomeColors[event.outcome]} data-testid="audit-row-outcome">
          {t(`audit.outcome.${event.outcome}`)}
        </Badge>
      ),
    },
    {
      accessor: 'actorIp',
      title: t('audit.columns.ip'),
      visibleFrom: 'lg',
      noWrap: true,
      render: (event) => (
        <Text size="sm" ff="monospace" c={event.actorIp ? undefined : 'gray.6'}>
          {event.actorIp ?? '—'}
        </Text>
      ),
    },
  ];

  return (
    <ListPage
      title={t('admin.nav.audit')}
      description={t('admin.sections.audit')}
      searchPlaceholder={t('audit.searchPlaceholder')}
      query={result}
      params={params}
      testId="audit-table"
      columns={columns}
      emptyText={t('audit.empty')}
      getRowHref={eventHref}
      getRowId={(event) => String(event.id)}
      toolbar={<AuditFiltersBar params={params} filters={auditFilters} />}
    >
      <AuditEventDrawer event={openEvent} timeZone={timeZone} />
    </ListPage>
  );
}
