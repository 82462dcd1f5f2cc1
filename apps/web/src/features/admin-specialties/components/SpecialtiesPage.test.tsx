import type { Specialty } from '@telemedicina/shared/admin';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };

const cardiology: Specialty = {
  id: 's-1',
  name: { es: 'Cardiología', en: 'Cardiology' },
  active: true,
  doctorCount: 4,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const dermatology: Specialty = {
  id: 's-2',
  name: { es: 'Dermatología', en: 'Dermatology' },
  active: false,
  doctorCount: 0,
  createdAt: '2026-01-02T00:00:00.000Z',
};

describe('specialties against a real HTTP server', { timeout: 30_000 }, () => {
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
      sendJson(response, 200, sampleMe({ permissions: ['specialties.manage'] }));
    api.routes['GET /api/v1/specialties'] = (_request, response) =>
      sendJson(response, 200, { data: [cardiology, dermatology], page: 1, pageSize: 20, total: 2 });
  });

  it('lists both names, the active state and doctors; filters and sorts through the query', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/specialties');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(within(rows[0]!).getByTestId('specialty-row-name-es').textContent).toBe('Cardiología');
    expect(within(rows[0]!).getByTestId('specialty-row-name-en').textContent).toBe('Cardiology');
    expect(within(rows[0]!).getByTestId('specialty-row-active').textContent).toBe('Activa');
    expect(within(rows[1]!).getByTestId('specialty-row-active').textContent).toBe('Inactiva');
    expect(within(rows[0]!).getByTestId('specialty-row-doctors').textContent).toBe('4');
    expect(api.requestsTo('GET /api/v1/specialties')[0]!.url).toBe(
      '/api/v1/specialties?page=1&pageSize=20&order=asc&sort=name&language=es',
    );

    await user.selectOptions(screen.getByTestId('specialties-filter-active'), 'false');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/specialties?active=false'));
    await user.click(screen.getByRole('button', { name: /Nombre en inglés/ }));
    await waitFor(() =>
      expect(api.requestsTo('GET /api/v1/specialties').at(-1)!.url).toBe(
        '/api/v1/specialties?page=1&pageSize=20&order=asc&active=false&sort=name&language=en',
      ),
    );
    await user.click(screen.getByRole('button', { name: /Médicos/ }));
    await waitFor(() =>
      expect(api.requestsTo('GET /api/v1/specialties').at(-1)!.url).toBe(
        '/api/v1/specialties?page=1&pageSize=20&order=asc&active=false&sort=doctorCount',
      ),
    );
  });

  it('is refused without specialties.manage', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read'] }));
    renderApp('/admin/specialties');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(api.requestsTo('GET /api/v1/specialties')).toHaveLength(0);
  });

  it('creates a specialty; a name already used is said on that field', async () => {
    const user = userEvent.setup();
    let attempts = 0;
    api.routes['POST /api/v1/specialties'] = (_request, response) => {
      attempts += 1;
      if (attempts === 1) {
        sendError(response, 409, 'ALREADY_EXISTS', { fields: ['name.en'] });
      } else {
        sendJson(response, 201, { ...dermatology, id: 's-3', name: { es: 'Pediatría', en: 'Paediatrics' } });
      }
    };
    renderApp('/admin/specialties');
    await user.click(await screen.findByTestId('specialties-create', {}, slow));
    const form = await screen.findByTestId('specialty-form');
    await user.type(within(form).getByTestId('specialty-name-es'), 'Pediatría');
    await user.type(within(form).getByTestId('specialty-name-en'), 'Cardiology');
    await user.click(within(form).getByTestId('specialty-save'));
    expect(await within(form).findByText('Ya existe una especialidad con este nombre.')).toBeTruthy();
    expect(within(form).getByTestId('specialty-name-en').getAttribute('aria-invalid')).toBe('true');
    expect(within(form).getByTestId('specialty-name-es').getAttribute('aria-invalid')).not.toBe('true');
    await user.clear(within(form).getByTestId('specialty-name-en'));
    await user.type(within(form).getByTestId('specialty-name-en'), 'Paediatrics');
    await user.click(within(form).getByTestId('specialty-save'));
    await waitFor(() => expect(screen.queryByTestId('specialty-form')).toBeNull());
    expect(JSON.parse(api.requestsTo('POST /api/v1/specialties')[1]!.body.toString())).toEqual({
      name: { es: 'Pediatría', en: 'Paediatrics' },
      active: true,
    });
  });

  it('edits from the row, and offers to deactivate a specialty doctors still have instead of deleting it', async () => {
    const user = userEvent.setup();
    api.routes['DELETE /api/v1/specialties/s-1'] = (_request, response) =>
      sendError(response, 409, 'SPECIALTY_IN_USE', { doctorCount: 4 });
    api.routes['PATCH /api/v1/specialties/s-1'] = (request, response) =>
      sendJson(response, 200, { ...cardiology, ...(request.json() as object) });
    const { router } = renderApp('/admin/specialties');
    await user.click((await screen.findAllByTestId('list-row-link', {}, slow))[0]!);
    await waitFor(() => expect(currentPath(router)).toBe('/admin/specialties?edit=s-1'));
    const form = await screen.findByTestId('specialty-form');
    expect(within(form).getByTestId<HTMLInputElement>('specialty-name-es').value).toBe('Cardiología');
    await user.click(within(form).getByTestId('specialty-delete'));
    const confirm = await screen.findByTestId('specialty-delete-confirm');
    await user.click(within(confirm).getByTestId('specialty-delete-confirm-button'));
    const error = await within(confirm).findByTestId('specialty-delete-error');
    expect(error.textContent).toContain('hay médicos con esta especialidad (4)');
    await user.click(within(error).getByTestId('specialty-deactivate-instead'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/specialties'));
    expect(JSON.parse(api.requestsTo('PATCH /api/v1/specialties/s-1')[0]!.body.toString())).toEqual({
      active: false,
    });
  });
});
