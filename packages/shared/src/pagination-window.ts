/** Most numbered page links the pagination shows at once (specification: "up to six"). */
export const paginationWindowSize = 6;

/** Number of pages needed for `total` items shown `pageSize` at a time (0 when there is nothing). */
export function countPages(total: number, pageSize: number): number {
  if (!Number.isFinite(total) || !Number.isFinite(pageSize) || total <= 0 || pageSize <= 0) {
    return 0;
  }
  return Math.ceil(total / Math.floor(pageSize));
}

/**
 * The numbered pages shown by the pagination, following the specification literally: pages 1..3
 * show a window starting at page 1; from page 4 on the window starts two pages before the current
 * page. The window never starts later than that, so near the last page it simply holds fewer
 * links ("up to six") instead of sliding back — with 10 pages, page 9 shows 7, 8, 9, 10.
 * The current page is clamped into 1..pageCount first; no pages → an empty window.
 */
export function paginationWindow(
  currentPage: number,
  pageCount: number,
  size = paginationWindowSize,
): number[] {
  const pages = Math.max(0, Math.floor(pageCount));
  if (pages === 0 || size <= 0) {
    return [];
  }
  const current = Math.min(Math.max(1, Math.floor(currentPage) || 1), pages);
  const start = current > 3 ? current - 2 : 1;
  const end = Math.min(pages, start + size - 1);
  const window: number[] = [];
  for (let page = start; page <= end; page += 1) {
    window.push(page);
  }
  return window;
}
