import { useDebouncedValue } from '@mantine/hooks';
import { useCallback, useContext, useEffect, useMemo, useRef } from 'react';
import { UNSAFE_DataRouterContext, useLocation, useNavigation, useSearchParams } from 'react-router';
import { uiState, useSectionSearchText } from './ui-state';

/** The page sizes a list offers; anything else in the address falls back to the default. */
export const listPageSizes = [10, 20, 50, 100] as const;
/** Rows per page when the address does not say. */
export const defaultListPageSize = 20;
/** How long the section search box waits after the last keystroke before it asks the server. */
export const listSearchDebounceMs = 300;

export type ListOrder = 'asc' | 'desc';

/**
 * A list screen's filters: each name maps to the values it accepts (an invalid value in the address
 * reads as "no filter"), or to `null` for a free text filter (any non-empty string up to 200
 * characters).
 */
export type ListFilterSpec = Record<string, readonly string[] | null>;

/** The current value of each filter of a spec: one of its allowed values, or undefined when not set. */
export type ListFilterValues<F extends ListFilterSpec> = {
  [K in keyof F]: F[K] extends readonly (infer V)[] ? V | undefined : string | undefined;
};

export interface ListParamsOptions<S extends string, F extends ListFilterSpec> {
  /** The sort keys the endpoint accepts (its `sort` enum). */
  sorts: readonly S[];
  defaultSort: S;
  /** Default `asc`. */
  defaultOrder?: ListOrder;
  filters?: F;
  /** Default `listPageSizes`. */
  pageSizes?: readonly number[];
  /** Default 20. */
  defaultPageSize?: number;
}

/** The query a list endpoint takes: paging, sort, the debounced search text and the filters that are set. */
export type ListQuery<S extends string, F extends ListFilterSpec> = {
  page: number;
  pageSize: number;
  sort: S;
  order: ListOrder;
  q: string | undefined;
} & ListFilterValues<F>;

export interface ListParams<S extends string, F extends ListFilterSpec> {
  page: number;
  pageSize: number;
  /** The page sizes to offer. */
  pageSizes: readonly number[];
  sort: S;
  order: ListOrder;
  /** The search text sent to the server (trimmed, debounced); undefined when the box is empty. */
  q: string | undefined;
  /** What the section search box shows right now (not debounced). */
  searchText: string;
  filters: ListFilterValues<F>;
  /** True when a search text or any filter narrows the list (for the "no matches" state). */
  isFiltered: boolean;
  /** Everything the endpoint needs, ready for the query key and the request. */
  query: ListQuery<S, F>;
  /** Goes to a page (1-based); `replace` swaps the history entry instead of adding one. */
  setPage: (page: number, options?: { replace?: boolean }) => void;
  /** Changes the page size and goes back to page 1. */
  setPageSize: (pageSize: number) => void;
  setSort: (sort: S, order: ListOrder) => void;
  /** Sets (or, with undefined/null/'', clears) one filter and goes back to page 1. */
  setFilter: <K extends keyof F & string>(name: K, value: ListFilterValues<F>[K] | null) => void;
  /** Updates the section search box; the query follows after the debounce, back on page 1. */
  setSearchText: (text: string) => void;
  /** Clears the search box and every filter. */
  clearFilters: () => void;
  /** The address of another page of the same list (for the pagination's links). */
  pageHref: (page: number) => string;
  /**
   * The query string of the current search, filters and sort without paging — for exports such as
   * `/api/v1/users/export.csv?<exportQuery>`. Empty string when nothing is set.
   */
  exportQuery: string;
}

const reservedNames = new Set(['page', 'pageSize', 'sort', 'order', 'q']);

function parsePositiveInteger(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) {
    return null;
  }
  const number = Number.parseInt(value, 10);
  return number >= 1 ? number : null;
}

function readFilter(spec: readonly string[] | null, value: string | null): string | undefined {
  if (value === null) {
    return undefined;
  }
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.length > 200) {
    return undefined;
  }
  if (spec === null) {
    return trimmed;
  }
  return spec.includes(trimmed) ? trimmed : undefined;
}

/**
 * Typed state of a list screen kept in the address's search parameters — `page`, `pageSize`,
 * `sort`, `order`, `q` and the screen's own filters — so a list can be bookmarked, shared, reloaded
 * and walked with Back. Values that are invalid or equal to the default are left out of the
 * address and read as the default. Changing the search, a filter or the page size returns to page
 * 1. The search text lives in the shared UI state (`sectionSearchText`, the section's search box):
 * the box is set from the address's `q` when the section opens (so each section starts empty unless
 * its address says otherwise) and is written back to `q`, debounced, replacing the history entry.
 */
export function useListParams<const S extends string, const F extends ListFilterSpec = Record<never, never>>(
  options: ListParamsOptions<S, F>,
): ListParams<S, F> {
  const {
    sorts,
    defaultSort,
    defaultOrder = 'asc',
    pageSizes = listPageSizes,
    defaultPageSize = defaultListPageSize,
  } = options;
  const filterSpec = (options.filters ?? {}) as F;
  const [searchParams, setSearchParams] = useSearchParams();
  // Leaving for another page (a row's page whose code is still loading): this screen stays mounted
  // meanwhile, and a search written now would pull the person back to the list.
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const leaving = navigation.state !== 'idle' && navigation.location.pathname !== pathname;
  const isLeaving = useRef(leaving);
  useEffect(() => {
    isLeaving.current = leaving;
  }, [leaving]);
  // The router's own state, read when the search settles: the rendered navigation state above lags
  // behind it while a busy page renders the start of the navigation (a transition), and a search
  // written in that gap still pulled the person back to the list.
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const searchText = useSectionSearchText();
  const [debouncedText] = useDebouncedValue(searchText.trim(), listSearchDebounceMs);

  // Every section starts with the box its address implies (empty when it has no `q`).
  const initialQ = useRef(readFilter(null, searchParams.get('q')) ?? '');
  useEffect(() => {
    uiState.getState().setSectionSearchText(initialQ.current);
    return () => uiState.getState().setSectionSearchText('');
  }, []);

  const page = parsePositiveInteger(searchParams.get('page')) ?? 1;
  const requestedSize = parsePositiveInteger(searchParams.get('pageSize'));
  const pageSize =
    requestedSize !== null && pageSizes.includes(requestedSize) ? requestedSize : defaultPageSize;
  const requestedSort = searchParams.get('sort');
  const sort = sorts.find((candidate) => candidate === requestedSort) ?? defaultSort;
  const requestedOrder = searchParams.get('order');
  const order: ListOrder =
    requestedOrder === 'asc' || requestedOrder === 'desc' ? requestedOrder : defaultOrder;
  const q = readFilter(null, searchParams.get('q'));
  const filterKey = Object.keys(filterSpec)
    .map((name) => `${name}=${searchParams.get(name) ?? ''}`)
    .join('&');
  const filters = useMemo(() => {
    const values: Record<string, string | undefined> = {};
    for (const [name, spec] of Object.entries(filterSpec)) {
      values[name] = readFilter(spec, searchParams.get(name));
    }
    return values as ListFilterValues<F>;
    // filterKey captures every value the filters are read from.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterKey]);

  /** Applies changes to the address; `null`/`undefined`/'' removes a parameter. */
  const update = useCallback(
    (changes: Record<string, string | number | null | undefined>, replace = false) => {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === undefined || value === '') {
              next.delete(name);
            } else {
              next.set(name, String(value));
            }
          }
          return next;
        },
        { replace },
      );
    },
    [setSearchParams],
  );

  // The debounced box is written to the address (replacing the entry: typing is not history).
  useEffect(() => {
    const current = q ?? '';
    const navigation = router?.state.navigation;
    const isLeavingNow =
      navigation !== undefined && navigation.state !== 'idle' && navigation.location.pathname !== pathname;
    if (isLeaving.current || isLeavingNow) {
      return;
    }
    if (debouncedText !== current && debouncedText === uiState.getState().sectionSearchText.trim()) {
      update({ q: debouncedText || null, page: null }, true);
    }
    // Only a new debounced value should write; `q` changing from the address must not re-trigger.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedText]);

  // Back/Forward to an address with another `q` puts that text back in the box.
  useEffect(() => {
    const current = q ?? '';
    if (current !== debouncedText && current !== uiState.getState().sectionSearchText.trim()) {
      uiState.getState().setSectionSearchText(current);
    }
    // Only an address change matters here; our own writes already match the debounced text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [q]);

  const setPage = useCallback(
    (next: number, { replace = false }: { replace?: boolean } = {}) =>
      update({ page: next > 1 ? next : null }, replace),
    [update],
  );
  const setPageSize = useCallback(
    (next: number) => update({ pageSize: next === defaultPageSize ? null : next, page: null }),
    [update, defaultPageSize],
  );
  const setSort = useCallback(
    (nextSort: S, nextOrder: ListOrder) =>
      update({
        sort: nextSort === defaultSort ? null : nextSort,
        order: nextOrder === defaultOrder ? null : nextOrder,
        page: null,
      }),
    [update, defaultSort, defaultOrder],
  );
  const setFilter = useCallback(
    <K extends keyof F & string>(name: K, value: ListFilterValues<F>[K] | null) => {
      if (reservedNames.has(name)) {
        return;
      }
      update({ [name]: (value as string | undefined | null) ?? null, page: null });
    },
    [update],
  );
  const setSearchText = useCallback((text: string) => uiState.getState().setSectionSearchText(text), []);
  const clearFilters = useCallback(() => {
    uiState.getState().setSectionSearchText('');
    update({
      q: null,
      page: null,
      ...Object.fromEntries(Object.keys(filterSpec).map((name) => [name, null])),
    });
    // filterSpec's names are fixed for a screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [update]);

  const pageHref = useCallback(
    (target: number) => {
      const next = new URLSearchParams(searchParams);
      if (target > 1) {
        next.set('page', String(target));
      } else {
        next.delete('page');
      }
      const text = next.toString();
      return text ? `?${text}` : '?';
    },
    [searchParams],
  );

  const exportQuery = useMemo(() => {
    const params = new URLSearchParams();
    if (q) {
      params.set('q', q);
    }
    for (const [name, value] of Object.entries(filters as Record<string, string | undefined>)) {
      if (value !== undefined) {
        params.set(name, value);
      }
    }
    params.set('sort', sort);
    params.set('order', order);
    return params.toString();
  }, [q, filters, sort, order]);

  const query = useMemo<ListQuery<S, F>>(
    () => ({ page, pageSize, sort, order, q, ...filters }),
    [page, pageSize, sort, order, q, filters],
  );
  const isFiltered =
    q !== undefined ||
    Object.values(filters as Record<string, string | undefined>).some((value) => value !== undefined);

  return {
    page,
    pageSize,
    pageSizes,
    sort,
    order,
    q,
    searchText,
    filters,
    isFiltered,
    query,
    setPage,
    setPageSize,
    setSort,
    setFilter,
    setSearchText,
    clearFilters,
    pageHref,
    exportQuery,
  };
}
