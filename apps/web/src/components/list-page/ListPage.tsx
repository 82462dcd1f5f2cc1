import type { ReactNode } from 'react';
import { useHasAnyPermission } from '../../lib/ui-state';
import {
  ListSearchInput,
  ListTable,
  type ListSearchInputProps,
  type ListTableProps,
  type ListTableState,
} from '../list-table';
import { SectionForbidden } from '../section-page/SectionForbidden';
import { SectionHeader } from '../section-page/SectionHeader';
import pageClasses from '../section-page/SectionPage.module.css';

export interface ListPageFrameProps {
  /** `data-testid` of the page. */
  testId: string;
  title: string;
  description: string;
  /** Any one of them shows the list; without, the section's header and "not allowed" instead. */
  permissions: readonly string[];
  /** The list, mounted only when allowed (its queries do not run otherwise). */
  children: ReactNode;
}

/** The frame of a list section: the page, and the permission gate in front of the list. */
export function ListPageFrame({ testId, title, description, permissions, children }: ListPageFrameProps) {
  const isAllowed = useHasAnyPermission(permissions);
  return (
    <div className={pageClasses.page} data-testid={testId}>
      {isAllowed ? (
        children
      ) : (
        <>
          <SectionHeader title={title} description={description} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

/** One page of a list as the server answers it. */
export interface ListPageAnswer<T> {
  data: T[];
  total: number;
}

/** What a list page reads of its query (a TanStack `useQuery` result fits). */
export interface ListPageQuery<T> {
  data: ListPageAnswer<T> | undefined;
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}

type TableFromQuery =
  'records' | 'total' | 'isLoading' | 'isFetching' | 'error' | 'onRetry' | 'label' | 'params';

export interface ListPageProps<T> extends Omit<ListTableProps<T>, TableFromQuery> {
  /** The section's title: the header's heading, the table's accessible name, the search box's section. */
  title: string;
  description: string;
  /** The list's address state (`useListParams`). */
  params: ListTableState & ListSearchInputProps['params'];
  /** The list's query: its page fills the table; its states give the skeleton, the refresh and the error with a retry. */
  query: ListPageQuery<T>;
  /** The search box's placeholder; no search box when absent. */
  searchPlaceholder?: string;
  /** What belongs to the list beside the table: its dialogs and drawers. */
  children?: ReactNode;
}

/**
 * A list section's content: the header (title, description, search box) and the table of the
 * query's current page, with the loading, empty, error and pagination states `ListTable` draws.
 */
export function ListPage<T>({
  title,
  description,
  params,
  query,
  searchPlaceholder,
  children,
  ...table
}: ListPageProps<T>) {
  return (
    <>
      <SectionHeader title={title} description={description}>
        {searchPlaceholder === undefined ? null : (
          <ListSearchInput params={params} section={title} placeholder={searchPlaceholder} />
        )}
      </SectionHeader>
      <ListTable
        {...table}
        label={title}
        records={query.data?.data}
        total={query.data?.total}
        params={params}
        isLoading={query.isPending}
        isFetching={query.isFetching && !query.isPending}
        error={query.isError ? query.error : undefined}
        onRetry={() => void query.refetch()}
      />
      {children}
    </>
  );
}
