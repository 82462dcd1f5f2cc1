import '@mantine/core/styles/Table.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Flex.layer.css';
import 'mantine-datatable/styles.layer.css';
import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { countPages } from '@telemedicina/shared/pagination-window';
import { DataTable, type DataTableColumn, type DataTableSortStatus } from 'mantine-datatable';
import { useEffect, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useApiErrorText } from '../../lib/error-text';
import { useLanguage } from '../../lib/ui-state';
import type { ListOrder } from '../../lib/use-list-params';
import { Pagination } from '../pagination/Pagination';
import classes from './ListTable.module.css';

/** Breakpoints below which a column is hidden (it still shows from that width up). */
export type ListTableBreakpoint = 'xs' | 'sm' | 'md' | 'lg';

/** One column of a `ListTable`. */
export interface ListTableColumn<T> {
  /** Column id; also the sort key sent to the server when `sortable` and no `sortKey` is given. */
  accessor: string;
  title: ReactNode;
  /** Cell content; defaults to `record[accessor]` as text. */
  render?: (record: T, index: number) => ReactNode;
  sortable?: boolean;
  /** The server's sort key for this column when it differs from `accessor`. */
  sortKey?: string;
  /** Hidden on screens narrower than this breakpoint (by CSS, so nothing jumps after load). */
  visibleFrom?: ListTableBreakpoint;
  width?: number | string;
  textAlign?: 'left' | 'center' | 'right';
  noWrap?: boolean;
}

/**
 * The part of a list's state the table reads and drives: exactly what `useListParams` returns, so
 * `params={useListParams(...)}` is the usual way to fill it.
 */
export interface ListTableState {
  page: number;
  pageSize: number;
  pageSizes: readonly number[];
  sort: string;
  order: ListOrder;
  q: string | undefined;
  isFiltered: boolean;
  setPage: (page: number, options?: { replace?: boolean }) => void;
  setPageSize: (pageSize: number) => void;
  setSort: (sort: never, order: ListOrder) => void;
  clearFilters: () => void;
  pageHref: (page: number) => string;
}

export interface ListTableProps<T> {
  /** The current page's rows; undefined while the first answer is awaited. */
  records: T[] | undefined;
  /** Rows across every page (the answer's `total`). */
  total: number | undefined;
  columns: readonly ListTableColumn<T>[];
  params: ListTableState;
  /** No data to show yet (first load): skeleton rows. */
  isLoading: boolean;
  /** A newer page is on its way while the previous one stays on screen. */
  isFetching?: boolean;
  /** The failed request, shown inline with a retry button instead of the rows. */
  error?: unknown;
  onRetry?: () => void;
  /** Said when the list has no rows at all and nothing narrows it. */
  emptyText: string;
  /** Makes each row a link: the first column's content is the keyboard-reachable link, the row is clickable. */
  getRowHref?: (record: T) => string;
  /** Row id for React keys and `data-id`; default `record.id`. */
  getRowId?: (record: T) => string;
  /** Filters and actions (exports, "Invite…") above the table; wraps on small screens. */
  toolbar?: ReactNode;
  /** Accessible name of the table (usually the section's title). */
  label: string;
  /** `data-testid` of the whole list (default `list-table`). */
  testId?: string;
}

/** "1–20 of 1,234" parts, formatted in the reader's language. */
export function describeRange(page: number, pageSize: number, total: number, language: string) {
  const format = new Intl.NumberFormat(language);
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return { from: format.format(from), to: format.format(to), total: format.format(total) };
}

/** A plain value as cell text (numbers, strings, booleans); anything else reads as empty. */
function cellText(record: unknown, accessor: string): string {
  const value = (record as Record<string, unknown>)[accessor];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : '';
}

const interactiveSelector = 'a, button, input, select, textarea, label, [role="button"], [role="checkbox"]';

/**
 * The shell of every list screen: toolbar slot, a mantine-datatable table with server-side sorting
 * bound to the list's `sort`/`order`, skeleton rows while the first page loads, an inline error
 * with a retry, distinct "nothing yet" and "nothing matches" states, and below the rows the total
 * ("1–20 of 1,234"), the page-size choice and the specification's pagination (the table's own
 * pagination is not used). Rows can be links. Columns marked `visibleFrom` disappear on narrow
 * screens so a phone shows the essentials without horizontal scrolling.
 */
export function ListTable<T>({
  records,
  total,
  columns,
  params,
  isLoading,
  isFetching = false,
  error,
  onRetry,
  emptyText,
  getRowHref,
  getRowId = (record: T) => String((record as { id?: unknown }).id),
  toolbar,
  label,
  testId = 'list-table',
}: ListTableProps<T>) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const navigate = useNavigate();
  const totalCount = total ?? 0;
  const pageCount = countPages(totalCount, params.pageSize);
  const rows = records ?? [];
  const hasError = error !== undefined && error !== null;

  // An address beyond the last page (rows deleted, a bookmark) moves to the last page that exists.
  const isPastEnd =
    !isLoading && !isFetching && !hasError && rows.length === 0 && totalCount > 0 && params.page > 1;
  const { setPage } = params;
  useEffect(() => {
    if (isPastEnd) {
      setPage(Math.max(1, pageCount), { replace: true });
    }
  }, [isPastEnd, pageCount, setPage]);

  const dataColumns: DataTableColumn<T>[] = columns.map((column, index) => {
    const hiddenClass = column.visibleFrom ? classes[`from-${column.visibleFrom}`] : undefined;
    const isSorted = column.sortable && (column.sortKey ?? column.accessor) === params.sort;
    return {
      accessor: column.accessor,
      sortable: column.sortable,
      sortKey: column.sortKey,
      width: column.width,
      textAlign: column.textAlign,
      noWrap: column.noWrap,
      titleClassName: hiddenClass,
      cellsClassName: hiddenClass,
      title: (
        <>
          {column.title}
          {isSorted ? (
            <VisuallyHidden>
              {params.order === 'asc' ? t('listTable.sortedAscending') : t('listTable.sortedDescending')}
            </VisuallyHidden>
          ) : null}
        </>
      ),
      render: (record: T, rowIndex: number) => {
        const content = column.render ? column.render(record, rowIndex) : cellText(record, column.accessor);
        if (index === 0 && getRowHref) {
          return (
            <Link to={getRowHref(record)} className={classes.rowLink} data-testid="list-row-link">
              {content}
            </Link>
          );
        }
        return content;
      },
    };
  });

  const sortedColumn = columns.find(
    (column) => column.sortable && (column.sortKey ?? column.accessor) === params.sort,
  );
  const sortStatus: DataTableSortStatus<T> = {
    columnAccessor: sortedColumn?.accessor ?? params.sort,
    sortKey: sortedColumn?.sortKey,
    direction: params.order,
  };

  const handleRowClick = ({ record, event }: { record: T; event: MouseEvent }) => {
    if (!getRowHref) {
      return;
    }
    const target = event.target as Element | null;
    if (target?.closest(interactiveSelector) || window.getSelection()?.toString()) {
      return;
    }
    void navigate(getRowHref(record));
  };

  const range = describeRange(params.page, params.pageSize, totalCount, language);

  let body: ReactNode;
  if (hasError) {
    body = (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle />}
        title={t('listTable.errorTitle')}
        data-testid="list-error"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorText(error)}</Text>
          {onRetry ? (
            <Button
              variant="default"
              size="xs"
              leftSection={<IconRefresh size={16} />}
              onClick={onRetry}
              data-testid="list-retry"
            >
              {t('listTable.retry')}
            </Button>
          ) : null}
        </Stack>
      </Alert>
    );
  } else if (isLoading && rows.length === 0) {
    body = (
      <Paper withBorder radius="lg" p="md" aria-busy="true" data-testid="list-loading">
        <VisuallyHidden>{t('listTable.loading')}</VisuallyHidden>
        <Stack gap="sm">
          {[0, 1, 2, 3, 4].map((index) => (
            <Skeleton key={index} height={28} radius="sm" />
          ))}
        </Stack>
      </Paper>
    );
  } else if (rows.length === 0 && !isPastEnd) {
    body = params.isFiltered ? (
      <Paper withBorder radius="lg" p="xl" data-testid="list-no-matches">
        <Stack align="center" gap="sm">
          <Text ta="center" c="gray.7">
            {params.q ? t('listTable.noMatchesFor', { q: params.q }) : t('listTable.noMatches')}
          </Text>
          <Button variant="subtle" size="xs" onClick={params.clearFilters} data-testid="list-clear-filters">
            {t('listTable.clearFilters')}
          </Button>
        </Stack>
      </Paper>
    ) : (
      <Paper withBorder radius="lg" p="xl" data-testid="list-empty">
        <Text ta="center" c="gray.7">
          {emptyText}
        </Text>
      </Paper>
    );
  } else {
    body = (
      <DataTable<T>
        className={classes.table}
        withTableBorder
        borderRadius="lg"
        highlightOnHover
        verticalSpacing="sm"
        horizontalSpacing="md"
        minHeight={rows.length === 0 ? 120 : undefined}
        records={rows}
        columns={dataColumns}
        idAccessor={getRowId}
        sortStatus={sortStatus}
        onSortStatusChange={(status) =>
          params.setSort(String(status.sortKey ?? status.columnAccessor) as never, status.direction)
        }
        fetching={isFetching}
        loaderSize="sm"
        loaderBackgroundBlur={0.5}
        onRowClick={getRowHref ? handleRowClick : undefined}
        rowClassName={getRowHref ? classes.linkRow : undefined}
        customRowAttributes={(record) => ({ 'data-testid': 'list-row', 'data-id': getRowId(record) })}
        aria-label={label}
        noRecordsText=""
      />
    );
  }

  return (
    <Stack gap="md" data-testid={testId}>
      {toolbar ? <div className={classes.toolbar}>{toolbar}</div> : null}
      {body}
      {!hasError && totalCount > 0 ? (
        <div className={classes.footer}>
          <Group gap="md" wrap="wrap" className={classes.footerInfo}>
            <Text size="sm" c="gray.7" className={classes.total} aria-live="polite" data-testid="list-total">
              {t('listTable.range', range)}
            </Text>
            <NativeSelect
              size="xs"
              className={classes.pageSize}
              label={t('listTable.pageSize')}
              value={String(params.pageSize)}
              onChange={(event) => params.setPageSize(Number(event.currentTarget.value))}
              data={params.pageSizes.map((size) => String(size))}
              data-testid="list-page-size"
            />
          </Group>
          <div className={classes.pagination}>
            <Pagination
              total={totalCount}
              page={params.page}
              pageSize={params.pageSize}
              onPageChange={(next) => params.setPage(next)}
              getPageHref={params.pageHref}
            />
          </div>
        </div>
      ) : null}
    </Stack>
  );
}
