import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment } from '@telemedicina/shared/appointment';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };

function sample(overrides: Partial<Appointment> = {}): Appointment {
  return {
    id: 'a-1',
    doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz', timeZone: 'Europe/Madrid' },
    patient: { id: 'pat-1', name: 'Luis García' },
    startsAt: '2030-03-04T09:00:00.000Z',
    endsAt: '2030-03-04T09:30:00.000Z',
    status: 'confirmed',
    reason: 'Revisión anual',
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
    ...overrides,
  };
}

describe('appointments list against a real HTTP server', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  let me: ReturnType<typeof sampleMe>;

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
    me = sampleMe({
      permissions: ['appointments.read.own', 'appointments.book.self'],
      user: { id: 'pat-1', timeZone: 'Europe/Madrid' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 200, {
        data: [sample(), sample({ id: 'a-2', status: 'requested', reason: null })],
        page: 1,
        pageSize: 20,
        total: 2,
      });
  });

  it('lists upcoming appointments first, then past ones most recent first, filtered by status', async () => {
    const user = userEvent.setup();
    // A patient's list lives in the portal (an old /admin/appointments link leads there too).
    const { router } = renderApp('/portal/appointments');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['a-1', 'a-2']);
    // A patient sees the doctor; times in the viewer's zone.
    expect(within(rows[0]!).getByTestId('appointment-row-person').textContent).toBe('Dra. Carmen Ruiz');
    expect(within(rows[0]!).getByTestId('appointment-row-when').textContent).toMatch(/10:00/);
    expect(within(rows[1]!).getByTestId('appointment-status').textContent).toBe('Solicitada');
    const first = new URL(api.requestsTo('GET /api/v1/appointments')[0]!.url, 'http://x').searchParams;
    expect(first.get('order')).toBe('asc');
    expect(first.get('from')).not.toBeNull();
    expect(first.get('to')).toBeNull();

    await user.click(screen.getByText('Pasadas'));
    await waitFor(() => expect(currentPath(router)).toBe('/portal/appointments?period=past'));
    await waitFor(() => {
      const last = new URL(api.requestsTo('GET /api/v1/appointments').at(-1)!.url, 'http://x').searchParams;
      expect([last.get('order'), last.get('from'), last.get('to') !== null]).toEqual(['desc', null, true]);
    });

    await user.selectOptions(screen.getByTestId('appointments-filter-status'), 'cancelled');
    await waitFor(() =>
      expect(
        new URL(api.requestsTo('GET /api/v1/appointments').at(-1)!.url, 'http://x').searchParams.get(
          'status',
        ),
      ).toBe('cancelled'),
    );

    await user.click(within(screen.getAllByTestId('list-row')[0]!).getByTestId('list-row-link'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/appointments/a-1'));
  });

  it('shows staff "reserved for the doctor" where the server withholds a reason, a dash where there is none', async () => {
    me = sampleMe({ permissions: ['appointments.read.any'], user: { id: 'staff-1' } });
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          sample({ reason: null, isReasonWithheld: true }),
          sample({ id: 'a-2', reason: null, isReasonWithheld: false }),
        ],
        page: 1,
        pageSize: 20,
        total: 2,
      });
    renderApp('/admin/appointments');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(within(rows[0]!).getByTestId('appointment-reason-withheld').textContent).toBe(
      'Reservado al médico',
    );
    expect(within(rows[1]!).queryByTestId('appointment-reason-withheld')).toBeNull();
    expect(rows[1]!.textContent).toContain('—');
    expect(rows.map((row) => row.textContent).join(' ')).not.toMatch(/undefined|null/);
  });

  it('shows its doctor the patient', async () => {
    me = sampleMe({ permissions: ['appointments.read.own'], user: { id: 'doc-1' } });
    renderApp('/admin/appointments');
    const rows = await screen.findAllByTestId('list-row', {}, slow);
    expect(within(rows[0]!).getByTestId('appointment-row-person').textContent).toBe('Luis García');
  });
  it('lets staff filter by doctor, dates (in their zone) and search by name, all in the address', async () => {
    const user = userEvent.setup();
    const doctorId = '0b7d8a52-57a8-4f2e-9a34-0d7a3f3c1c11';
    me = sampleMe({
      permissions: ['appointments.read.any'],
      user: { id: 'staff-1', timeZone: 'Europe/Madrid' },
    });
    api.routes['GET /api/v1/doctors'] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          {
            id: doctorId,
            name: 'Dra. Carmen Ruiz',
            photoUrl: null,
            specialties: [],
            languages: ['es'],
            visitMinutes: 30,
            acceptsNewPatients: true,
            timeZone: 'Europe/Madrid',
            nextSlots: [],
          },
        ],
        page: 1,
        pageSize: 100,
        total: 1,
      });
    const { router } = renderApp(
      `/admin/appointments?doctorId=${doctorId}&from=2030-03-01&to=2030-03-07&period=all`,
    );
    await screen.findAllByTestId('list-row', {}, slow);
    const query = () =>
      new URL(api.requestsTo('GET /api/v1/appointments').at(-1)!.url, 'http://x').searchParams;
    // Whole days in the viewer's zone: Madrid's midnight of the 1st to the midnight after the 7th.
    expect([query().get('doctorId'), query().get('from'), query().get('to'), query().get('order')]).toEqual([
      doctorId,
      '2030-02-28T23:00:00.000Z',
      '2030-03-07T23:00:00.000Z',
      'asc',
    ]);
    // Staff see both people of each appointment.
    expect(screen.getAllByTestId('appointment-row-person')[0]!.textContent).toBe(
      'Dra. Carmen Ruiz con Luis García',
    );
    await waitFor(() =>
      expect(screen.getByTestId<HTMLInputElement>('appointments-filter-doctor').value).toBe(
        'Dra. Carmen Ruiz',
      ),
    );

    await user.type(screen.getByTestId('section-search'), 'Luis');
    await waitFor(() => expect(query().get('q')).toBe('Luis'), slow);
    expect(new URL(currentPath(router), 'http://x').searchParams.get('q')).toBe('Luis');
  });

  it('ignores a doctor filter in the address for a patient and offers no doctor picker', async () => {
    renderApp('/admin/appointments?doctorId=0b7d8a52-57a8-4f2e-9a34-0d7a3f3c1c11');
    await screen.findAllByTestId('list-row', {}, slow);
    expect(screen.queryByTestId('appointments-filter-doctor')).toBeNull();
    const query = new URL(api.requestsTo('GET /api/v1/appointments').at(-1)!.url, 'http://x').searchParams;
    expect(query.get('doctorId')).toBeNull();
  });
});
