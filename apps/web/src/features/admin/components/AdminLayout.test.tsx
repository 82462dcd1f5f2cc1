import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { uiState } from '../../../lib/ui-state';
import { renderWithProviders } from '../../../test/render';
import { AdminLayout } from './AdminLayout';

function renderShell() {
  const router = createMemoryRouter(
    [{ path: '/admin', element: <AdminLayout />, children: [{ index: true, element: <p>inicio</p> }] }],
    {
      initialEntries: ['/admin'],
    },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

const navigationKeys = () =>
  screen.getAllByTestId(/^admin-nav-/).map((link) => link.getAttribute('data-testid'));

describe('AdminLayout', () => {
  it('shows navigation items by permission', () => {
    renderShell();
    expect(navigationKeys()).toEqual(['admin-nav-dashboard', 'admin-nav-profile']);
    void act(() => uiState.getState().setPermissions(['users.manage', 'audit.read']));
    expect(navigationKeys()).toEqual([
      'admin-nav-dashboard',
      'admin-nav-users',
      'admin-nav-audit',
      'admin-nav-profile',
    ]);
    void act(() => uiState.getState().setPermissions(['roles.manage', 'specialties.manage']));
    expect(navigationKeys()).toEqual([
      'admin-nav-dashboard',
      'admin-nav-roles',
      'admin-nav-specialties',
      'admin-nav-profile',
    ]);
    void act(() => uiState.getState().setPermissions(['users.read', 'outbox.read', 'settings.manage']));
    expect(navigationKeys()).toEqual([
      'admin-nav-dashboard',
      'admin-nav-users',
      'admin-nav-outbox',
      'admin-nav-questionnaires',
      'admin-nav-consentDocuments',
      'admin-nav-settings',
      'admin-nav-apps',
      'admin-nav-profile',
    ]);
  });

  it('offers no developer showcase and no developer note in the menu, whatever the permissions', () => {
    renderShell();
    void act(() => uiState.getState().setPermissions(['users.manage', 'audit.read', 'settings.manage']));
    const navigation = screen.getByRole('navigation');
    expect(screen.queryByTestId('admin-nav-components')).toBeNull();
    expect(navigation.textContent).not.toMatch(/Componentes|Las secciones aparecen/);
  });

  it('binds the header search box to the shared search text', async () => {
    const user = userEvent.setup();
    renderShell();
    await user.type(screen.getByTestId('global-search'), 'García');
    expect(uiState.getState().searchText).toBe('García');
    void act(() => uiState.getState().setSearchText(''));
    expect(screen.getByTestId<HTMLInputElement>('global-search').value).toBe('');
  });

  it('has the language switcher and a labelled burger for phones', () => {
    renderShell();
    expect(screen.getByTestId('language-switcher')).toBeTruthy();
    expect(screen.getByTestId('admin-burger').getAttribute('aria-label')).toBe('Abrir el menú');
  });
});
