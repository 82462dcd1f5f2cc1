import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { appointmentId } from '../test-notes';
import { VitalsForm } from './VitalsForm';

const vitalsPath = `/api/v1/appointments/${appointmentId}/vitals`;

/** The input of a field, and the text of the error Mantine shows under it. */
const field = (name: string) => screen.getByTestId<HTMLInputElement>(`vitals-${name}`);
const errorOf = (name: string) => {
  const id = field(name).getAttribute('aria-describedby') ?? '';
  return id
    .split(' ')
    .map((part) => document.getElementById(part)?.textContent ?? '')
    .join(' ');
};

describe('the patient vitals form', { timeout: 30_000 }, () => {
  let api: FakeApi;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
  });

  it('refuses out-of-range values and the blood pressure rule beside their fields, sending nothing', async () => {
    const user = userEvent.setup();
    renderWithProviders(<VitalsForm appointmentId={appointmentId} initial={null} />);
    await user.type(field('temperatureC'), '50');
    await user.type(field('systolicMmHg'), '80');
    await user.type(field('diastolicMmHg'), '90');
    await user.click(screen.getByTestId('vitals-submit'));

    await waitFor(() =>
      expect(errorOf('temperatureC')).toContain('El valor está fuera del rango permitido.'),
    );
    expect(errorOf('diastolicMmHg')).toContain('La presión sistólica debe ser mayor que la diastólica.');
    expect(errorOf('heartRateBpm')).not.toContain('rango permitido');
    expect(field('temperatureC').getAttribute('aria-invalid')).toBe('true');
    expect(api.requestsTo(`PUT ${vitalsPath}`)).toHaveLength(0);
  });

  it('asks for at least one value when everything is empty', async () => {
    const user = userEvent.setup();
    renderWithProviders(<VitalsForm appointmentId={appointmentId} initial={null} />);
    await user.click(screen.getByTestId('vitals-submit'));
    expect((await screen.findByTestId('vitals-form-error')).textContent).toBe('Este campo es obligatorio.');
    expect(api.requestsTo(`PUT ${vitalsPath}`)).toHaveLength(0);
  });

  it('sends every field (empty ones as null) and shows a server refusal on the field it names', async () => {
    api.routes[`PUT ${vitalsPath}`] = (_request, response) =>
      sendError(response, 400, 'VALIDATION_FAILED', [
        { path: ['heartRateBpm'], message: 'validation.range' },
      ]);
    const user = userEvent.setup();
    renderWithProviders(
      <VitalsForm
        appointmentId={appointmentId}
        initial={{
          temperatureC: 37.5,
          heartRateBpm: null,
          systolicMmHg: null,
          diastolicMmHg: null,
          respiratoryRate: null,
          oxygenSaturation: null,
          weightKg: null,
          heightCm: null,
          glucoseMgDl: null,
          reportedAt: '2026-11-21T09:00:00.000Z',
        }}
      />,
    );
    expect(field('temperatureC').value).toBe('37,5');
    await user.type(field('heartRateBpm'), '88');
    await user.click(screen.getByTestId('vitals-submit'));

    await waitFor(() =>
      expect(errorOf('heartRateBpm')).toContain('El valor está fuera del rango permitido.'),
    );
    expect(errorOf('temperatureC')).not.toContain('rango permitido');
    const [request] = api.requestsTo(`PUT ${vitalsPath}`);
    expect(JSON.parse(request!.body.toString())).toEqual({
      temperatureC: 37.5,
      heartRateBpm: 88,
      systolicMmHg: null,
      diastolicMmHg: null,
      respiratoryRate: null,
      oxygenSaturation: null,
      weightKg: null,
      heightCm: null,
      glucoseMgDl: null,
    });
  });

  it('says when the report was stored', async () => {
    api.routes[`PUT ${vitalsPath}`] = (request, response) =>
      sendJson(response, 200, {
        vitals: { ...(request.json() as object), reportedAt: '2026-11-21T09:05:00.000Z' },
      });
    const user = userEvent.setup();
    renderWithProviders(<VitalsForm appointmentId={appointmentId} initial={null} />);
    await user.type(field('oxygenSaturation'), '97');
    await user.click(screen.getByTestId('vitals-submit'));
    expect((await screen.findByTestId('vitals-saved')).textContent).toContain('Constantes enviadas');
  });
});
