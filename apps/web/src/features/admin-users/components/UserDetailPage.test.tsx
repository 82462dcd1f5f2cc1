import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';
import { sampleRoles, sampleUser } from '../test-fixtures';

const slow = { timeout: 10_000 };

describe('user detail against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read', 'users.manage', 'audit.read'] }));
    api.routes['GET /api/v1/roles'] = (_request, response) =>
      sendJson(response, 200, { data: sampleRoles, page: 1, pageSize: 100, total: 2 });
    api.routes['GET /api/v1/users/u-2'] = (_request, response) => sendJson(response, 200, sampleUser());
  });

  it('shows the profile, the audit trail link and the actions that apply', async () => {
    api.routes['GET /api/v1/users/u-2'] = (_request, response) =>
      sendJson(
        response,
        200,
        sampleUser({ mfaEnabled: true, lockedUntil: new Date(Date.now() + 600_000).toISOString() }),
      );
    renderApp('/admin/users/u-2');
    const profile = await screen.findByTestId('user-profile', {}, slow);
    expect(within(profile).getByTestId('user-email').textContent).toBe('luis@clinica.example');
    expect(within(profile).getByTestId('user-status').textContent).toBe('Bloqueado');
    expect(within(profile).getByTestId('user-mfa').textContent).toBe('Activada');
    expect(within(profile).getByText('LG')).toBeTruthy();
    expect(within(profile).getByTestId('user-audit-link').getAttribute('href')).toBe(
      '/admin/audit?targetId=u-2',
    );
    const actions = screen.getByTestId('user-actions');
    expect(within(actions).getByTestId('user-action-unlock')).toBeTruthy();
    expect(within(actions).getByTestId('user-action-resetMfa')).toBeTruthy();
    expect(within(actions).getByTestId('user-action-disable')).toBeTruthy();
    expect(within(actions).queryByTestId('user-action-enable')).toBeNull();
  });

  it('offers neither unlock nor MFA reset when they do not apply, and is read-only with users.read', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read'] }));
    renderApp('/admin/users/u-2');
    await screen.findByTestId('user-profile', {}, slow);
    expect(screen.queryByTestId('user-actions')).toBeNull();
    expect(screen.queryByTestId('user-audit-link')).toBeNull();
    expect(screen.queryByTestId('user-roles-save')).toBeNull();
    expect(screen.queryByTestId('user-edit-save')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('user-role-doctor').hasAttribute('disabled')).toBe(true));
  });

  it('disables an account after confirmation and explains a refusal inside the dialog', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    api.routes['POST /api/v1/users/u-2/disable'] = (_request, response) => {
      attempts += 1;
      if (attempts === 1) {
        sendError(response, 409, 'LAST_ADMIN');
      } else {
        response.writeHead(204).end();
      }
    };
    renderApp('/admin/users/u-2');
    await user.click(await screen.findByTestId('user-action-disable', {}, slow));
    const dialog = await screen.findByTestId('user-action-dialog');
    expect(dialog.textContent).toContain('Luis Gómez no podrá iniciar sesión');
    await user.click(within(dialog).getByTestId('user-action-dialog-confirm'));
    expect((await within(dialog).findByTestId('user-action-dialog-error')).textContent).toBe(
      'No se puede quitar el rol de administrador a la última persona que lo tiene.',
    );
    api.routes['GET /api/v1/users/u-2'] = (_request, response) =>
      sendJson(response, 200, sampleUser({ status: 'disabled', disabledAt: '2026-03-03T10:00:00.000Z' }));
    await user.click(within(dialog).getByTestId('user-action-dialog-confirm'));
    expect((await screen.findByTestId('user-action-done')).textContent).toBe(
      'Cuenta desactivada. Sus sesiones se cerraron.',
    );
    expect(await screen.findByTestId('user-action-enable')).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/users/u-2/disable')).toHaveLength(2);
  });

  it('saves roles with PUT and shows LAST_ADMIN and CANNOT_CHANGE_SELF clearly', async () => {
    const user = userEvent.setup();
    const answers = ['LAST_ADMIN', 'CANNOT_CHANGE_SELF', null];
    api.routes['PUT /api/v1/users/u-2/roles'] = (_request, response) => {
      const code = answers.shift();
      if (code) {
        sendError(response, 409, code);
      } else {
        response.writeHead(204).end();
      }
    };
    renderApp('/admin/users/u-2');
    const admin = await screen.findByTestId('user-role-admin', {}, slow);
    expect(screen.getByTestId('user-roles-save').hasAttribute('disabled')).toBe(true);
    await user.click(admin);
    await user.click(screen.getByTestId('user-roles-save'));
    const error = await screen.findByTestId('user-roles-error');
    expect(error.textContent).toContain(
      'No se puede quitar el rol de administrador a la última persona que lo tiene.',
    );
    expect(JSON.parse(api.requestsTo('PUT /api/v1/users/u-2/roles')[0]!.body.toString())).toEqual({
      roleKeys: ['doctor', 'admin'],
    });

    await user.click(screen.getByTestId('user-roles-save'));
    await waitFor(() =>
      expect(screen.getByTestId('user-roles-error').textContent).toContain(
        'No puede quitarse a sí mismo el rol de Administrador',
      ),
    );
    await user.click(screen.getByTestId('user-roles-save'));
    expect(await screen.findByTestId('user-roles-saved')).toBeTruthy();
    expect(screen.queryByTestId('user-roles-error')).toBeNull();
  });

  it('edits the profile and puts server validation issues beside the fields', async () => {
    const user = userEvent.setup();
    let calls = 0;
    api.routes['PATCH /api/v1/users/u-2'] = (request, response) => {
      calls += 1;
      if (calls === 1) {
        sendError(response, 400, 'VALIDATION_FAILED', {
          issues: [{ path: ['phone'], message: 'validation.phone' }],
        });
      } else {
        sendJson(response, 200, sampleUser(request.json() as object));
      }
    };
    renderApp('/admin/users/u-2');
    const name = await screen.findByTestId('user-edit-name', {}, slow);
    await user.clear(name);
    await user.type(name, 'Luis Gómez Sanz');
    await user.type(screen.getByTestId('user-edit-phone'), '+34 600 000 000');
    await user.click(screen.getByTestId('user-edit-save'));
    expect(await screen.findByText(/Escriba un teléfono válido/)).toBeTruthy();
    await user.click(screen.getByTestId('user-edit-save'));
    expect(await screen.findByTestId('user-edit-saved')).toBeTruthy();
    expect(JSON.parse(api.requestsTo('PATCH /api/v1/users/u-2')[1]!.body.toString())).toEqual({
      name: 'Luis Gómez Sanz',
      phone: '+34 600 000 000',
      language: 'es',
      timeZone: 'Europe/Madrid',
    });
  });

  it('says clearly when the user does not exist', async () => {
    api.routes['GET /api/v1/users/nope'] = (_request, response) => sendError(response, 404, 'NOT_FOUND');
    renderApp('/admin/users/nope');
    expect((await screen.findByTestId('user-not-found', {}, slow)).textContent).toContain(
      'Usuario no encontrado',
    );
  });
});
