import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment } from '@telemedicina/shared/appointment';
import type { Slot } from '@telemedicina/shared/booking';
import type { DoctorProfile } from '@telemedicina/shared/doctors';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };

function bodyOf(request: { body: Buffer }): unknown {
  return JSON.parse(request.body.toString('utf8')) as unknown;
}

const doctor: DoctorProfile = {
  id: 'd-1',
  name: 'Dra. Carmen Ruiz',
  photoUrl: null,
  specialties: [{ id: 's-1', name: { es: 'Cardiología', en: 'Cardiology' } }],
  licenseNumber: 'MAD-1234',
  languages: ['es', 'fr'],
  bio: { es: 'Primera línea.\nSegunda línea.', en: 'First line.' },
  visitMinutes: 30,
  acceptsNewPatients: true,
  timeZone: 'Europe/Madrid',
};

/** A slot at `hour`:00 UTC on the day `days` after the window's start. */
function slotAt(from: string, days: number, hour: number): Slot {
  const start = new Date(Date.parse(from) + days * 86_400_000 + hour * 3_600_000);
  const iso = start.toISOString();
  return {
    startsAt: iso,
    endsAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
    localStart: iso,
    doctorLocalStart: iso,
  };
}

function sampleAppointment(startsAt: string): Appointment {
  return {
    id: 'a-1',
    doctor: { id: 'd-1', name: doctor.name, timeZone: 'Europe/Madrid' },
    patient: { id: 'u-1', name: 'Ana Pérez' },
    startsAt,
    endsAt: startsAt,
    status: 'requested',
    reason: 'Dolor de pecho',
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
  };
}

describe('doctor page and booking against a real HTTP server', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  let permissions: string[];
  let slotRequests: URL[];

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
    slotRequests = [];
    permissions = ['doctors.read', 'appointments.book.self', 'appointments.read.own'];
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions, user: { timeZone: 'America/Bogota' } }));
    api.routes['GET /api/v1/doctors/d-1'] = (_request, response) => sendJson(response, 200, doctor);
    api.routes['GET /api/v1/doctors/d-1/slots'] = (request, response) => {
      const url = new URL(request.url, 'http://x');
      slotRequests.push(url);
      const from = url.searchParams.get('from')!;
      // Free times in the first week asked for only: Monday and Wednesday at 14:00 UTC (09:00 in Bogotá).
      const slots =
        from === slotRequests[0]!.searchParams.get('from') ? [slotAt(from, 1, 14), slotAt(from, 3, 14)] : [];
      sendJson(response, 200, {
        doctorId: 'd-1',
        doctorTimeZone: 'Europe/Madrid',
        viewerTimeZone: url.searchParams.get('tz'),
        visitMinutes: 30,
        slots,
      });
    };
  });

  it('shows the profile and walks the weeks, labelling times with the viewer’s zone', async () => {
    const user = userEvent.setup();
    renderApp('/admin/doctors/d-1');
    expect((await screen.findByTestId('doctor-name', {}, slow)).textContent).toBe('Dra. Carmen Ruiz');
    expect(screen.getByTestId('doctor-bio').textContent).toBe('Primera línea.\nSegunda línea.');
    expect(screen.getByTestId('doctor-languages').textContent).toBe('español, francés');
    expect(screen.getByTestId('doctor-specialty').textContent).toBe('Cardiología');

    const slots = await screen.findAllByTestId('slot-picker-slot', {}, slow);
    expect(slots.map((slot) => slot.textContent)).toEqual(['9:00', '9:00']);
    expect(screen.getByTestId('slot-picker-zone').textContent).toBe(
      'Horas en su zona horaria (hora de Bogotá); el médico atiende en hora de Madrid',
    );
    const firstFrom = slotRequests[0]!.searchParams.get('from')!;
    expect(slotRequests[0]!.searchParams.get('tz')).toBe('America/Bogota');
    expect(Date.parse(slotRequests[0]!.searchParams.get('to')!) - Date.parse(firstFrom)).toBe(9 * 86_400_000);
    expect(screen.getByTestId<HTMLButtonElement>('slot-picker-previous').disabled).toBe(true);
    const firstWeek = screen.getByTestId('slot-picker-week').textContent;

    await user.click(screen.getByTestId('slot-picker-next'));
    expect(await screen.findByTestId('slot-picker-empty', {}, slow)).toBeTruthy();
    expect(screen.getByTestId('slot-picker-empty').textContent).toBe(
      'No hay horarios libres esta semana. Pruebe con la semana siguiente.',
    );
    expect(Date.parse(slotRequests.at(-1)!.searchParams.get('from')!) - Date.parse(firstFrom)).toBe(
      7 * 86_400_000,
    );
    expect(screen.getByTestId('slot-picker-week').textContent).not.toBe(firstWeek);
    expect(screen.getByTestId<HTMLButtonElement>('slot-picker-previous').disabled).toBe(false);

    await user.click(screen.getByTestId('slot-picker-previous'));
    await waitFor(() => expect(screen.getByTestId('slot-picker-week').textContent).toBe(firstWeek));
    expect(await screen.findAllByTestId('slot-picker-slot', {}, slow)).toHaveLength(2);
  });

  it('books a slot, offering the next free times when it was taken meanwhile', async () => {
    const user = userEvent.setup();
    let bookings = 0;
    const alternative = '2030-01-07T15:00:00.000Z';
    api.routes['POST /api/v1/appointments'] = (request, response) => {
      bookings += 1;
      if (bookings === 1) {
        sendError(response, 409, 'SLOT_TAKEN', {
          nextSlots: [
            { startsAt: alternative, endsAt: '2030-01-07T15:30:00.000Z' },
            { startsAt: '2030-01-08T15:00:00.000Z', endsAt: '2030-01-08T15:30:00.000Z' },
          ],
        });
        return;
      }
      const body = request.json() as { startsAt: string };
      sendJson(response, 201, sampleAppointment(body.startsAt));
    };
    api.routes['GET /api/v1/appointments/a-1'] = (_request, response) =>
      sendJson(response, 200, sampleAppointment(alternative));
    const { router } = renderApp('/portal/doctors/d-1');
    const [slot] = await screen.findAllByTestId('slot-picker-slot', {}, slow);
    const startsAt = slot!.getAttribute('data-starts-at')!;
    await user.click(slot!);
    await waitFor(() =>
      expect(currentPath(router)).toBe(`/portal/doctors/d-1?slot=${encodeURIComponent(startsAt)}`),
    );
    const form = await screen.findByTestId('booking-form', {}, slow);
    expect(within(form).getByTestId('booking-viewer-zone').textContent).toBe(
      'En su zona horaria (hora de Bogotá)',
    );
    expect(within(form).getByTestId('booking-doctor-time').textContent).toMatch(/15:00 \(hora de Madrid\)$/);
    // Staff-only patient choice is hidden from a patient.
    expect(within(form).queryByTestId('booking-patient')).toBeNull();
    expect(form.textContent).toContain('Cuéntenos brevemente qué le ocurre (0/500 caracteres).');

    await user.click(within(form).getByTestId('booking-confirm'));
    expect(
      await within(form).findByText('Describa el motivo con al menos 3 caracteres.', {}, slow),
    ).toBeTruthy();
    expect(bookings).toBe(0);

    await user.type(within(form).getByTestId('booking-reason'), 'Dolor de pecho');
    await user.click(within(form).getByTestId('booking-confirm'));
    const error = await within(form).findByTestId('booking-error', {}, slow);
    expect(error.textContent).toContain('Ese horario acaba de ser reservado por otra persona.');
    const alternatives = within(error).getAllByTestId('booking-alternative');
    expect(alternatives).toHaveLength(2);
    expect(bodyOf(api.requestsTo('POST /api/v1/appointments')[0]!)).toEqual({
      doctorId: 'd-1',
      startsAt,
      reason: 'Dolor de pecho',
    });

    await user.click(alternatives[0]!);
    expect(within(form).queryByTestId('booking-error')).toBeNull();
    expect(within(form).getByTestId('booking-doctor-time').textContent).toMatch(/16:00 \(hora de Madrid\)$/);
    await user.click(within(form).getByTestId('booking-confirm'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/appointments/a-1'), slow);
    expect((bodyOf(api.requestsTo('POST /api/v1/appointments')[1]!) as { startsAt: string }).startsAt).toBe(
      alternative,
    );
  });

  it('lets staff who read accounts choose the patient', async () => {
    const user = userEvent.setup();
    permissions = ['doctors.read', 'appointments.book.any', 'appointments.read.any', 'users.read'];
    api.routes['GET /api/v1/users'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 20, total: 0 });
    renderApp('/admin/doctors/d-1');
    const [slot] = await screen.findAllByTestId('slot-picker-slot', {}, slow);
    await user.click(slot!);
    const form = await screen.findByTestId('booking-form', {}, slow);
    expect(within(form).getByTestId('booking-patient')).toBeTruthy();
    // The reason is asked of the person booking: staff write down what the patient says.
    expect(form.textContent).toContain('Motivo de la consulta (lo que indica el paciente)');
    expect(form.textContent).toContain('Anote brevemente lo que el paciente cuenta (0/500 caracteres).');
    expect(form.textContent).not.toContain('Cuéntenos');
    await waitFor(() =>
      expect(new URL(api.requestsTo('GET /api/v1/users')[0]!.url, 'http://x').searchParams.get('role')).toBe(
        'patient',
      ),
    );
    await user.type(within(form).getByTestId('booking-reason'), 'Revisión');
    await user.click(within(form).getByTestId('booking-confirm'));
    expect(
      await within(form).findByText('Elija el paciente para quien reserva la cita.', {}, slow),
    ).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/appointments')).toHaveLength(0);
  });

  it('shows the section as forbidden without doctors.read', async () => {
    permissions = ['appointments.read.own'];
    renderApp('/admin/doctors/d-1');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(api.requestsTo('GET /api/v1/doctors/d-1')).toHaveLength(0);
  });
});
