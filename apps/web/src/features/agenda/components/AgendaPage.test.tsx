import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { DoctorProfile } from '@telemedicina/shared/doctors';
import type { ClinicDay } from '@telemedicina/shared/reception';
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

const secondDoctorId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

/** Tuesday 24 November 2026 in Mexico City (UTC−6): two doctors, one patient each. */
const clinicDay: ClinicDay = {
  date: '2026-11-24',
  timeZone: 'America/Mexico_City',
  from: '2026-11-24T06:00:00.000Z',
  to: '2026-11-25T06:00:00.000Z',
  doctors: [
    {
      id: doctorId,
      name: 'Dra. Carmen Ruiz',
      specialties: ['Medicina general'],
      visitMinutes: 30,
      appointments: [
        {
          id: 'a-1',
          patient: { id: 'pat-1', name: 'Luis García' },
          startsAt: '2026-11-24T16:00:00.000Z',
          endsAt: '2026-11-24T16:30:00.000Z',
          status: 'checked_in',
        },
      ],
      freeSlots: [],
    },
    {
      id: secondDoctorId,
      name: 'Dr. Pablo Soto',
      specialties: [],
      visitMinutes: 30,
      appointments: [
        {
          id: 'a-2',
          patient: { id: 'pat-2', name: 'Ana López' },
          startsAt: '2026-11-24T17:00:00.000Z',
          endsAt: '2026-11-24T17:30:00.000Z',
          status: 'confirmed',
        },
      ],
      freeSlots: [{ startsAt: '2026-11-24T17:30:00.000Z', endsAt: '2026-11-24T18:00:00.000Z' }],
    },
  ],
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

  it("lands staff on the clinic's day: every doctor side by side, in the viewer's zone, with where each patient is", async () => {
    me = sampleMe({
      permissions: ['appointments.read.any', 'appointments.book.any'],
      user: { id: 'staff-1', timeZone: 'America/Mexico_City' },
    });
    api.routes['GET /api/v1/doctors'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 100, total: 0 });
    api.routes['GET /api/v1/clinic-day'] = (_request, response) => sendJson(response, 200, clinicDay);
    renderApp('/admin/agenda?date=2026-11-24');
    const columns = await screen.findAllByTestId('clinic-day-column', {}, slow);
    expect(columns.map((column) => within(column).getByTestId('clinic-day-doctor').textContent)).toEqual([
      'Dra. Carmen Ruiz',
      'Dr. Pablo Soto',
    ]);
    // 16:00 UTC is 10:00 in Mexico City (the account's zone), whatever the device's zone.
    const [first, second] = columns;
    expect(within(first!).getByTestId('clinic-day-appointment').textContent).toContain('10:00');
    expect(within(first!).getByTestId('clinic-day-state').textContent).toBe('En sala de espera');
    expect(within(second!).getByTestId('clinic-day-state').textContent).toBe('Aún no llega');
    expect(within(second!).getByTestId('clinic-day-free').textContent).toContain('11:30');
    expect(api.requestsTo('GET /api/v1/clinic-day')[0]?.url).toContain('date=2026-11-24');
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);
    expect(screen.queryByTestId('agenda-choose-doctor')).toBeNull();
  });

  it('books a free time for a patient found by phone, with the reason as the patient tells it', async () => {
    me = sampleMe({
      permissions: ['appointments.read.any', 'appointments.book.any'],
      user: { id: 'staff-1', timeZone: 'America/Mexico_City' },
    });
    api.routes['GET /api/v1/doctors'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 100, total: 0 });
    api.routes['GET /api/v1/clinic-day'] = (_request, response) => sendJson(response, 200, clinicDay);
    api.routes['GET /api/v1/patients/lookup'] = (_request, response) =>
      sendJson(response, 200, {
        data: [
          {
            id: '5b0c7a52-8d4e-4a51-9f3c-0a1b2c3d4e5f',
            name: 'Marta Gil',
            email: 'marta@example.test',
            phone: '+52 55 1234 5678',
            dateOfBirth: '1985-03-07',
            hasSignedUp: true,
          },
        ],
      });
    api.routes['POST /api/v1/appointments'] = (_request, response) =>
      sendJson(
        response,
        201,
        appointment({
          id: 'new-1',
          patient: { id: '5b0c7a52-8d4e-4a51-9f3c-0a1b2c3d4e5f', name: 'Marta Gil' },
          doctor: { id: secondDoctorId, name: 'Dr. Pablo Soto', timeZone: 'America/Mexico_City' },
          startsAt: '2026-11-24T17:30:00.000Z',
          endsAt: '2026-11-24T18:00:00.000Z',
        }),
      );
    const user = userEvent.setup();
    renderApp('/admin/agenda?date=2026-11-24');
    await user.click(await screen.findByRole('button', { name: '11:30, reservar con Dr. Pablo Soto' }, slow));
    const dialog = await screen.findByTestId('reception-booking-dialog', {}, slow);
    expect(within(dialog).getByTestId('reception-booking-when').textContent).toContain('Dr. Pablo Soto');
    expect(within(dialog).getByText('Motivo de la consulta (según el paciente)')).toBeTruthy();
    await user.type(within(dialog).getByTestId('reception-booking-search'), '55 1234');
    await user.click(await within(dialog).findByTestId('reception-booking-match', {}, slow));
    await user.type(within(dialog).getByTestId('reception-booking-reason'), 'Dolor de espalda desde ayer');
    await user.click(within(dialog).getByTestId('reception-booking-confirm'));
    const notice = await screen.findByTestId('clinic-day-booked', {}, slow);
    expect(notice.textContent).toContain('Marta Gil, a las 11:30 con Dr. Pablo Soto');
    const [booking] = api.requestsTo('POST /api/v1/appointments');
    expect(JSON.parse(booking!.body.toString('utf8'))).toEqual({
      doctorId: secondDoctorId,
      startsAt: '2026-11-24T17:30:00.000Z',
      reason: 'Dolor de espalda desde ayer',
      patientId: '5b0c7a52-8d4e-4a51-9f3c-0a1b2c3d4e5f',
    });
    expect(
      new URL(api.requestsTo('GET /api/v1/patients/lookup')[0]!.url, 'http://x').searchParams.get('q'),
    ).toBe('55 1234');
  });
});
