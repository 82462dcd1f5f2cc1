import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import {
  Alert,
  Badge,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLock, IconSearch } from '@tabler/icons-react';
import { useEffect, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Pagination } from '../../../components/pagination/Pagination';
import { useApiErrorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { uiState, useHasAnyPermission, useLanguage, useSectionSearchText } from '../../../lib/ui-state';
import { useOutbox, type OutboxStatus } from '../api/get-outbox';
import { outboxStatusColors } from '../status-colors';
import { useTemplateLabel } from '../template-label';
import classes from './Outbox.module.css';
import { OutboxMessageDialog } from './OutboxMessageDialog';
import { useViewerTimeZone } from '../../../lib/use-clock';

export const outboxPageSize = 20;

/** The delivery statuses the list can be narrowed to (`?status=`). */
export const outboxStatuses: readonly OutboxStatus[] = ['stored', 'queued', 'sent', 'failed'];

/**
 * `/admin/outbox`: every email the server produced (sent or only stored), searchable and paged;
 * a row opens the message. Without SMTP this is where verification and reset links are read.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['outbox.read']);
  return (
    <div className={classes.page} data-testid="outbox-page">
      {isAllowed ? (
        <OutboxList />
      ) : (
        <>
          <Title order={1} className={classes.title} mb="lg">
            {t('admin.nav.outbox')}
          </Title>
          <Alert
            color="gray"
            variant="light"
            icon={<IconLock />}
            title={t('admin.section.forbiddenTitle')}
            data-testid="section-forbidden"
          >
            {t('admin.section.forbidden')}
          </Alert>
        </>
      )}
    </div>
  );
}

function OutboxList() {
  const { t } = useTranslation();
  const templateLabel = useTemplateLabel();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const timeZone = useViewerTimeZone();
  const sectionSearchText = useSectionSearchText();
  const setSectionSearchText = uiState((state) => state.setSectionSearchText);
  const [q] = useDebouncedValue(sectionSearchText.trim(), 300);
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
  const openId = searchParams.get('message') ?? '';
  const status = outboxStatuses.find((candidate) => candidate === searchParams.get('status'));
  const result = useOutbox({ page, pageSize: outboxPageSize, q, status });

  useEffect(() => {
    setSectionSearchText('');
  }, [setSectionSearchText]);

  const updateParams = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(searchParams);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) {
        next.delete(key);
      } else {
        next.set(key, value);
      }
    }
    setSearchParams(next);
  };

  const handleSearchChange = (value: string) => {
    setSectionSearchText(value);
    if (searchParams.has('page')) {
      updateParams({ page: null });
    }
  };

  const handleStatusChange = (value: string) =>
    updateParams({ status: outboxStatuses.find((candidate) => candidate === value) ?? null, page: null });

  const open = (id: string) => updateParams({ message: id });
  const handleLinkClick = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) {
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    open(id);
  };
  const messageHref = (id: string) => {
    const next = new URLSearchParams(searchParams);
    next.set('message', id);
    return `?${next.toString()}`;
  };

  return (
    <>
      <div className={classes.header}>
        <Stack gap={4} className={classes.headerText}>
          <Title order={1} className={classes.title}>
            {t('admin.nav.outbox')}
          </Title>
          <Text c="gray.7">{t('admin.sections.outbox')}</Text>
        </Stack>
        <TextInput
          className={classes.search}
          value={sectionSearchText}
          onChange={(event) => handleSearchChange(event.currentTarget.value)}
          placeholder={t('outbox.searchPlaceholder')}
          aria-label={t('admin.section.searchLabel', { section: t('admin.nav.outbox') })}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          data-testid="section-search"
        />
        <NativeSelect
          className={classes.statusFilter}
          label={t('outbox.filters.status')}
          value={status ?? ''}
          onChange={(event) => handleStatusChange(event.currentTarget.value)}
          data={[
            { value: '', label: t('outbox.filters.allStatuses') },
            ...outboxStatuses.map((value) => ({ value, label: t(`outbox.status.${value}`) })),
          ]}
          data-testid="outbox-filter-status"
        />
      </div>

      {result.isPending ? (
        <Stack gap="xs" aria-busy="true">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} height={44} radius="md" />
          ))}
        </Stack>
      ) : result.isError ? (
        <Alert color="red" variant="light" data-testid="outbox-error">
          {errorText(result.error)}
        </Alert>
      ) : result.data.data.length === 0 ? (
        <Paper withBorder radius="lg" p="xl" data-testid="outbox-empty">
          <Text ta="center" c="gray.7">
            {q
              ? t('admin.section.noMatches', { q })
              : status
                ? t('outbox.filters.noneWithStatus', { status: t(`outbox.status.${status}`) })
                : t('outbox.empty')}
          </Text>
        </Paper>
      ) : (
        <Stack gap="lg">
          <Paper withBorder radius="lg">
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="outbox-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('outbox.columns.subject')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('outbox.columns.to')}</Table.Th>
                  <Table.Th visibleFrom="md">{t('outbox.columns.template')}</Table.Th>
                  <Table.Th>{t('outbox.columns.status')}</Table.Th>
                  <Table.Th visibleFrom="sm">{t('outbox.columns.date')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {result.data.data.map((item) => (
                  <Table.Tr
                    key={item.id}
                    className={classes.row}
                    onClick={() => open(item.id)}
                    data-testid="outbox-row"
                    data-id={item.id}
                  >
                    <Table.Td>
                      <a
                        href={messageHref(item.id)}
                        className={classes.subjectLink}
                        onClick={(event) => handleLinkClick(event, item.id)}
                        data-testid="outbox-row-open"
                      >
                        {item.subject}
                      </a>
                      <Text size="xs" c="gray.7" hiddenFrom="sm" data-testid="outbox-row-to-mobile">
                        {item.to} · {formatDateTime(item.createdAt, language, timeZone)}
                      </Text>
                    </Table.Td>
                    <Table.Td visibleFrom="sm" data-testid="outbox-row-to">
                      {item.to}
                    </Table.Td>
                    <Table.Td visibleFrom="md">
                      <Text size="sm" c="gray.7" data-testid="outbox-row-template">
                        {templateLabel(item.template)}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        variant="light"
                        tt="none"
                        className={classes.badge}
                        color={outboxStatusColors[item.status]}
                        data-testid="outbox-row-status"
                      >
                        {t(`outbox.status.${item.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td visibleFrom="sm" className={classes.nowrap}>
                      {formatDateTime(item.createdAt, language, timeZone)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          <Pagination
            total={result.data.total}
            page={result.data.page}
            pageSize={result.data.pageSize}
            onPageChange={(next) => updateParams({ page: next > 1 ? String(next) : null })}
            getPageHref={(next) => {
              const target = new URLSearchParams(searchParams);
              target.delete('message');
              if (next > 1) {
                target.set('page', String(next));
              } else {
                target.delete('page');
              }
              return `?${target.toString()}`;
            }}
          />
        </Stack>
      )}
      <OutboxMessageDialog id={openId} timeZone={timeZone} onClose={() => updateParams({ message: null })} />
    </>
  );
}
