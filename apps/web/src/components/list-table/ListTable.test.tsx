import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { useListParams } from '../../lib/use-list-params';
import { renderWithProviders } from '../../test/render';
import { describeRange, ListTable, type ListTableColumn } from './ListTable';
import { ListSearchInput } from './ListSearchInput';
import { matchEmptyMediaQuery } from './testing';

interface Person {
  id: string;
  name: string;
  city: string;
}

const people = (count: number, offset = 0): Person[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `p${offset + index + 1}`,
    name: `Persona ${offset + index + 1}`,
    city: 'Sevilla',
  }));

const columns: ListTableColumn<Person>[] = [
  { accessor: 'name', title: 'Nombre', sortable: true },
  { accessor: 'city', title: 'Ciudad', visibleFrom: 'sm' },
];

interface Scenario {
  records?: Person[];
  total?: number;
  isLoading?: boolean;
  error?: unknown;
  onRetry?: () => void;
}

function renderList(path: string, scenario: Scenario) {
  function Screen() {
    const params = useListParams({
      sorts: ['name', 'createdAt'],
      defaultSort: 'name',
      filters: { city: null },
    });
    return (
      <>
        <ListSearchInput params={params} section="Personas" />
        <ListTable
          label="Personas"
          records={scenario.records}
          total={scenario.total}
          columns={columns}
          params={params}
          isLoading={scenario.isLoading ?? false}
          error={scenario.error}
          onRetry={scenario.onRetry}
          emptyText="Todavía no hay personas."
          getRowHref={(person) => `/people/${person.id}`}
          toolbar={<button type="button">Exportar</button>}
        />
      </>
    );
  }
  const router = createMemoryRouter(
    [
      { path: '/people', Component: Screen },
      { path: '/people/:id', element: <p data-testid="detail">detail</p> },
    ],
    { initialEntries: [path] },
  );
  renderWithProviders(<RouterProvider router={router} />);
  return { router, location: () => `${router.state.location.pathname}${router.state.location.search}` };
}

describe('describeRange', () => {
  it('formats the shown range and total in the reader language', () => {
    expect(describeRange(1, 20, 1234, 'en')).toEqual({ from: '1', to: '20', total: '1,234' });
    expect(describeRange(3, 50, 123456, 'es')).toEqual({ from: '101', to: '150', total: '123.456' });
    expect(describeRange(7, 20, 125, 'en')).toEqual({ from: '121', to: '125', total: '125' });
  });
});

describe('ListTable', () => {
  let restoreMatchMedia: () => void;
  beforeAll(() => {
    restoreMatchMedia = matchEmptyMediaQuery();
  });
  afterAll(() => restoreMatchMedia());

  it('shows rows, the total, the page size choice and the spec pagination', async () => {
    const user = userEvent.setup();
    const { location } = renderList('/people?page=2', { records: people(20, 20), total: 1234 });
    const rows = screen.getAllByTestId('list-row');
    expect(rows).toHaveLength(20);
    expect(rows[0]!.getAttribute('data-id')).toBe('p21');
    expect(screen.getByTestId('list-total').textContent).toBe('21–40 de 1234');
    expect(screen.getByText('Exportar')).toBeTruthy();
    expect(screen.getByTestId('pagination-page-2').getAttribute('aria-current')).toBe('page');
    expect(screen.getByTestId('pagination-page-3').getAttribute('href')).toBe('?page=3');

    await user.selectOptions(screen.getByTestId('list-page-size'), '50');
    expect(location()).toBe('/people?pageSize=50');

    await user.click(screen.getByTestId('pagination-next'));
    expect(location()).toBe('/people?pageSize=50&page=2');
  });

  it('binds sortable headers to sort and order', async () => {
    const user = userEvent.setup();
    const { location } = renderList('/people', { records: people(3), total: 3 });
    const header = screen.getByRole('button', { name: /Nombre/ });
    expect(header.textContent).toContain('(orden ascendente)');
    await user.click(header);
    expect(location()).toBe('/people?order=desc');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Nombre/ }).textContent).toContain('descendente'),
    );
    await user.click(screen.getByRole('button', { name: /Nombre/ }));
    expect(location()).toBe('/people');
  });

  it('makes rows links reachable by keyboard and clickable as a whole', async () => {
    const user = userEvent.setup();
    const { location } = renderList('/people', { records: people(2), total: 2 });
    const links = screen.getAllByTestId('list-row-link');
    expect(links[1]!.getAttribute('href')).toBe('/people/p2');
    links[0]!.focus();
    await user.keyboard('{Enter}');
    expect(location()).toBe('/people/p1');
  });

  it('navigates when another cell of a row is clicked', async () => {
    const user = userEvent.setup();
    const { location } = renderList('/people', { records: people(2), total: 2 });
    await user.click(within(screen.getAllByTestId('list-row')[1]!).getByText('Sevilla'));
    expect(location()).toBe('/people/p2');
  });

  it('shows skeleton rows while loading', () => {
    renderList('/people', { isLoading: true });
    expect(screen.getByTestId('list-loading').getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByTestId('pagination')).toBeNull();
  });

  it('says "nothing yet" for an empty list without search or filters', () => {
    renderList('/people', { records: [], total: 0 });
    expect(screen.getByTestId('list-empty').textContent).toBe('Todavía no hay personas.');
    expect(screen.queryByTestId('list-no-matches')).toBeNull();
    expect(screen.queryByTestId('pagination')).toBeNull();
    expect(screen.queryByTestId('list-total')).toBeNull();
  });

  it('says "nothing matches" when a search or filter narrows the list, and clears them', async () => {
    const user = userEvent.setup();
    const matched = renderList('/people?q=zzz&city=Cádiz', { records: [], total: 0 });
    expect(screen.getByTestId('list-no-matches').textContent).toContain('Nada coincide con «zzz».');
    expect(screen.queryByTestId('list-empty')).toBeNull();
    await user.click(screen.getByTestId('list-clear-filters'));
    expect(matched.location()).toBe('/people');
    expect(screen.getByTestId('section-search')).toHaveProperty('value', '');
  });

  it('shows a failed load inline with a retry', async () => {
    const user = userEvent.setup();
    const onRetry = vi.fn();
    renderList('/people', {
      error: new ApiError(500, 'INTERNAL_ERROR', 'boom'),
      onRetry,
    });
    const alert = screen.getByTestId('list-error');
    expect(alert.textContent).toContain('No se pudo cargar la lista');
    expect(alert.textContent).toContain('Se produjo un error en el servidor');
    await user.click(screen.getByTestId('list-retry'));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('moves an address past the last page to the last page', async () => {
    const { location } = renderList('/people?page=9', { records: [], total: 45 });
    await waitFor(() => expect(location()).toBe('/people?page=3'));
  });

  it('hides secondary columns on small screens by CSS class, not by removing them', () => {
    renderList('/people', { records: people(1), total: 1 });
    const cityCell = screen.getByText('Sevilla').closest('td');
    expect(cityCell?.className).toMatch(/from-sm/);
  });
});
