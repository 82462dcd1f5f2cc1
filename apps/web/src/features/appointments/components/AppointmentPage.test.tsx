import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Appointment } from '@telemedicina/shared/appointment';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };

const appointment: Appointment = {
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
};

describe('appointment page against a real HTTP server', { timeout: 60_000 }, () => {
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
      permissions: ['appointments.read.own', 'appointments.book.self', 'doctors.read'],
      user: { id: 'pat-1', timeZone: 'Europe/Madrid' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
    api.routes['GET /api/v1/appointments/a-1'] = (_request, response) => sendJson(response, 200, appointment);
  });

  it('shows the appointment and lets its patient cancel, explaining a passed window', async () => {
    const user = userEvent.setup();
    api.routes['POST /api/v1/appointments/a-1/cancel'] = (_request, response) =>
      sendError(response, 409, 'CANCELLATION_WINDOW_PASSED', { cancellationWindowHours: 24 });
    renderApp('/admin/appointments/a-1');
    expect((await screen.findByTestId('appointment-doctor', {}, slow)).textContent).toBe('Dra. Carmen Ruiz');
    expect(screen.getByTestId('appointment-when').textContent).toMatch(/10:00/);
    expect(screen.queryByTestId('appointment-doctor-time')).toBeNull();
    expect(screen.getByTestId('appointment-status').textContent).toBe('Confirmada');
    expect(screen.getByTestId('appointment-calendar').getAttribute('href')).toBe(
      '/api/v1/appointments/a-1/calendar.ics',
    );
    expect(screen.getByTestId('appointment-reschedule')).toBeTruthy();

    await user.click(screen.getByTestId('appointment-cancel'));
    const dialog = await screen.findByTestId('cancel-dialog', {}, slow);
    // A patient may cancel without saying why.
    await user.click(within(dialog).getByTestId('cancel-dialog-confirm'));
    const error = await within(dialog).findByTestId('cancel-error', {}, slow);
    expect(error.textContent).toContain('Ya no es posible cancelar ni cambiar esta cita por su cuenta');
    expect(error.textContent).toContain('llame a la clínica');
    expect(api.requestsTo('POST /api/v1/appointments/a-1/cancel')[0]!.body.toString('utf8')).toBe('{}');
  });

  it('asks a doctor for the reason before cancelling', async () => {
    const user = userEvent.setup();
    me = sampleMe({
      permissions: ['appointments.read.own'],
      user: { id: 'doc-1', timeZone: 'America/Bogota' },
    });
    api.routes['POST /api/v1/appointments/a-1/cancel'] = (_request, response) =>
      sendJson(response, 200, { ...appointment, status: 'cancelled', cancellationReason: 'Baja médica' });
    renderApp('/admin/appointments/a-1');
    expect((await screen.findByTestId('appointment-doctor-time', {}, slow)).textContent).toBe(
      'Hora en su zona horaria (hora de Bogotá). Para el médico: lunes, 4 de marzo de 2030, 10:00 (hora de Madrid).',
    );
    await user.click(screen.getByTestId('appointment-cancel'));
    const dialog = await screen.findByTestId('cancel-dialog', {}, slow);
    await user.click(within(dialog).getByTestId('cancel-dialog-confirm'));
    expect(await within(dialog).findByText('Indique el motivo.', {}, slow)).toBeTruthy();
    expect(api.requestsTo('POST /api/v1/appointments/a-1/cancel')).toHaveLength(0);
    await user.type(within(dialog).getByTestId('cancel-reason'), 'Baja médica');
    await user.click(within(dialog).getByTestId('cancel-dialog-confirm'));
    await waitFor(() => expect(screen.getByTestId('appointment-status').textContent).toBe('Cancelada'), slow);
    expect(api.requestsTo('POST /api/v1/appointments/a-1/cancel')[0]!.body.toString('utf8')).toBe(
      '{"reason":"Baja médica"}',
    );
    expect(screen.queryByTestId('appointment-cancel')).toBeNull();
  });

  it('offers no changes to someone who may only read every appointment', async () => {
    me = sampleMe({ permissions: ['appointments.read.any'], user: { id: 'staff-1' } });
    renderApp('/admin/appointments/a-1');
    expect(await screen.findByTestId('appointment-patient', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('appointment-cancel')).toBeNull();
    expect(screen.queryByTestId('appointment-reschedule')).toBeNull();
  });

  it('says the reason is reserved for the doctor when the server withholds it, never a blank', async () => {
    me = sampleMe({ permissions: ['appointments.read.any'], user: { id: 'staff-1' } });
    api.routes['GET /api/v1/appointments/a-1'] = (_request, response) =>
      sendJson(response, 200, { ...appointment, reason: null, isReasonWithheld: true });
    renderApp('/admin/appointments/a-1');
    const reason = await screen.findByTestId('appointment-reason', {}, slow);
    expect(reason.textContent).toBe('Reservado al médico');
    expect(within(reason).getByTestId('appointment-reason-withheld').getAttribute('title')).toBe(
      'El motivo de la consulta es información clínica: solo pueden leerlo el médico y el paciente.',
    );
  });

  it('words who cancelled for the reader: "Usted" to the patient who did, the third person to the others', async () => {
    const cancelled = {
      ...appointment,
      status: 'cancelled' as const,
      cancelledAt: '2026-11-02T00:00:00.000Z',
      cancelledBy: 'patient' as const,
    };
    api.routes['GET /api/v1/appointments/a-1'] = (_request, response) => sendJson(response, 200, cancelled);
    const readers = [
      {
        permissions: ['appointments.read.own', 'appointments.book.self'],
        id: 'pat-1',
        reads: 'Usted canceló la cita.',
      },
      { permissions: ['appointments.read.own'], id: 'doc-1', reads: 'El paciente canceló la cita.' },
      {
        permissions: ['appointments.read.any', 'appointments.manage.any'],
        id: 'staff-1',
        reads: 'El paciente canceló la cita.',
      },
    ];
    for (const reader of readers) {
      me = sampleMe({ permissions: reader.permissions, user: { id: reader.id, timeZone: 'Europe/Madrid' } });
      const view = renderApp('/admin/appointments/a-1');
      expect((await screen.findByTestId('appointment-cancelled-by', {}, slow)).textContent, reader.id).toBe(
        reader.reads,
      );
      view.unmount();
    }
  });

  it('offers "add to calendar" only while the visit is ahead: not once it was held', async () => {
    api.routes['GET /api/v1/appointments/a-1'] = (_request, response) =>
      sendJson(response, 200, { ...appointment, status: 'completed' });
    renderApp('/admin/appointments/a-1');
    expect((await screen.findByTestId('appointment-status', {}, slow)).textContent).toBe('Realizada');
    expect(screen.queryByTestId('appointment-calendar')).toBeNull();
  });

  it('shows the reason to those who may read it', async () => {
    renderApp('/admin/appointments/a-1');
    expect((await screen.findByTestId('appointment-reason', {}, slow)).textContent).toBe('Revisión anual');
    expect(screen.queryByTestId('appointment-reason-withheld')).toBeNull();
  });

  it('shows the section as forbidden without appointment permissions', async () => {
    me = sampleMe({ permissions: ['doctors.read'] });
    renderApp('/admin/appointments');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(api.requestsTo('GET /api/v1/appointments')).toHaveLength(0);
  });
});
