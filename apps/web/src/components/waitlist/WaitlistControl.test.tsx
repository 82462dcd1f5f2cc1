import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { WaitlistEntry } from '@telemedicina/shared/notifications';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../test/fake-api';
import { sendJson } from '../../test/http-server';
import { renderWithProviders } from '../../test/render';
import { WaitlistControl } from './WaitlistControl';

const doctorId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const path = `/api/v1/doctors/${doctorId}/waitlist`;
const slow = { timeout: 10_000 };

function appointmentAt(startsAt: string): Appointment {
  return {
    id: 'a-1',
    doctor: { id: doctorId, name: 'Dra. Carmen Ruiz', timeZone: 'Europe/Madrid' },
    patient: { id: 'u-1', name: 'Ana Pérez' },
    startsAt,
    endsAt: startsAt,
    status: 'confirmed',
    reason: null,
    createdAt: '2026-03-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
  };
}

describe('waiting list control against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let entry: WaitlistEntry | null;
  let upcoming: Appointment[];

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    entry = null;
    upcoming = [appointmentAt('2026-04-20T08:00:00.000Z')];
    api.routes[`GET ${path}`] = (_request, response) =>
      entry === null
        ? sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'not on it' } })
        : sendJson(response, 200, entry);
    api.routes[`POST ${path}`] = (request, response) => {
      const body = request.json() as { before: string | null };
      entry = {
        doctorId,
        before: body.before === null ? null : new Date(body.before).toISOString(),
        notifiedAt: null,
        createdAt: '2026-03-25T10:00:00.000Z',
      };
      sendJson(response, 200, entry);
    };
    api.routes[`DELETE ${path}`] = (_request, response) => {
      entry = null;
      response.writeHead(204).end();
    };
    api.routes['GET /api/v1/appointments'] = (_request, response) =>
      sendJson(response, 200, { data: upcoming, page: 1, pageSize: 1, total: upcoming.length });
  });

  it('offers to wait only for times before the patient’s next appointment with the doctor, and joins', async () => {
    const user = userEvent.setup();
    renderWithProviders(<WaitlistControl doctorId={doctorId} viewerTimeZone="America/Bogota" />);
    const onlyBefore = await screen.findByTestId('waitlist-only-before', {}, slow);
    // 08:00 UTC is 3:00 in Bogotá.
    expect(screen.getByText(/Solo horarios anteriores a mi cita del 20 abr 2026, 3:00/)).toBeTruthy();
    expect((onlyBefore as HTMLInputElement).checked).toBe(true);
    const lookup = new URL(api.requestsTo('GET /api/v1/appointments')[0]!.url, 'http://x');
    expect(lookup.searchParams.get('doctorId')).toBe(doctorId);
    expect(lookup.searchParams.get('pageSize')).toBe('1');
    expect(lookup.searchParams.get('order')).toBe('asc');

    await user.click(screen.getByTestId('waitlist-join'));
    const status = await screen.findByTestId('waitlist-status');
    expect(status.textContent).toMatch(/antes del 20 abr 2026, 3:00/);
    expect(api.requestsTo(`POST ${path}`)[0]!.body.toString()).toBe(
      JSON.stringify({ before: '2026-04-20T08:00:00.000Z' }),
    );
  });

  it('joins for any time when the patient unticks the box or has no appointment, in English', async () => {
    const user = userEvent.setup();
    renderWithProviders(<WaitlistControl doctorId={doctorId} viewerTimeZone="Europe/Madrid" />, {
      language: 'en',
    });
    await user.click(await screen.findByTestId('waitlist-only-before', {}, slow));
    await user.click(screen.getByTestId('waitlist-join'));
    expect((await screen.findByTestId('waitlist-status')).textContent).toBe(
      'You are on the waiting list: we will tell you when a time becomes free.',
    );
    expect(JSON.parse(api.requestsTo(`POST ${path}`)[0]!.body.toString())).toEqual({ before: null });
  });

  it('shows the place on the list with the last notice, and leaves it', async () => {
    entry = {
      doctorId,
      before: null,
      notifiedAt: '2026-03-26T09:15:00.000Z',
      createdAt: '2026-03-20T10:00:00.000Z',
    };
    const user = userEvent.setup();
    renderWithProviders(<WaitlistControl doctorId={doctorId} viewerTimeZone="Europe/Madrid" />);
    expect((await screen.findByTestId('waitlist-status', {}, slow)).textContent).toBe(
      'Está en la lista de espera: le avisaremos cuando se libere un horario.',
    );
    expect(screen.getByTestId('waitlist-notified').textContent).toMatch(/Último aviso: 26 mar 2026, 10:15/);
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);

    await user.click(screen.getByTestId('waitlist-leave'));
    await screen.findByTestId('waitlist-offer');
    expect(api.requestsTo(`DELETE ${path}`)).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('waitlist-join')).toBeTruthy());
  });

  it('on an appointment uses that appointment’s time without looking one up', async () => {
    upcoming = [];
    const user = userEvent.setup();
    renderWithProviders(
      <WaitlistControl
        doctorId={doctorId}
        viewerTimeZone="Europe/Madrid"
        appointmentStartsAt="2026-05-04T07:30:00.000Z"
        variant="inline"
      />,
    );
    await screen.findByTestId('waitlist-offer', {}, slow);
    expect(screen.getByText('¿Le vendría mejor antes?').id).toBe('waitlist-title');
    expect(screen.getByText(/anteriores a mi cita del 4 may 2026, 9:30/)).toBeTruthy();
    await user.click(screen.getByTestId('waitlist-join'));
    await screen.findByTestId('waitlist-status');
    expect(JSON.parse(api.requestsTo(`POST ${path}`)[0]!.body.toString())).toEqual({
      before: '2026-05-04T07:30:00.000Z',
    });
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);
  });

  it('shows nothing when the list cannot be read (the page goes on without it)', async () => {
    api.routes[`GET ${path}`] = (_request, response) =>
      sendJson(response, 500, { error: { code: 'INTERNAL_ERROR', message: 'x' } });
    renderWithProviders(
      <div data-testid="host">
        <WaitlistControl doctorId={doctorId} viewerTimeZone="Europe/Madrid" />
      </div>,
    );
    await waitFor(() => expect(api.requestsTo(`GET ${path}`).length).toBeGreaterThan(0), slow);
    await waitFor(() => expect(screen.getByTestId('host').textContent).toBe(''));
  });
});
