import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment } from '@telemedicina/shared/appointment';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';
import { startBootUpcoming, takeBootUpcoming } from '../api/boot-upcoming';

const slow = { timeout: 20_000 };
/**
 * Patients (the patient role's permissions only) live in the portal (`/portal`, features/portal)
 * and never see this page: the patient-like people here also hold one permission beyond that role
 * (a custom role that books for itself and registers patients), so they keep the admin frame.
 */
const portalless = 'patients.register';
const minute = 60_000;

function sample(overrides: Partial<Appointment> & { inMinutes: number }): Appointment {
  const { inMinutes, ...rest } = overrides;
  const startsAt = new Date(Date.now() + inMinutes * minute);
  return {
    id: 'a-1',
    doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz', timeZone: 'Europe/Madrid' },
    patient: { id: 'pat-1', name: 'Luis García' },
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 30 * minute).toISOString(),
    status: 'confirmed',
    reason: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
    ...rest,
  };
}

describe('home page (/admin) for patients, doctors and staff', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  let appointments: Appointment[];

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
    appointments = [];
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 200, { data: appointments, page: 1, pageSize: 20, total: appointments.length });
  });

  function signIn(permissions: string[], userId: string) {
    const me = sampleMe({
      permissions,
      user: { id: userId, name: 'Luis García', timeZone: 'Europe/Madrid' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
  }

  it('greets the patient, lists the next visits (join once check-in opens) and offers their sections only', async () => {
    const user = userEvent.setup();
    signIn(
      ['appointments.read.own', 'appointments.book.self', 'doctors.read', 'records.read.own', portalless],
      'pat-1',
    );
    appointments = [
      sample({ id: 'soon', inMinutes: 10 }),
      sample({ id: 'cancelled', inMinutes: 20, status: 'cancelled' }),
      sample({ id: 'later', inMinutes: 3 * 24 * 60, status: 'requested' }),
    ];
    const { router } = renderApp('/admin');
    const items = await screen.findAllByTestId('home-upcoming-item', {}, slow);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Hola, Luis García');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Con Dra. Carmen Ruiz');
    expect(items[0]!.textContent).toContain('dentro de 10 minutos');
    expect(within(items[0]!).getByTestId('home-upcoming-join').getAttribute('href')).toBe(
      '/admin/visits/soon',
    );
    expect(within(items[1]!).queryByTestId('home-upcoming-join')).toBeNull();
    expect(within(items[1]!).getByTestId('home-upcoming-open').getAttribute('href')).toBe(
      '/admin/appointments/later',
    );
    expect(within(items[1]!).getByTestId('appointment-status').textContent).toBe('Solicitada');
    const asked = new URL(api.requestsTo('GET /api/v1/appointments')[0]!.url, 'http://x').searchParams;
    expect([asked.get('order'), asked.get('sort'), asked.get('from') !== null]).toEqual([
      'asc',
      'startsAt',
      true,
    ]);

    const shortcuts = within(screen.getByTestId('home-shortcuts'))
      .getAllByRole('link')
      .map((link) => link.getAttribute('data-testid'));
    expect(shortcuts).toEqual([
      'home-link-doctors',
      'home-link-appointments',
      'home-link-myRecord',
      'home-link-profile',
    ]);
    await user.click(screen.getByTestId('home-link-myRecord'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/my-record'));
  });

  it('announces the list while it loads as a named status region (axe: a label needs a role)', async () => {
    signIn(['appointments.read.own', portalless], 'pat-1');
    const held: (() => void)[] = [];
    api.routes['GET /api/v1/appointments'] = (_request, response) => {
      held.push(() => sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 }));
    };
    const answer = () => held.splice(0).forEach((send) => send());
    renderApp('/admin');
    const loading = await screen.findByRole('status', { name: 'Cargando sus próximas citas…' }, slow);
    expect(loading.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(held.length).toBeGreaterThan(0), slow);
    answer();
    await screen.findByTestId('home-upcoming-empty', {}, slow);
    expect(screen.queryByRole('status', { name: 'Cargando sus próximas citas…' })).toBeNull();
  });

  it('offers booking when nothing is ahead', async () => {
    signIn(['appointments.read.own', 'appointments.book.self', 'doctors.read', portalless], 'pat-1');
    appointments = [sample({ id: 'past', inMinutes: -90, status: 'completed' })];
    renderApp('/admin');
    const empty = await screen.findByTestId('home-upcoming-empty', {}, slow);
    expect(within(empty).getByRole('link', { name: 'Reservar una cita' }).getAttribute('href')).toBe(
      '/admin/doctors',
    );
  });

  it('shows the doctor whom they see, and staff both people', async () => {
    signIn(['appointments.read.own', 'visits.host'], 'doc-1');
    appointments = [sample({ id: 'a', inMinutes: 60 })];
    renderApp('/admin');
    expect((await screen.findByTestId('home-upcoming-item', {}, slow)).textContent).toContain(
      'Paciente: Luis García',
    );
    expect(screen.queryByRole('link', { name: 'Reservar una cita' })).toBeNull();

    signIn(['appointments.read.any'], 'staff-1');
    renderApp('/admin');
    await waitFor(() =>
      expect(screen.getAllByTestId('home-upcoming-item').at(-1)!.textContent).toContain(
        'Luis García con Dra. Carmen Ruiz',
      ),
    );
  });

  it('words the home for the person reading it: booking for the patient, the day for the doctor and reception', async () => {
    const description = () => screen.getByRole('heading', { level: 1 }).nextElementSibling?.textContent;
    const shortcut = (key: string) => screen.getByTestId(`home-link-${key}`).textContent;

    signIn(['appointments.read.own', 'appointments.book.self', 'doctors.read', portalless], 'pat-1');
    const patient = renderApp('/admin');
    await screen.findByTestId('home-link-doctors', {}, slow);
    expect(description()).toBe('Sus próximas citas y accesos directos a lo que puede hacer aquí.');
    expect(shortcut('doctors')).toContain('Busque un médico y reserve una cita.');
    patient.unmount();

    signIn(['appointments.read.own', 'visits.host', 'doctors.read', 'records.read'], 'doc-1');
    const doctor = renderApp('/admin');
    await screen.findByTestId('home-link-doctors', {}, slow);
    expect(description()).toBe('Su día de consultas: las próximas, la sala de espera y su agenda.');
    expect(shortcut('doctors')).not.toContain('reserve una cita');
    expect(shortcut('doctors')).toContain('Los médicos de la clínica y sus horarios.');
    expect(shortcut('appointments')).toContain('Las citas con sus pacientes, próximas y pasadas.');
    doctor.unmount();

    // Staff who read the clinic's appointments without booking them (reception, who books, lands on
    // the clinic's day instead: HomeRoute, e2e/reception.e2e.ts).
    signIn(['appointments.read.any', 'doctors.read'], 'staff-1');
    renderApp('/admin', 'en');
    await screen.findByTestId('home-link-doctors', {}, slow);
    expect(description()).toBe("The clinic's appointments of the day, and booking for a patient.");
    expect(shortcut('doctors')).toContain('Find a doctor and book an appointment for a patient.');
    expect(shortcut('appointments')).toContain("The clinic's appointments, upcoming and past.");
  });

  it('says so when the list cannot be read, and shows no list to a role without appointments', async () => {
    signIn(['appointments.read.any'], 'staff-1');
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'down' } });
    renderApp('/admin');
    expect((await screen.findByTestId('home-upcoming-error', {}, slow)).textContent).not.toBe('');

    api.reset();
    signIn([], 'nobody');
    renderApp('/admin');
    await screen.findByTestId('home-link-profile', {}, slow);
    expect(screen.queryByTestId('home-upcoming')).toBeNull();
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);
  });

  describe('the list asked for as the page boots (main.tsx)', () => {
    beforeEach(() => {
      takeBootUpcoming();
    });

    it('is drawn from the boot answer at once, without asking again', async () => {
      const permissions = ['appointments.read.own', 'appointments.book.self', portalless];
      signIn(permissions, 'pat-1');
      appointments = [sample({ id: 'soon', inMinutes: 60 })];
      startBootUpcoming(sampleMe({ permissions }));
      await waitFor(() => expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(1), slow);
      // Let the answer arrive before the page renders.
      await new Promise((resolve) => setTimeout(resolve, 50));
      renderApp('/admin');
      // The page's first render already has the list: no loading placeholder beside the heading.
      await screen.findByRole('heading', { level: 1 }, slow);
      expect(screen.getAllByTestId('home-upcoming-item')).toHaveLength(1);
      expect(screen.queryByLabelText('Cargando sus próximas citas…')).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(1);
    });

    it('waits for the boot request still on its way instead of asking twice', async () => {
      const permissions = ['appointments.read.own', portalless];
      signIn(permissions, 'pat-1');
      appointments = [sample({ id: 'soon', inMinutes: 60 })];
      let answer: (() => void) | undefined;
      api.routes['GET /api/v1/appointments'] = (_request, response) => {
        answer = () =>
          sendJson(response, 200, { data: appointments, page: 1, pageSize: 20, total: appointments.length });
      };
      startBootUpcoming(sampleMe({ permissions }));
      renderApp('/admin');
      await waitFor(() => expect(answer).toBeDefined(), slow);
      answer!();
      expect(await screen.findAllByTestId('home-upcoming-item', {}, slow)).toHaveLength(1);
      expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(1);
    });

    it('is not asked for a clinic administrator (the dashboard) nor a role without appointments', () => {
      startBootUpcoming(sampleMe({ permissions: ['dashboard.admin', 'appointments.read.any'] }));
      expect(takeBootUpcoming()).toBeNull();
      startBootUpcoming(sampleMe({ permissions: ['doctors.read'] }));
      expect(takeBootUpcoming()).toBeNull();
    });
  });
});
