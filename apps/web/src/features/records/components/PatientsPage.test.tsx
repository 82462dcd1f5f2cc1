import { screen, within } from '@testing-library/react';
import type { PatientSummary } from '@telemedicina/shared/records';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };

const carla: PatientSummary = {
  id: '6f1c2c1e-2b1a-4c3d-9e8f-0a1b2c3d4e5f',
  name: 'Carla Futura',
  email: 'carla@example.test',
  phone: null,
  dateOfBirth: null,
  lastVisitAt: '2026-04-20T10:00:00.000Z',
  nextVisitAt: '2026-05-10T10:00:00.000Z',
};

describe("the doctor's patients list", { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  beforeAll(async () => {
    restoreMatchMedia = matchEmptyMediaQuery();
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
    const me = sampleMe({
      permissions: ['records.read'],
      user: { id: 'doc-1', name: 'Dra. Ruiz', timeZone: 'Europe/Madrid' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes['GET /api/v1/patients'] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          carla,
          { ...carla, id: '7f1c2c1e-2b1a-4c3d-9e8f-0a1b2c3d4e5f', name: 'Diego Nuevo', lastVisitAt: null },
        ],
        page: 1,
        pageSize: 20,
        total: 2,
      });
  });
  afterAll(async () => {
    restoreMatchMedia();
    await api.close();
  });

  it('shows the last past visit and the next visit in their own columns', async () => {
    renderApp('/admin/patients');
    const table = await screen.findByTestId('patients-table', {}, slow);
    await within(table).findAllByTestId('patient-row-name', {}, slow);
    expect(within(table).getByRole('columnheader', { name: 'Última consulta' })).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: 'Próxima consulta' })).toBeTruthy();
    const last = within(table)
      .getAllByTestId('patient-row-last-visit')
      .map((cell) => cell.textContent);
    const next = within(table)
      .getAllByTestId('patient-row-next-visit')
      .map((cell) => cell.textContent);
    expect(last[0]).toMatch(/20 abr 2026/);
    expect(next[0]).toMatch(/10 may 2026/);
    expect(last[1]).toBe('—');
    expect(next[1]).toMatch(/10 may 2026/);
  });
});
