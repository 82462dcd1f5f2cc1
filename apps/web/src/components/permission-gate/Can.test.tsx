import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { uiState } from '../../lib/ui-state';
import { renderWithProviders } from '../../test/render';
import { Can } from './Can';

describe('Can', () => {
  it('shows its content only while the user holds at least one of the permissions', () => {
    renderWithProviders(
      <Can anyOf={['users.manage', 'roles.manage']} fallback={<span>sin acceso</span>}>
        <span>gestión de usuarios</span>
      </Can>,
    );
    expect(screen.queryByText('gestión de usuarios')).toBeNull();
    expect(screen.getByText('sin acceso')).toBeTruthy();
    void act(() => uiState.getState().setPermissions(['audit.read', 'roles.manage']));
    expect(screen.getByText('gestión de usuarios')).toBeTruthy();
    expect(screen.queryByText('sin acceso')).toBeNull();
    void act(() => uiState.getState().setPermissions(['audit.read']));
    expect(screen.queryByText('gestión de usuarios')).toBeNull();
  });

  it('shows nothing when no permission is required (an empty requirement never passes)', () => {
    renderWithProviders(<Can anyOf={[]}>contenido</Can>);
    void act(() => uiState.getState().setPermissions(['users.manage']));
    expect(screen.queryByText('contenido')).toBeNull();
  });
});
