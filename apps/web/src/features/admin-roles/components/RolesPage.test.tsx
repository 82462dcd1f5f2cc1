import type { Role } from '@telemedicina/shared/admin';
import { permissions } from '@telemedicina/shared/permission-catalogue';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };

function role(overrides: Partial<Role>): Role {
  return {
    id: 'r-x',
    key: 'nursing',
    name: { es: 'Enfermería', en: 'Nursing' },
    system: false,
    permissions: [],
    userCount: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const adminRole = role({
  id: 'r-admin',
  key: 'admin',
  name: { es: 'Administrador', en: 'Administrator' },
  system: true,
  permissions: ['users.read', 'users.manage', 'roles.manage'],
  userCount: 1,
});
const doctorRole = role({
  id: 'r-doctor',
  key: 'doctor',
  name: { es: 'Médico', en: 'Doctor' },
  system: true,
  permissions: ['visits.host', 'records.write'],
  userCount: 3,
});
const auditorRole = role({
  id: 'r-auditor',
  key: 'auditor',
  name: { es: 'Auditoría', en: 'Auditing' },
  permissions: ['audit.read'],
  userCount: 2,
});

describe('roles against a real HTTP server', { timeout: 30_000 }, () => {
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
      sendJson(response, 200, sampleMe({ permissions: ['roles.manage'] }));
    api.routes['GET /api/v1/roles'] = (_request, response) =>
      sendJson(response, 200, {
        data: [adminRole, auditorRole, doctorRole],
        page: 1,
        pageSize: 20,
        total: 3,
      });
    for (const item of [adminRole, doctorRole, auditorRole]) {
      api.routes[`GET /api/v1/roles/${item.id}`] = (_request, response) => sendJson(response, 200, item);
    }
  });

  it('lists roles in the reader language with key, system badge and counts', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['roles.manage'], user: { language: 'en' } }));
    renderApp('/admin/roles', 'en');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(rows.map((row) => within(row).getByTestId('role-row-name').textContent)).toEqual([
      'Administrator',
      'Auditing',
      'Doctor',
    ]);
    expect(within(rows[0]!).getByTestId('role-row-system')).toBeTruthy();
    expect(within(rows[1]!).queryByTestId('role-row-system')).toBeNull();
    expect(within(rows[2]!).getByTestId('role-row-users').textContent).toBe('3');
    expect(rows[1]!.textContent).toContain('auditor');
    expect(api.requestsTo('GET /api/v1/roles')[0]!.url).toBe(
      '/api/v1/roles?page=1&pageSize=20&sort=name&order=asc',
    );
  });

  it('is refused without roles.manage', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read'] }));
    renderApp('/admin/roles/r-doctor');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(api.requestsTo('GET /api/v1/roles/r-doctor')).toHaveLength(0);
  });

  it('creates a role and opens its editor; a taken key is said on the key field', async () => {
    const user = userEvent.setup();
    const created = role({ id: 'r-new', key: 'reception2', name: { es: 'Recepción 2', en: 'Front desk 2' } });
    let attempts = 0;
    api.routes['POST /api/v1/roles'] = (_request, response) => {
      attempts += 1;
      if (attempts === 1) {
        sendError(response, 409, 'ALREADY_EXISTS', { field: 'key' });
      } else {
        sendJson(response, 201, created);
      }
    };
    api.routes['GET /api/v1/roles/r-new'] = (_request, response) => sendJson(response, 200, created);
    const { router } = renderApp('/admin/roles');
    await user.click(await screen.findByTestId('roles-create', {}, slow));
    const form = await screen.findByTestId('role-create-form');
    await user.type(within(form).getByTestId('role-create-key'), 'Bad Key');
    await user.click(within(form).getByTestId('role-create-submit'));
    expect(await within(form).findByText(/La clave debe empezar por una letra minúscula/)).toBeTruthy();
    expect(within(form).getAllByText('El nombre debe tener al menos 2 caracteres.')).toHaveLength(2);

    await user.clear(within(form).getByTestId('role-create-key'));
    await user.type(within(form).getByTestId('role-create-key'), 'reception2');
    await user.type(within(form).getByTestId('role-create-name-es'), 'Recepción 2');
    await user.type(within(form).getByTestId('role-create-name-en'), 'Front desk 2');
    await user.click(within(form).getByTestId('role-create-submit'));
    expect(await within(form).findByText('Ya existe un rol con esta clave.')).toBeTruthy();
    await user.click(within(form).getByTestId('role-create-submit'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/roles/r-new'));
    expect(JSON.parse(api.requestsTo('POST /api/v1/roles')[1]!.body.toString())).toEqual({
      key: 'reception2',
      name: { es: 'Recepción 2', en: 'Front desk 2' },
      permissions: [],
    });
    expect(await screen.findByTestId('role-editor')).toBeTruthy();
  });

  it('edits grants by area with descriptions in the reader language, and saves them', async () => {
    const user = userEvent.setup();
    api.routes['PATCH /api/v1/roles/r-auditor'] = (request, response) =>
      sendJson(response, 200, { ...auditorRole, ...(request.json() as object) });
    renderApp('/admin/roles/r-auditor');
    const area = await screen.findByTestId('role-area-administration', {}, slow);
    expect(within(area).getByRole('heading').textContent).toBe('Administración');
    const usersRead = within(area).getByTestId('role-permission-users.read');
    expect(usersRead.closest('.mantine-Checkbox-root')?.textContent).toContain('Ver usuarios');
    expect(usersRead.closest('.mantine-Checkbox-root')?.textContent).toContain('users.read');
    const selectAll = within(area).getByTestId<HTMLInputElement>('role-area-all-administration');
    expect(selectAll.indeterminate).toBe(true);
    expect(screen.getByTestId('role-save').hasAttribute('disabled')).toBe(true);

    await user.click(usersRead);
    await user.click(within(screen.getByTestId('role-area-messages')).getByTestId('role-area-all-messages'));
    await user.click(screen.getByTestId('role-save'));
    expect(await screen.findByTestId('role-saved')).toBeTruthy();
    expect(JSON.parse(api.requestsTo('PATCH /api/v1/roles/r-auditor')[0]!.body.toString())).toEqual({
      name: { es: 'Auditoría', en: 'Auditing' },
      permissions: ['audit.read', 'users.read', 'messages.send'],
    });

    await user.click(selectAll);
    expect(within(area).getByTestId<HTMLInputElement>('role-permission-outbox.read').checked).toBe(true);
    await user.click(selectAll);
    expect(within(area).getByTestId<HTMLInputElement>('role-permission-audit.read').checked).toBe(false);
  });

  it('keeps system role names read-only and sends only grants for them', async () => {
    const user = userEvent.setup();
    api.routes['PATCH /api/v1/roles/r-doctor'] = (_request, response) => sendJson(response, 200, doctorRole);
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['roles.manage'], user: { language: 'en' } }));
    renderApp('/admin/roles/r-doctor', 'en');
    const nameEs = await screen.findByTestId<HTMLInputElement>('role-name-es', {}, slow);
    expect(nameEs.readOnly).toBe(true);
    expect(screen.getByTestId('role-names-locked')).toBeTruthy();
    expect(screen.queryByTestId('role-delete')).toBeNull();
    const label = screen.getByTestId('role-permission-visits.host').closest('.mantine-Checkbox-root');
    expect(label?.textContent).toContain('Host video visits and admit patients');
    await user.click(screen.getByTestId('role-permission-prescriptions.write'));
    await user.click(screen.getByTestId('role-save'));
    await waitFor(() => expect(api.requestsTo('PATCH /api/v1/roles/r-doctor')).toHaveLength(1));
    expect(JSON.parse(api.requestsTo('PATCH /api/v1/roles/r-doctor')[0]!.body.toString())).toEqual({
      permissions: ['visits.host', 'records.write', 'prescriptions.write'],
    });
  });

  it('shows the administrator role read-only', async () => {
    renderApp('/admin/roles/r-admin');
    expect(await screen.findByTestId('role-grants-locked', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('role-save')).toBeNull();
    for (const name of permissions) {
      expect(screen.getByTestId(`role-permission-${name}`).hasAttribute('disabled')).toBe(true);
    }
  });

  it('explains ROLE_IN_USE when deleting, and deletes a free role', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    api.routes['DELETE /api/v1/roles/r-auditor'] = (_request, response) => {
      attempts += 1;
      if (attempts === 1) {
        sendError(response, 409, 'ROLE_IN_USE', { userCount: 2 });
      } else {
        response.writeHead(204).end();
      }
    };
    const { router } = renderApp('/admin/roles/r-auditor');
    await user.click(await screen.findByTestId('role-delete', {}, slow));
    const dialog = await screen.findByTestId('role-delete-dialog');
    await user.click(within(dialog).getByTestId('role-delete-dialog-confirm'));
    expect((await within(dialog).findByTestId('role-delete-dialog-error')).textContent).toBe(
      'No se puede eliminar: hay usuarios con este rol (2). Quíteselo a todos en la sección Usuarios y vuelva a intentarlo.',
    );
    await user.click(within(dialog).getByTestId('role-delete-dialog-confirm'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/roles'));
  });

  it('asks before leaving with unsaved changes', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/roles/r-auditor');
    await user.click(await screen.findByTestId('role-permission-outbox.read', {}, slow));
    await user.click(screen.getByTestId('role-back'));
    const dialog = await screen.findByTestId('role-leave-dialog');
    expect(currentPath(router)).toBe('/admin/roles/r-auditor');
    await user.click(within(dialog).getByTestId('role-leave-dialog-confirm'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/roles'));
  });
});
