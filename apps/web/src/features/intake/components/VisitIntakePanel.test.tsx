import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { VisitIntakePanel } from './VisitIntakePanel';

const appointmentId = '22222222-2222-4222-8222-222222222222';
const formId = '55555555-5555-4555-8555-555555555555';
const slow = { timeout: 20_000 };

const summary = {
  id: formId,
  appointmentId,
  patientId: '11111111-1111-4111-8111-111111111111',
  title: { es: 'Antecedentes', en: 'History' },
  questionnaireVersion: 1,
  status: 'completed',
  updatedAt: '2026-11-20T15:00:00.000Z',
  completedAt: '2026-11-20T15:00:00.000Z',
  score: null,
};

describe('beside the call: the visit’s forms', { timeout: 60_000 }, () => {
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
    api.routes[`GET /api/v1/appointments/${appointmentId}/intake-forms`] = (_request, response) =>
      sendJson(response, 200, { data: [summary] });
    api.routes[`GET /api/v1/intake-responses/${formId}`] = (_request, response) =>
      sendJson(response, 200, {
        ...summary,
        questionnaire: {
          resourceType: 'Questionnaire',
          status: 'active',
          item: [
            { linkId: 'since', type: 'date', text: '¿Desde cuándo tiene los síntomas?' },
            { linkId: 'smoker', type: 'boolean', text: '¿Fuma?' },
          ],
        },
        response: {
          resourceType: 'QuestionnaireResponse',
          status: 'completed',
          item: [
            { linkId: 'since', answer: [{ valueDate: '2026-03-02' }] },
            { linkId: 'smoker', answer: [{ valueBoolean: false }] },
          ],
        },
      });
  });

  it('writes a date answer as a date in the reader’s language, not as stored', async () => {
    renderWithProviders(
      <MemoryRouter>
        <VisitIntakePanel appointmentId={appointmentId} />
      </MemoryRouter>,
    );
    const answers = await screen.findByTestId('visit-intake-answers', {}, slow);
    const given = [...answers.querySelectorAll('dd')].map((answer) => answer.textContent);
    expect(given).toEqual(['2 mar 2026', 'No']);
    expect(answers.textContent).not.toContain('2026-03-02');
  });
});
