import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment, DoctorProfile } from '@telemedicina/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
const doctorId = '7c1d2f4e-2a7b-4f7e-9a0b-3d2c1b0a9f8e';

const profile: DoctorProfile = {
  id: doctorId,
  name: 'Dra. Carmen Ruiz',
  photoUrl: null,
  specialties: [],
  licenseNumber: 'MG-1',
  languages: ['es'],
  bio: { es: '', en: '' },
  visitMinutes: 30,
  acceptsNewPatients: true,
  timeZone: 'America/Mexico_City',
};

function appointment(overrides: Partial<Appointment> = {}): Appointment {
  return {
    id: 'a-1',
    doctor: { id: doctorId, name: profile.name, timeZone: profile.timeZone },
    patient: { id: 'pat-1', name: 'Luis García' },
    // 10:00 in Mexico City, 17:00 in Madrid.
    startsAt: '2026-11-24T16:00:00.000Z',
    endsAt: '2026-11-24T16:30:00.000Z',
    status: 'confirmed',
    reason: 'Revisión anual',
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
    ...overrides,
  };
}

describe('agenda against a real HTTP server', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let me: ReturnType<typeof sampleMe>;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    me = sampleMe({ permissions: ['visits.host'], user: { id: doctorId, timeZone: 'America/Mexico_City' } });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes[`GET /api/v1/doctors/${doctorId}`] = (_request, response) => sendJson(response, 200, profile);
    api.routes[`GET /api/v1/doctors/${doctorId}/slots`] = (_request, response) =>
      sendJson(response, 200, {
        doctorId,
        doctorTimeZone: profile.timeZone,
        viewerTimeZone: me.user.timeZone,
        visitMinutes: 30,
        slots: [],
      });
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          appointment(),
          appointment({
            id: 'a-2',
            status: 'cancelled',
            startsAt: '2026-11-25T15:00:00.000Z',
            endsAt: '2026-11-25T15:30:00.000Z',
          }),
        ],
        page: 1,
        pageSize: 100,
        total: 2,
      });
  });

  it("places a doctor's own appointments on the week grid at the doctor's wall-clock time", async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/agenda?date=2026-11-25');
    const block = await screen.findByTestId('agenda-block', {}, slow);
    expect([block.getAttribute('data-date'), block.getAttribute('data-start')]).toEqual([
      '2026-11-24',
      '10:00',
    ]);
    expect(block.getAttribute('href')).toBe('/admin/appointments/a-1');
    expect(block.textContent).toContain('Luis García');
    expect(screen.getAllByTestId('agenda-day-header')).toHaveLength(7);
    expect(screen.queryByTestId('agenda-zone-differs')).toBeNull();
    // The week of the 25th, Monday to Sunday, in the doctor's zone, for this doctor only.
    const query = new URL(api.requestsTo('GET /api/v1/appointments')[0]!.url, 'http://x').searchParams;
    expect([query.get('doctorId'), query.get('from'), query.get('to')]).toEqual([
      doctorId,
      '2026-11-23T06:00:00.000Z',
      '2026-11-30T06:00:00.000Z',
    ]);

    // Cancelled ones only on request.
    await user.click(screen.getByTestId('agenda-show-cancelled'));
    await waitFor(() => expect(screen.getAllByTestId('agenda-block')).toHaveLength(2));
    expect(currentPath(router)).toBe('/admin/agenda?date=2026-11-25&cancelled=1');

    await user.click(screen.getByText('Día'));
    await waitFor(() => expect(screen.getAllByTestId('agenda-day-header')).toHaveLength(1));
    await user.click(screen.getByTestId('agenda-next'));
    await waitFor(() => expect(currentPath(router)).toContain('date=2026-11-26'));
  });

  it("shows staff in another zone the doctor's time, and says their own zone differs", async () => {
    me = sampleMe({
      permissions: ['appointments.read.any'],
      user: { id: 'staff-1', timeZone: 'Europe/Madrid' },
    });
    api.routes['GET /api/v1/doctors'] = (_request, response) =>
      sendJson(response, 200, { data: [{ ...profile, nextSlots: [] }], page: 1, pageSize: 100, total: 1 });
    renderApp(`/admin/agenda?date=2026-11-25&doctorId=${doctorId}`);
    const block = await screen.findByTestId('agenda-block', {}, slow);
    expect(block.getAttribute('data-start')).toBe('10:00');
    expect(screen.getByTestId('agenda-zone-differs').textContent).toContain('(hora de Madrid)');
  });

  it('asks staff to choose a doctor first', async () => {
    me = sampleMe({ permissions: ['appointments.read.any'], user: { id: 'staff-1' } });
    api.routes['GET /api/v1/doctors'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 100, total: 0 });
    renderApp('/admin/agenda');
    await screen.findByTestId('agenda-choose-doctor', {}, slow);
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);
  });
});
