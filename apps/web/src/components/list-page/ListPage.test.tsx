import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { uiState } from '../../lib/ui-state';
import { useListParams } from '../../lib/use-list-params';
import { renderWithProviders } from '../../test/render';
import { matchEmptyMediaQuery } from '../list-table/testing';
import { ListPage, ListPageFrame, type ListPageQuery } from './ListPage';

interface Person {
  id: string;
  name: string;
}

const idle = {
  isPending: false,
  isFetching: false,
  isError: false,
  error: null,
  refetch: () => Promise.resolve(),
};

function renderPage(query: ListPageQuery<Person>, searchPlaceholder?: string) {
  const mounted = vi.fn();
  function People() {
    mounted();
    const params = useListParams({ sorts: ['name'], defaultSort: 'name' });
    return (
      <ListPage
        title="Personas"
        description="Quién está en la clínica."
        searchPlaceholder={searchPlaceholder}
        query={query}
        params={params}
        testId="people-table"
        columns={[{ accessor: 'name', title: 'Nombre' }]}
        emptyText="Todavía no hay personas."
      >
        <p data-testid="people-dialog">dialog</p>
      </ListPage>
    );
  }
  const router = createMemoryRouter(
    [
      {
        path: '/people',
        element: (
          <ListPageFrame
            testId="people-page"
            title="Personas"
            description="Quién está."
            permissions={['people.read']}
          >
            <People />
          </ListPageFrame>
        ),
      },
    ],
    { initialEntries: ['/people'] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return { mounted };
}

describe('ListPage', () => {
  let restoreMatchMedia: () => void;
  beforeAll(() => {
    restoreMatchMedia = matchEmptyMediaQuery();
  });
  afterAll(() => restoreMatchMedia());

  it('without the permission shows the header and "not allowed", and never mounts the list', () => {
    const { mounted } = renderPage({ ...idle, data: { data: [], total: 0 } });
    expect(screen.getByTestId('people-page')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Personas' })).toBeTruthy();
    expect(screen.getByTestId('section-forbidden')).toBeTruthy();
    expect(screen.queryByTestId('people-table')).toBeNull();
    expect(mounted).not.toHaveBeenCalled();
  });

  it('with it, shows the query’s page under the header, the search box and what belongs to the list', () => {
    const { mounted } = renderPage(
      { ...idle, data: { data: [{ id: 'p1', name: 'Ana' }], total: 1 } },
      'Buscar por nombre',
    );
    act(() => uiState.setState({ permissions: ['people.read'] }));
    expect(mounted).toHaveBeenCalled();
    expect(screen.queryByTestId('section-forbidden')).toBeNull();
    expect(screen.getByRole('table', { name: 'Personas' })).toBeTruthy();
    expect(screen.getByText('Ana')).toBeTruthy();
    expect(screen.getByTestId('section-search').getAttribute('placeholder')).toBe('Buscar por nombre');
    expect(screen.getByTestId('people-dialog')).toBeTruthy();
  });

  it('shows the query’s error with a retry that asks again; no search box without a placeholder', async () => {
    const user = userEvent.setup();
    const refetch = vi.fn(() => Promise.resolve());
    renderPage({
      ...idle,
      data: undefined,
      isError: true,
      error: new ApiError(500, 'INTERNAL', 'boom'),
      refetch,
    });
    act(() => uiState.setState({ permissions: ['people.read'] }));
    expect(screen.queryByTestId('section-search')).toBeNull();
    await user.click(screen.getByTestId('list-retry'));
    expect(refetch).toHaveBeenCalledTimes(1);
  });
});
