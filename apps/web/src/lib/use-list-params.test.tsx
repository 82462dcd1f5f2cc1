import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { uiState } from './ui-state';
import { useListParams } from './use-list-params';

function Probe() {
  const params = useListParams({
    sorts: ['name', 'createdAt'],
    defaultSort: 'name',
    filters: { status: ['active', 'disabled'], role: null },
  });
  return (
    <div>
      <output data-testid="query">{JSON.stringify(params.query)}</output>
      <output data-testid="export">{params.exportQuery}</output>
      <output data-testid="filtered">{String(params.isFiltered)}</output>
      <output data-testid="href">{params.pageHref(3)}</output>
      <input
        data-testid="box"
        value={params.searchText}
        onChange={(event) => params.setSearchText(event.currentTarget.value)}
      />
      <button type="button" onClick={() => params.setPage(4)}>
        page
      </button>
      <button type="button" onClick={() => params.setPageSize(50)}>
        size
      </button>
      <button type="button" onClick={() => params.setSort('createdAt', 'desc')}>
        sort
      </button>
      <button type="button" onClick={() => params.setFilter('status', 'disabled')}>
        status
      </button>
      <button type="button" onClick={() => params.setFilter('role', null)}>
        no-role
      </button>
      <button type="button" onClick={params.clearFilters}>
        clear
      </button>
    </div>
  );
}

/** A page whose code arrives only when the test says (a lazy route still downloading). */
let releaseSlowPage: () => void = () => undefined;

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/list', Component: Probe },
      { path: '/elsewhere', element: <p>elsewhere</p> },
      {
        path: '/slow/:id',
        lazy: () =>
          new Promise((resolve) => {
            releaseSlowPage = () => resolve({ element: <p>slow page</p> });
          }),
      },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  const query = () => JSON.parse(screen.getByTestId('query').textContent ?? '{}') as Record<string, unknown>;
  return { router, location, query };
}

describe('useListParams', () => {
  it('reads defaults from an empty address', () => {
    const { query } = renderAt('/list');
    expect(query()).toEqual({ page: 1, pageSize: 20, sort: 'name', order: 'asc' });
    expect(screen.getByTestId('filtered').textContent).toBe('false');
    expect(screen.getByTestId('export').textContent).toBe('sort=name&order=asc');
  });

  it('reads valid values and falls back to defaults for invalid ones', () => {
    const valid = renderAt(
      '/list?page=3&pageSize=50&sort=createdAt&order=desc&status=disabled&role=doctor&q=ana',
    );
    expect(valid.query()).toEqual({
      page: 3,
      pageSize: 50,
      sort: 'createdAt',
      order: 'desc',
      q: 'ana',
      status: 'disabled',
      role: 'doctor',
    });
    expect(screen.getByTestId('box')).toHaveProperty('value', 'ana');
    expect(screen.getByTestId('export').textContent).toBe(
      'q=ana&status=disabled&role=doctor&sort=createdAt&order=desc',
    );
  });

  it.each([
    '/list?page=0&pageSize=33&sort=password&order=sideways&status=deleted',
    '/list?page=-2&pageSize=abc&sort=&order=&status=',
    '/list?page=1.5&pageSize=1000&role=%20%20',
  ])('ignores invalid values in %s', (path) => {
    const { query } = renderAt(path);
    expect(query()).toEqual({ page: 1, pageSize: 20, sort: 'name', order: 'asc' });
  });

  it('writes changes to the address; page size, filters and search return to page 1', async () => {
    const user = userEvent.setup();
    const { location } = renderAt('/list');
    await user.click(screen.getByText('page'));
    expect(location()).toBe('/list?page=4');
    expect(screen.getByTestId('href').textContent).toBe('?page=3');
    await user.click(screen.getByText('size'));
    expect(location()).toBe('/list?pageSize=50');
    await user.click(screen.getByText('page'));
    await user.click(screen.getByText('sort'));
    expect(location()).toBe('/list?pageSize=50&sort=createdAt&order=desc');
    await user.click(screen.getByText('page'));
    await user.click(screen.getByText('status'));
    expect(location()).toBe('/list?pageSize=50&sort=createdAt&order=desc&status=disabled');
    expect(screen.getByTestId('filtered').textContent).toBe('true');

    await user.click(screen.getByText('page'));
    await user.type(screen.getByTestId('box'), ' Ana ');
    expect(uiState.getState().sectionSearchText).toBe(' Ana ');
    await waitFor(() =>
      expect(location()).toBe('/list?pageSize=50&sort=createdAt&order=desc&status=disabled&q=Ana'),
    );

    await user.click(screen.getByText('clear'));
    expect(location()).toBe('/list?pageSize=50&sort=createdAt&order=desc');
    expect(screen.getByTestId('box')).toHaveProperty('value', '');
  });

  it('debounces the search: one address change after typing stops', async () => {
    const user = userEvent.setup();
    const { router, location } = renderAt('/list');
    const entries: string[] = [];
    const unsubscribe = router.subscribe((state) => entries.push(state.location.search));
    await user.type(screen.getByTestId('box'), 'garcia');
    await waitFor(() => expect(location()).toBe('/list?q=garcia'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    unsubscribe();
    expect(entries).toEqual(['?q=garcia']);
  });

  it('does not pull the person back to the list when the search settles while they are leaving', async () => {
    const user = userEvent.setup();
    const { router, location } = renderAt('/list');
    await user.type(screen.getByTestId('box'), 'eva');
    // A row is opened before the debounce ends; that page's code is still downloading.
    const leaving = router.navigate('/slow/1');
    await waitFor(() => expect(router.state.navigation.state).toBe('loading'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 450)));
    releaseSlowPage();
    await act(() => leaving);
    await waitFor(() => expect(screen.getByText('slow page')).toBeTruthy());
    expect(location()).toBe('/slow/1');
  });

  it('starts each section with the box its address implies and empties it on leaving', async () => {
    uiState.getState().setSectionSearchText('left over');
    const { router } = renderAt('/list?q=lopez');
    expect(screen.getByTestId('box')).toHaveProperty('value', 'lopez');
    await act(() => router.navigate('/list?q=perez'));
    await waitFor(() => expect(screen.getByTestId('box')).toHaveProperty('value', 'perez'));
    await act(() => router.navigate('/elsewhere'));
    expect(uiState.getState().sectionSearchText).toBe('');
  });
});
