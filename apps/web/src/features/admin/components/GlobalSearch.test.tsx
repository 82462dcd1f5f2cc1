import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';
import { hasSearchHits, searchHitPath } from './GlobalSearch';

const slow = { timeout: 10_000 };

const adminAnswer = {
  users: [
    {
      id: 'u-ana',
      name: 'Ana García',
      email: 'ana@clinica.example',
      roles: [{ id: 'r-1', key: 'doctor', name: { es: 'Médico', en: 'Doctor' } }],
    },
  ],
  patients: [{ id: 'p-luis', name: 'Luis García', email: 'luis@correo.example' }],
  appointments: [
    {
      id: 'a-1',
      startsAt: '2026-03-02T09:30:00.000Z',
      status: 'confirmed',
      doctorName: 'Ana García',
      patientName: 'Luis García',
    },
  ],
};

describe('searchHitPath', () => {
  it('sends users and patients to the user page and appointments to their page', () => {
    expect(searchHitPath('user:u-1')).toBe('/admin/users/u-1');
    expect(searchHitPath('patient:p 2')).toBe('/admin/users/p%202');
    expect(searchHitPath('appointment:a-1')).toBe('/admin/appointments/a-1');
    expect(searchHitPath('user')).toBeNull();
  });

  it('counts hits only in the groups present', () => {
    expect(hasSearchHits({})).toBe(false);
    expect(hasSearchHits({ users: [], patients: [] })).toBe(false);
    expect(hasSearchHits({ patients: [{ id: 'p', name: 'P', email: 'p@x' }] })).toBe(true);
  });
});

describe('global search against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let answer: Record<string, unknown>;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    answer = adminAnswer;
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['users.read'] }));
    api.routes['GET /api/v1/search'] = (_request, response) => sendJson(response, 200, answer);
  });

  const searchUrls = () => api.requestsTo('GET /api/v1/search').map((request) => request.url);

  it('waits for two characters and a pause, then lists the groups and opens a hit with the keyboard', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin');
    const box = await screen.findByTestId('global-search', {}, slow);
    await user.type(box, 'g');
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(searchUrls()).toEqual([]);

    await user.type(box, 'ar');
    await waitFor(() => expect(searchUrls()).toEqual(['/api/v1/search?q=gar']));
    const results = await screen.findByTestId('global-search-results');
    const users = await within(results).findByTestId('global-search-group-users');
    expect(within(users).getByText('Ana García')).toBeTruthy();
    expect(within(users).getByText('Médico')).toBeTruthy();
    expect(within(results).getByTestId('global-search-group-patients').textContent).toContain(
      'luis@correo.example',
    );
    const appointments = within(results).getByTestId('global-search-group-appointments');
    expect(appointments.textContent).toContain('Ana García con Luis García');
    expect(appointments.textContent).toContain('Confirmada');
    // Appointment hits are options too, leading to the appointment's page.
    expect(within(appointments).queryAllByRole('option')).toHaveLength(1);

    // The first hit is selected; ArrowDown moves to the patient, Enter opens it.
    const options = within(results).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      expect.stringContaining('Ana García'),
      expect.stringContaining('Luis García'),
      expect.stringContaining('Ana García con Luis García'),
    ]);
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(options[1]!.hasAttribute('data-combobox-selected')).toBe(true));
    expect(options[0]!.hasAttribute('data-combobox-selected')).toBe(false);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/users/p-luis'));
  });

  it('closes with Escape and says when nothing matched', async () => {
    const user = userEvent.setup();
    answer = { users: [], patients: [] };
    renderApp('/admin');
    const box = await screen.findByTestId('global-search', {}, slow);
    await user.type(box, 'zzz');
    expect((await screen.findByTestId('global-search-empty', {}, slow)).textContent).toBe(
      'No se encontró nada para «zzz».',
    );
    const isListShown = () => {
      const list = screen.queryByTestId('global-search-results');
      return list !== null && list.style.display !== 'none';
    };
    expect(isListShown()).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(isListShown()).toBe(false));
    expect((box as HTMLInputElement).value).toBe('zzz');
  });

  it('shows only the groups the server returned (a patient sees no Users group)', async () => {
    const user = userEvent.setup();
    answer = {
      appointments: [
        {
          id: 'a-2',
          startsAt: '2026-03-04T10:00:00.000Z',
          status: 'completed',
          doctorName: 'Ana García',
          patientName: 'Yo',
        },
      ],
    };
    renderApp('/admin');
    await user.type(await screen.findByTestId('global-search', {}, slow), 'ana');
    const results = await screen.findByTestId('global-search-results');
    expect(await within(results).findByTestId('global-search-group-appointments')).toBeTruthy();
    expect(within(results).queryByTestId('global-search-group-users')).toBeNull();
    expect(within(results).queryByTestId('global-search-group-patients')).toBeNull();
    expect(within(results).queryByText('Usuarios')).toBeNull();
  });
});
