import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { Pagination } from './Pagination';

const numbers = () => screen.queryAllByTestId(/^pagination-page-/).map((link) => Number(link.textContent));

describe('Pagination', () => {
  it('renders nothing when there is no data', () => {
    renderWithProviders(<Pagination total={0} page={1} pageSize={20} onPageChange={() => {}} />);
    expect(screen.queryByTestId('pagination')).toBeNull();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('renders first, previous, up to six numbered pages, next and last, in that order', () => {
    renderWithProviders(<Pagination total={200} page={1} pageSize={10} onPageChange={() => {}} />);
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('data-testid'));
    expect(links).toEqual([
      'pagination-first',
      'pagination-previous',
      'pagination-page-1',
      'pagination-page-2',
      'pagination-page-3',
      'pagination-page-4',
      'pagination-page-5',
      'pagination-page-6',
      'pagination-next',
      'pagination-last',
    ]);
    expect(screen.getByRole('navigation').getAttribute('aria-label')).toBe('Paginación');
  });

  it.each([
    [3, [1, 2, 3, 4, 5, 6]],
    [4, [2, 3, 4, 5, 6, 7]],
    [10, [8, 9, 10, 11, 12, 13]],
    [20, [18, 19, 20]],
  ])('on page %i of 20 shows %j', (page, expected) => {
    renderWithProviders(<Pagination total={200} page={page} pageSize={10} onPageChange={() => {}} />);
    expect(numbers()).toEqual(expected);
    expect(screen.getByTestId(`pagination-page-${page}`).getAttribute('aria-current')).toBe('page');
  });

  it('shows a single page for fewer items than a page', () => {
    renderWithProviders(<Pagination total={3} page={1} pageSize={20} onPageChange={() => {}} />);
    expect(numbers()).toEqual([1]);
    expect(screen.getByTestId('pagination-next').getAttribute('aria-disabled')).toBe('true');
  });

  it('moves to the chosen page', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn<(page: number) => void>();
    renderWithProviders(
      <Pagination
        total={200}
        page={5}
        pageSize={10}
        onPageChange={onPageChange}
        getPageHref={(page) => `?page=${page}`}
      />,
    );
    await user.click(screen.getByTestId('pagination-page-7'));
    await user.click(screen.getByTestId('pagination-first'));
    await user.click(screen.getByTestId('pagination-previous'));
    await user.click(screen.getByTestId('pagination-next'));
    await user.click(screen.getByTestId('pagination-last'));
    expect(onPageChange.mock.calls.map(([page]) => page)).toEqual([7, 1, 4, 6, 20]);
    expect(screen.getByTestId('pagination-page-7').getAttribute('href')).toBe('?page=7');
  });

  it('disables first and previous on the first page, next and last on the last', async () => {
    const user = userEvent.setup();
    const onPageChange = vi.fn();
    const { rerender } = renderWithProviders(
      <Pagination total={50} page={1} pageSize={10} onPageChange={onPageChange} />,
    );
    for (const id of ['pagination-first', 'pagination-previous']) {
      expect(screen.getByTestId(id).getAttribute('aria-disabled')).toBe('true');
      expect(screen.getByTestId(id).hasAttribute('href')).toBe(false);
    }
    rerender(<Pagination total={50} page={5} pageSize={10} onPageChange={onPageChange} />);
    for (const id of ['pagination-next', 'pagination-last']) {
      expect(screen.getByTestId(id).getAttribute('aria-disabled')).toBe('true');
      await user.click(screen.getByTestId(id));
    }
    expect(onPageChange).not.toHaveBeenCalled();
  });

  it('speaks English when English is active', () => {
    renderWithProviders(<Pagination total={50} page={2} pageSize={10} onPageChange={() => {}} />, {
      language: 'en',
    });
    expect(screen.getByTestId('pagination-next').getAttribute('aria-label')).toBe('Next page');
    expect(screen.getByTestId('pagination-page-3').getAttribute('aria-label')).toBe('Page 3');
  });
});
