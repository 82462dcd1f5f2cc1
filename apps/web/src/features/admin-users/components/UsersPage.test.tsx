import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { uiState } from '../../../lib/ui-state';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';
import { sampleRoles, sampleUser } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('users list against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;

  beforeAll(async () => {
    restoreMatchMedia = matchEmptyMediaQuery();
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    restoreMatchMedia();
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read', 'users.manage'] }));
    api.routes['GET /api/v1/roles'] = (_request, response) =>
      sendJson(response, 200, { data: sampleRoles, page: 1, pageSize: 100, total: 2 });
    api.routes['GET /api/v1/users'] = (request, response) => {
      const url = new URL(request.url, 'http://x');
      const isLockedFilter = url.searchParams.get('status') === 'locked';
      const data = isLockedFilter
        ? [
            sampleUser({
              id: 'u-9',
              name: 'Eva Locked',
              lockedUntil: new Date(Date.now() + 600_000).toISOString(),
            }),
          ]
        : [
            sampleUser(),
            sampleUser({
              id: 'u-3',
              name: 'Marta Ruiz',
              email: 'marta@clinica.example',
              status: 'pending',
              roles: [],
              lastSignInAt: null,
            }),
          ];
      sendJson(response, 200, { data, page: 1, pageSize: 20, total: isLockedFilter ? 1 : 42 });
    };
  });

  it('lists accounts with roles, status and last sign-in, and turns filters into the query', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/users');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['u-2', 'u-3']);
    expect(within(rows[0]!).getByTestId('user-row-email').textContent).toBe('luis@clinica.example');
    expect(within(rows[0]!).getByTestId('user-row-roles').textContent).toBe('Médico');
    expect(within(rows[0]!).getByTestId('user-status').textContent).toBe('Activo');
    expect(within(rows[1]!).getByTestId('user-status').textContent).toBe('Pendiente');
    expect(within(rows[1]!).getByText('Nunca')).toBeTruthy();
    expect(rows[0]!.textContent).toMatch(/18:45/);
    expect(screen.getByTestId('list-total').textContent).toBe('1–20 de 42');
    expect(api.requestsTo('GET /api/v1/users')[0]!.url).toBe(
      '/api/v1/users?page=1&pageSize=20&sort=name&order=asc',
    );

    await waitFor(() => expect(screen.getByTestId('users-filter-role').textContent).toContain('Médico'));
    await user.selectOptions(screen.getByTestId('users-filter-role'), 'doctor');
    await user.selectOptions(screen.getByTestId('users-filter-status'), 'locked');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/users?role=doctor&status=locked'));
    await waitFor(() =>
      expect(api.requestsTo('GET /api/v1/users').at(-1)!.url).toBe(
        '/api/v1/users?page=1&pageSize=20&sort=name&order=asc&role=doctor&status=locked',
      ),
    );
    const locked = await screen.findByText('Eva Locked');
    expect(within(locked.closest('tr')!).getByTestId('user-status').textContent).toBe('Bloqueado');
    expect(screen.getByTestId('users-export').getAttribute('href')).toBe(
      '/api/v1/users/export.csv?role=doctor&status=locked&sort=name&order=asc',
    );

    await user.click(screen.getByRole('button', { name: /Último acceso/ }));
    await waitFor(() =>
      expect(currentPath(router)).toBe('/admin/users?role=doctor&status=locked&sort=lastSignInAt'),
    );
    await user.type(screen.getByTestId('section-search'), 'eva');
    await waitFor(() =>
      expect(api.requestsTo('GET /api/v1/users').at(-1)!.url).toBe(
        '/api/v1/users?page=1&pageSize=20&sort=lastSignInAt&order=asc&q=eva&role=doctor&status=locked',
      ),
    );
  });

  it('opens a user from the row link', async () => {
    const user = userEvent.setup();
    api.routes['GET /api/v1/users/u-2'] = (_request, response) => sendJson(response, 200, sampleUser());
    const { router } = renderApp('/admin/users');
    const links = await screen.findAllByTestId('list-row-link', {}, slow);
    await user.click(links[0]!);
    await waitFor(() => expect(currentPath(router)).toBe('/admin/users/u-2'));
  });

  it('shows the export but not the invitation to users.read only', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read'] }));
    renderApp('/admin/users');
    await screen.findAllByTestId('list-row', {}, slow);
    expect(screen.getByTestId('users-export')).toBeTruthy();
    expect(screen.queryByTestId('users-invite')).toBeNull();
  });

  it('is refused without users.read or users.manage, and asks the server nothing', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: [] }));
    renderApp('/admin/users');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(api.requestsTo('GET /api/v1/users')).toHaveLength(0);
  });

  it('invites a user: checks the fields, maps server refusals to fields, confirms success', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    api.routes['POST /api/v1/invitations'] = (_request, response) => {
      attempts += 1;
      if (attempts === 1) {
        sendError(response, 409, 'CONFLICT');
      } else if (attempts === 2) {
        sendError(response, 400, 'VALIDATION_FAILED', {
          issues: [{ path: ['name'], message: 'validation.nameTooShort' }],
        });
      } else {
        sendJson(response, 201, { id: 'inv-1', expiresAt: '2026-03-10T00:00:00.000Z' });
      }
    };
    renderApp('/admin/users');
    await user.click(await screen.findByTestId('users-invite', {}, slow));
    const form = await screen.findByTestId('invite-form');
    await user.click(within(form).getByTestId('invite-submit'));
    expect(await within(form).findByText('Escriba una dirección de correo electrónico válida.')).toBeTruthy();
    expect(within(form).getByText('Este campo es obligatorio.')).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/invitations')).toHaveLength(0);

    await user.type(within(form).getByTestId('invite-email'), 'nuevo@clinica.example');
    await user.type(within(form).getByTestId('invite-name'), 'Nuevo Médico');
    await user.selectOptions(within(form).getByTestId('invite-language'), 'en');
    await user.click(within(form).getByTestId('invite-roles'));
    const rolesInput = within(form).getByTestId('invite-roles');
    const rolesList = await waitFor(() =>
      document.getElementById(rolesInput.getAttribute('aria-controls') ?? '')!,
    );
    await user.click(await within(rolesList).findByText('Médico'));
    await user.click(within(form).getByTestId('invite-submit'));
    expect(await within(form).findByText('Ya existe una cuenta con este correo electrónico.')).toBeTruthy();
    expect(JSON.parse(api.requestsTo('POST /api/v1/invitations')[0]!.body.toString())).toEqual({
      email: 'nuevo@clinica.example',
      name: 'Nuevo Médico',
      language: 'en',
      roleKeys: ['doctor'],
    });

    await user.click(within(form).getByTestId('invite-submit'));
    expect(await within(form).findByText('El nombre debe tener al menos 2 caracteres.')).toBeTruthy();

    await user.click(within(form).getByTestId('invite-submit'));
    await waitFor(() =>
      expect(uiState.getState().alert?.content).toBe('Invitación enviada a nuevo@clinica.example.'),
    );
    expect(uiState.getState().alert?.type).toBe('success');
    await waitFor(() => expect(screen.queryByTestId('invite-form')).toBeNull());
  });
});
