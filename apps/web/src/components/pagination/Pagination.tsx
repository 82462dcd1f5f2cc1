import { countPages, paginationWindow } from '@telemedicina/shared/pagination-window';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Pagination.module.css';

export interface PaginationProps {
  /** Total number of items across all pages. Nothing is rendered when it is 0. */
  total: number;
  /** Current page, 1-based. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Gives each link a real address (e.g. `?page=3`) so it can be opened in a new tab or bookmarked. */
  getPageHref?: (page: number) => string;
}

/**
 * The specification's pagination: a link list with first, previous, up to six numbered pages, next
 * and last. The numbered window follows `paginationWindow` (starts two pages before the current
 * page once it is beyond 3). Nothing is built when there is no data.
 */
export function Pagination({ total, page, pageSize, onPageChange, getPageHref }: PaginationProps) {
  const { t } = useTranslation();
  const pageCount = countPages(total, pageSize);
  if (pageCount === 0) {
    return null;
  }
  const current = Math.min(Math.max(1, page), pageCount);
  const pages = paginationWindow(current, pageCount);

  const renderLink = (
    kind: 'step' | 'page',
    target: number,
    label: string,
    content: ReactNode,
    testId: string,
  ) => {
    const isCurrent = target === current;
    // First/previous on page 1 and next/last on the last page lead nowhere: shown, but disabled.
    const isDisabled = isCurrent && kind === 'step';
    const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) {
        return;
      }
      event.preventDefault();
      if (!isCurrent) {
        onPageChange(target);
      }
    };
    return (
      <li key={testId}>
        <a
          className={classes.link}
          href={isCurrent ? undefined : (getPageHref?.(target) ?? '#')}
          role="link"
          aria-label={label}
          aria-current={isCurrent && !isDisabled ? 'page' : undefined}
          aria-disabled={isDisabled || undefined}
          tabIndex={isCurrent ? -1 : undefined}
          data-testid={testId}
          data-active={(isCurrent && !isDisabled) || undefined}
          data-disabled={isDisabled || undefined}
          onClick={handleClick}
        >
          {content}
        </a>
      </li>
    );
  };

  return (
    <nav className={classes.root} aria-label={t('pagination.label')} data-testid="pagination">
      <ul className={classes.list}>
        {renderLink(
          'step',
          1,
          t('pagination.first'),
          <IconChevronsLeft size={18} aria-hidden />,
          'pagination-first',
        )}
        {renderLink(
          'step',
          Math.max(1, current - 1),
          t('pagination.previous'),
          <IconChevronLeft size={18} aria-hidden />,
          'pagination-previous',
        )}
        {pages.map((number) =>
          renderLink(
            'page',
            number,
            t('pagination.page', { page: number }),
            number,
            `pagination-page-${number}`,
          ),
        )}
        {renderLink(
          'step',
          Math.min(pageCount, current + 1),
          t('pagination.next'),
          <IconChevronRight size={18} aria-hidden />,
          'pagination-next',
        )}
        {renderLink(
          'step',
          pageCount,
          t('pagination.last'),
          <IconChevronsRight size={18} aria-hidden />,
          'pagination-last',
        )}
      </ul>
    </nav>
  );
}
