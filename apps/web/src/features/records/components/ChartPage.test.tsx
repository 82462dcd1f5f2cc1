import type { Chart } from '@telemedicina/shared/records';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };
const patientId = '11111111-1111-4111-8111-111111111111';

const chart: Chart = {
  patientId,
  access: 'emergency',
  emergencyExpiresAt: '2026-05-04T10:00:00.000Z',
  demographics: {
    name: 'Pablo Paciente',
    dateOfBirth: '1984-04-14',
    sex: 'male',
    phone: '+34 600 000 000',
    email: 'pablo@example.test',
    language: 'es',
    address: null,
  },
  identityDocument: { type: null, number: null },
  emergencyContact: { name: 'Luis', phone: null, relation: 'Hermano' },
  visits: [],
  clinical: {
    bloodType: null,
    allergies: [
      {
        id: '22222222-2222-4222-8222-222222222222',
        substance: 'Penicilina',
        reaction: null,
        severity: 'severe',
        recordedAt: '2026-05-01T10:00:00.000Z',
        recordedBy: { id: 'd-1', name: 'Dra. Lucía' },
        removedAt: null,
        removedBy: null,
      },
    ],
    conditions: [],
    medications: [],
    prescriptions: [],
    documents: [],
  },
};

describe('patient chart against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  let isGranted: boolean;

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
    isGranted = false;
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(
        response,
        200,
        sampleMe({ permissions: ['records.read', 'records.write', 'records.emergency'] }),
      );
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      isGranted ? sendJson(response, 200, chart) : sendError(response, 404, 'NOT_FOUND');
    api.routes[`POST /api/v1/patients/${patientId}/emergency-access`] = (request, response) => {
      const body = request.json() as { reason?: string };
      if ((body.reason ?? '').length < 20) {
        sendError(response, 400, 'VALIDATION_FAILED');
        return;
      }
      isGranted = true;
      sendJson(response, 201, {
        id: '33333333-3333-4333-8333-333333333333',
        patientId,
        grantedAt: '2026-05-04T09:00:00.000Z',
        expiresAt: '2026-05-04T10:00:00.000Z',
      });
    };
  });

  it('offers emergency access on 404, requires a reason, then shows the chart with the banner', async () => {
    const user = userEvent.setup();
    renderApp(`/admin/patients/${patientId}`);
    await screen.findByTestId('chart-not-found', {}, slow);
    expect(screen.queryByTestId('chart')).toBeNull();
    await user.click(screen.getByTestId('chart-emergency-open'));
    const dialog = await screen.findByTestId('emergency-access-dialog');
    expect(dialog.textContent).toContain('auditoría');
    await user.click(within(dialog).getByTestId('emergency-confirm'));
    await screen.findByText('Explique el motivo con al menos 20 caracteres.');
    expect(api.requestsTo(`POST /api/v1/patients/${patientId}/emergency-access`)).toHaveLength(0);

    await user.type(screen.getByTestId('emergency-reason'), 'Paciente inconsciente en urgencias.');
    await user.click(within(dialog).getByTestId('emergency-confirm'));
    await screen.findByTestId('chart-emergency-banner', {}, slow);
    expect(screen.getByTestId('chart').getAttribute('data-access')).toBe('emergency');
    expect(screen.getByTestId('chart-allergies').textContent).toContain('Penicilina');
    const [sent] = api.requestsTo(`POST /api/v1/patients/${patientId}/emergency-access`);
    expect(JSON.parse(sent!.body.toString('utf8'))).toEqual({
      reason: 'Paciente inconsciente en urgencias.',
    });
  });

  it('does not offer emergency access to someone without records.emergency', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['patients.read.admin'] }));
    renderApp(`/admin/patients/${patientId}`);
    const notFound = await screen.findByTestId('chart-not-found', {}, slow);
    await waitFor(() => expect(notFound.textContent).toContain('no tiene acceso'));
    expect(screen.queryByTestId('chart-emergency-open')).toBeNull();
  });
});
