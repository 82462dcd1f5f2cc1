import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uiState } from '../../../lib/ui-state';
import { sendJson, startTestServer } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { describeItem, ListSectionPage, listSectionLoader } from './ListSectionPage';

describe('ListSectionPage against a real HTTP server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const people = Array.from({ length: 95 }, (_, index) => ({
    id: `u${index + 1}`,
    name: `Persona ${index + 1}`,
    email: `p${index + 1}@clinica.example`,
  }));

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      const url = new URL(request.url, 'http://x');
      if (url.pathname === '/api/v1/users') {
        const page = Number(url.searchParams.get('page'));
        const pageSize = Number(url.searchParams.get('pageSize'));
        const q = url.searchParams.get('q') ?? '';
        const matching = people.filter((person) => person.name.includes(q));
        sendJson(response, 200, {
          data: matching.slice((page - 1) * pageSize, page * pageSize),
          page,
          pageSize,
          total: matching.length,
        });
        return;
      }
      sendJson(response, 404, { error: { code: 'ROUTE_NOT_FOUND', message: 'No route' } });
    });
    jsdom.reconfigure({ url: `${server.origin}/admin/users` });
  });
  afterAll(async () => {
    await server.close();
  });

  const renderSection = (path: string) => {
    const router = createMemoryRouter(
      [
        {
          path: '/admin/:section',
          element: <ListSectionPage />,
          loader: listSectionLoader,
          errorElement: <p>404</p>,
        },
      ],
      {
        initialEntries: [path],
      },
    );
    renderWithProviders(<RouterProvider router={router} />);
    return router;
  };

  it('asks for nothing and says so without the permission', async () => {
    const before = server.requests.length;
    renderSection('/admin/users');
    expect(await screen.findByTestId('section-forbidden')).toBeTruthy();
    expect(server.requests.length).toBe(before);
    expect(screen.queryByTestId('pagination')).toBeNull();
  });

  it('pages through the real list and searches with the section search text', async () => {
    const user = userEvent.setup();
    const router = renderSection('/admin/users');
    void act(() => uiState.getState().setPermissions(['users.manage']));
    await screen.findByText('Persona 1');
    expect(screen.getAllByTestId(/^pagination-page-/).map((link) => link.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);

    await user.click(screen.getByTestId('pagination-page-4'));
    await screen.findByText('Persona 61');
    expect(router.state.location.search).toBe('?page=4');
    expect(screen.getAllByTestId(/^pagination-page-/).map((link) => link.textContent)).toEqual([
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(server.requests.at(-1)?.url).toBe('/api/v1/users?page=4&pageSize=20');

    await user.type(screen.getByTestId('section-search'), 'Persona 9');
    expect(uiState.getState().sectionSearchText).toBe('Persona 9');
    await waitFor(() =>
      expect(server.requests.at(-1)?.url).toBe('/api/v1/users?page=1&pageSize=20&q=Persona+9'),
    );
    await screen.findByText('Persona 95');
    expect(screen.queryByText('Persona 61')).toBeNull();
  });

  it('renders no pagination when the server does not offer the list', async () => {
    renderSection('/admin/audit');
    void act(() => uiState.getState().setPermissions(['audit.read']));
    expect((await screen.findByTestId('section-unavailable')).textContent).toContain(
      'Esta sección llegará con el módulo de administración.',
    );
    expect(screen.queryByTestId('pagination')).toBeNull();
  });

  it('answers 404 for an unknown section', async () => {
    renderSection('/admin/pacientes-secretos');
    expect(await screen.findByText('404')).toBeTruthy();
  });
});

describe('describeItem', () => {
  it('picks readable fields', () => {
    expect(describeItem({ id: 1, name: 'Ana', email: 'ana@x' })).toEqual({
      primary: 'Ana',
      secondary: 'ana@x',
    });
    expect(describeItem({ id: 7, email: 'solo@x' })).toEqual({ primary: 'solo@x', secondary: null });
    expect(describeItem({})).toEqual({ primary: '—', secondary: null });
  });
});
