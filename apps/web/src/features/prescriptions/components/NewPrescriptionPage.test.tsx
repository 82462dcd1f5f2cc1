import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 20_000 };
const patientId = '11111111-1111-4111-8111-111111111111';
const appointmentId = '22222222-2222-4222-8222-222222222222';

const prescription = {
  id: '33333333-3333-4333-8333-333333333333',
  verificationCode: '7K3M-Q9XD-2HTR',
  status: 'active',
  patient: { id: patientId, name: 'Luis García', dateOfBirth: null, language: 'es' },
  doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz', licenseNumber: 'MG-1' },
  appointmentId,
  notes: null,
  issuedAt: '2026-11-21T10:00:00.000Z',
  cancelledAt: null,
  cancellationReason: null,
  items: [
    {
      position: 1,
      medication: 'Amoxicilina 500 mg',
      dose: '1',
      route: 'Oral',
      frequency: 'c/8 h',
      duration: '7 días',
      quantity: '21',
      instructions: null,
    },
  ],
  verificationUrl: 'http://app.test/verify/7K3M-Q9XD-2HTR',
  isIssuer: true,
};

describe('prescription pages against a real HTTP server', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;

  beforeAll(async () => {
    restoreMatchMedia = matchEmptyMediaQuery();
    // jsdom has no font loading API; Mantine's autosizing textarea listens to it.
    if (!('fonts' in document)) {
      Object.defineProperty(document, 'fonts', {
        configurable: true,
        value: { addEventListener: () => undefined, removeEventListener: () => undefined },
      });
    }
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    restoreMatchMedia();
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    const me = sampleMe({
      permissions: ['prescriptions.write', 'records.read', 'records.write'],
      user: { id: 'doc-1' },
    });
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, me);
  });

  it('refuses an incomplete item beside its fields, then sends the schema-shaped request and opens the prescription', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    api.routes[`POST /api/v1/patients/${patientId}/prescriptions`] = (request, response) => {
      sent.push(request.json());
      sendJson(response, 201, prescription);
    };
    api.routes[`GET /api/v1/prescriptions/${prescription.id}`] = (_request, response) =>
      sendJson(response, 200, prescription);
    renderApp(`/admin/patients/${patientId}/prescriptions/new?appointmentId=${appointmentId}`);
    await screen.findByTestId('prescription-form', {}, slow);
    await user.type(screen.getByTestId('prescription-medication-0'), 'Amoxicilina 500 mg');
    await user.click(screen.getByTestId('prescription-submit'));
    expect(await screen.findAllByText('Este campo es obligatorio.')).toHaveLength(5);
    expect(sent).toEqual([]);
    for (const [field, value] of [
      ['dose', '1'],
      ['route', 'Oral'],
      ['frequency', 'c/8 h'],
      ['duration', '7 días'],
      ['quantity', '21'],
    ] as const) {
      await user.type(screen.getByTestId(`prescription-${field}-0`), value);
    }
    expect(screen.queryAllByText('Este campo es obligatorio.')).toHaveLength(0);
    await user.click(screen.getByTestId('prescription-submit'));
    expect((await screen.findByTestId('prescription-code', {}, slow)).textContent).toBe('7K3M-Q9XD-2HTR');
    expect(sent).toEqual([
      {
        items: [
          {
            medication: 'Amoxicilina 500 mg',
            dose: '1',
            route: 'Oral',
            frequency: 'c/8 h',
            duration: '7 días',
            quantity: '21',
            instructions: '',
          },
        ],
        notes: '',
        appointmentId,
      },
    ]);
    expect(screen.getByTestId('prescription-pdf').getAttribute('href')).toBe(
      `/api/v1/prescriptions/${prescription.id}/pdf`,
    );
  });

  it('names the patient (age, sex, allergies) and the linked visit above the form', async () => {
    api.routes[`GET /api/v1/appointments/${appointmentId}`] = (_request, response) =>
      sendJson(response, 200, {
        id: appointmentId,
        doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz', timeZone: 'Europe/Madrid' },
        patient: { id: patientId, name: 'Luis García' },
        startsAt: '2026-11-21T09:00:00.000Z',
        endsAt: '2026-11-21T09:30:00.000Z',
        status: 'completed',
        reason: null,
        isReasonWithheld: false,
        createdAt: '2026-11-20T10:00:00.000Z',
        cancelledAt: null,
        cancellationReason: null,
      });
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      sendJson(response, 200, {
        patientId,
        access: 'treating',
        emergencyExpiresAt: null,
        demographics: {
          name: 'Luis García',
          dateOfBirth: null,
          sex: 'male',
          phone: null,
          email: 'luis@example.com',
          language: 'es',
          address: null,
        },
        identityDocument: { type: null, number: null },
        emergencyContact: { name: null, phone: null, relation: null },
        visits: [],
        clinical: {
          bloodType: null,
          allergies: [],
          conditions: [],
          medications: [],
          prescriptions: [],
          documents: [],
        },
      });
    renderApp(`/admin/patients/${patientId}/prescriptions/new?appointmentId=${appointmentId}`);
    const header = await screen.findByTestId('visit-context', {}, slow);
    expect(within(header).getByTestId('visit-context-patient').textContent).toBe('Luis García');
    expect(within(header).getByTestId('visit-context-facts').textContent).toBe('Hombre');
    expect(within(header).getByTestId('visit-context-allergies').textContent).toBe(
      'Sin alergias registradas',
    );
    // 09:00 UTC in the doctor's Madrid account: 10:00.
    expect(within(header).getByTestId('visit-context-when').textContent).toContain('10:00');
    expect(within(header).getByTestId('visit-context-reason').textContent).toBe('Motivo: No se indicó');
  });

  it('shows the server refusal when the doctor does not treat the patient', async () => {
    const user = userEvent.setup();
    api.routes[`POST /api/v1/patients/${patientId}/prescriptions`] = (_request, response) =>
      sendError(response, 404, 'NOT_FOUND');
    renderApp(`/admin/patients/${patientId}/prescriptions/new`);
    await screen.findByTestId('prescription-form', {}, slow);
    for (const field of ['medication', 'dose', 'route', 'frequency', 'duration', 'quantity']) {
      await user.type(screen.getByTestId(`prescription-${field}-0`), 'x');
    }
    await user.click(screen.getByTestId('prescription-submit'));
    await waitFor(() => expect(screen.getByTestId('prescription-error')).toBeTruthy());
  });
});
