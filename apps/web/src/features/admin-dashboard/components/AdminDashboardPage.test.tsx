import type { DashboardResponse } from '@telemedicina/shared/admin';
import { appointmentStatuses } from '@telemedicina/shared/common';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';
import { addDays, todayIn } from '../dashboard-range';

const slow = { timeout: 10_000 };

function emptyDashboard(from: string, to: string): DashboardResponse {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    days.push(day);
  }
  const zeros = Object.fromEntries(appointmentStatuses.map((status) => [status, 0])) as Record<
    (typeof appointmentStatuses)[number],
    number
  >;
  return {
    range: { from, to, timeZone: 'Europe/Madrid' },
    totals: {
      activeUsers: 1,
      patients: 0,
      doctors: 0,
      appointments: 0,
      completed: 0,
      noShows: 0,
      cancelled: 0,
      noShowRate: null,
      averageWaitSeconds: null,
      newPatients: 0,
    },
    appointmentsPerDay: days.map((date) => ({ date, ...zeros })),
    newPatientsPerDay: days.map((date) => ({ date, count: 0 })),
    visitsPerDoctor: [],
  };
}

function busyDashboard(from: string, to: string): DashboardResponse {
  const base = emptyDashboard(from, to);
  base.totals = {
    activeUsers: 1234,
    patients: 1100,
    doctors: 12,
    appointments: 250,
    completed: 180,
    noShows: 20,
    cancelled: 30,
    noShowRate: 0.1,
    averageWaitSeconds: 305,
    newPatients: 42,
  };
  base.appointmentsPerDay[0] = { ...base.appointmentsPerDay[0]!, completed: 5, no_show: 1 };
  base.newPatientsPerDay[1] = { ...base.newPatientsPerDay[1]!, count: 3 };
  base.visitsPerDoctor = [
    { doctorId: 'd-1', name: 'Dra. Ana García', completed: 150, noShows: 12, total: 180 },
  ];
  return base;
}

describe('clinic dashboard against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let build: (from: string, to: string) => DashboardResponse;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    build = emptyDashboard;
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['dashboard.admin'] }));
    api.routes['GET /api/v1/dashboard'] = (request, response) => {
      const url = new URL(request.url, 'http://x');
      sendJson(response, 200, build(url.searchParams.get('from')!, url.searchParams.get('to')!));
    };
  });

  const dashboardUrls = () => api.requestsTo('GET /api/v1/dashboard').map((request) => request.url);

  it('is useful at 0 records: dashes with reasons and sentences instead of empty charts', async () => {
    renderApp('/admin');
    const stats = await screen.findByTestId('dashboard-stats', {}, slow);
    const today = todayIn('Europe/Madrid');
    expect(dashboardUrls()).toEqual([`/api/v1/dashboard?from=${addDays(today, -29)}&to=${today}`]);
    const noShow = within(stats).getByTestId('dashboard-stat-no-show-rate');
    expect(within(noShow).getByTestId('dashboard-stat-value').textContent).toBe('—');
    expect(noShow.textContent).toContain('Aún no hay consultas terminadas');
    expect(within(stats).getByTestId('dashboard-stat-average-wait').textContent).toContain(
      'Nadie pasó por la sala de espera',
    );
    expect(screen.getByTestId('dashboard-appointments-empty').textContent).toBe(
      'No hay citas en este periodo.',
    );
    expect(screen.getByTestId('dashboard-new-patients-empty')).toBeTruthy();
    expect(screen.getByTestId('dashboard-doctors-empty')).toBeTruthy();
    // The access overview of users without the permission is not what an administrator gets.
    expect(screen.queryByTestId('admin-dashboard')).toBeNull();
  });

  it('shows the figures in the reader language and changes the range from the address', async () => {
    const user = userEvent.setup();
    build = busyDashboard;
    const { router } = renderApp('/admin?range=7');
    const stats = await screen.findByTestId('dashboard-stats', {}, slow);
    const value = (key: string) =>
      within(within(stats).getByTestId(`dashboard-stat-${key}`)).getByTestId('dashboard-stat-value')
        .textContent;
    expect(value('appointments')).toBe('250');
    expect(value('active-users')).toBe('1234');
    expect(value('no-show-rate')).toBe('10\u00a0%');
    expect(value('average-wait')).toBe('5:05');
    expect(within(stats).getByTestId('dashboard-stat-active-users').textContent).toContain(
      '12 médicos · 1100 pacientes',
    );
    expect(screen.getByTestId('dashboard-chart-appointments')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-appointments-empty')).toBeNull();
    expect(screen.queryByTestId('dashboard-new-patients-empty')).toBeNull();
    expect(screen.queryByTestId('dashboard-doctors-empty')).toBeNull();
    const today = todayIn('Europe/Madrid');
    expect(dashboardUrls()).toEqual([`/api/v1/dashboard?from=${addDays(today, -6)}&to=${today}`]);

    await user.click(screen.getByRole('radio', { name: '90 días' }));
    await waitFor(() => expect(currentPath(router)).toBe('/admin?range=90'));
    await waitFor(() =>
      expect(dashboardUrls().at(-1)).toBe(`/api/v1/dashboard?from=${addDays(today, -89)}&to=${today}`),
    );
  });

  it('shows the home page, not the clinic dashboard, to users without dashboard.admin', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: [] }));
    renderApp('/admin');
    expect(await screen.findByTestId('home-link-profile', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('clinic-dashboard')).toBeNull();
    expect(api.requestsTo('GET /api/v1/dashboard')).toHaveLength(0);
  });
});
