import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { AppointmentIntakeSection } from './AppointmentIntakeSection';
import { IntakeScoreBadges } from './IntakeScoreBadges';

const appointmentId = '22222222-2222-4222-8222-222222222222';
const patientId = '11111111-1111-4111-8111-111111111111';
const doctorId = '33333333-3333-4333-8333-333333333333';
const slow = { timeout: 20_000 };

function openForm(index: number) {
  return {
    id: `5555555${index}-5555-4555-8555-555555555555`,
    appointmentId,
    patientId,
    title: { es: `Formulario ${index}`, en: `Form ${index}` },
    questionnaireVersion: 1,
    status: 'in-progress',
    updatedAt: '2026-11-20T15:00:00.000Z',
    completedAt: null,
    score: null,
  };
}

describe('how many forms are still open, said to whom it concerns', { timeout: 60_000 }, () => {
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

  function serve(forms: unknown[], readerId: string) {
    api.routes[`GET /api/v1/appointments/${appointmentId}/intake-forms`] = (_request, response) =>
      sendJson(response, 200, { data: forms });
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ user: { id: readerId } }));
  }

  it('asks the patient to fill in one form (singular), and tells the doctor how many are not sent', async () => {
    serve([openForm(1)], patientId);
    const patientView = renderWithProviders(
      <MemoryRouter>
        <AppointmentIntakeSection appointmentId={appointmentId} />
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('intake-section-state', {}, slow)).textContent).toBe(
      'Le queda 1 formulario por rellenar. Si no le da tiempo, la consulta se hace igual.',
    );
    patientView.unmount();

    serve([openForm(1), openForm(2)], doctorId);
    renderWithProviders(
      <MemoryRouter>
        <AppointmentIntakeSection appointmentId={appointmentId} />
        <IntakeScoreBadges appointmentId={appointmentId} />
      </MemoryRouter>,
      { language: 'en' },
    );
    expect((await screen.findByTestId('intake-section-state', {}, slow)).textContent).toBe(
      '2 forms not sent',
    );
    expect((await screen.findByTestId('intake-open', {}, slow)).textContent).toBe('2 forms not sent');
  });

  it('says one form not sent on the waiting-room card in the singular', async () => {
    serve([openForm(1)], doctorId);
    renderWithProviders(
      <MemoryRouter>
        <IntakeScoreBadges appointmentId={appointmentId} />
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('intake-open', {}, slow)).textContent).toBe('1 formulario sin enviar');
  });
});
