import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { phq9Questionnaire } from '@telemedicina/shared/intake-instruments';
import type { VisitNote } from '@telemedicina/shared/notes';
import { MemoryRouter } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../components/list-table/testing';
import { appointmentId, patientId, sampleNote } from '../features/notes/test-notes';
import { uiState } from '../lib/ui-state';
import { startFakeApi, type FakeApi } from '../test/fake-api';
import { sendJson } from '../test/http-server';
import { renderWithProviders } from '../test/render';
import { VisitSidePanel } from './VisitSidePanel';

const slow = { timeout: 20_000 };
const sentId = '55555555-5555-4555-8555-555555555555';
const openId = '66666666-6666-4666-8666-666666666666';
const notePath = `/api/v1/appointments/${appointmentId}/note`;

const phq9Summary = {
  id: sentId,
  appointmentId,
  patientId,
  title: { es: 'Cuestionario PHQ-9', en: 'PHQ-9 questionnaire' },
  questionnaireVersion: 1,
  status: 'completed',
  updatedAt: '2026-11-27T15:00:00.000Z',
  completedAt: '2026-11-27T15:00:00.000Z',
  score: { instrument: 'phq9', score: 10, severity: 'moderate', selfHarmFlag: true },
};
const gad7Summary = {
  ...phq9Summary,
  id: openId,
  title: { es: 'Cuestionario GAD-7', en: 'GAD-7 questionnaire' },
  status: 'in-progress',
  completedAt: null,
  score: null,
};

function phq9Detail() {
  const item = Array.from({ length: 9 }, (_, index) => ({
    linkId: `phq9-${index + 1}`,
    answer: [{ valueCoding: { code: index === 8 ? '2' : '1' } }],
  }));
  return {
    ...phq9Summary,
    questionnaire: phq9Questionnaire,
    response: { resourceType: 'QuestionnaireResponse', status: 'completed', item },
  };
}

describe('the intake tab beside the note in the call', { timeout: 60_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  let stored: VisitNote;

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
    stored = sampleNote();
    api.routes[`GET ${notePath}`] = (_request, response) =>
      sendJson(response, 200, { note: stored, vitals: null });
    api.routes[`PATCH ${notePath}`] = (request, response) => {
      const { baseVersion: _ignored, ...sections } = request.json() as Record<string, string>;
      stored = { ...stored, version: stored.version + 1, sections: { ...stored.sections, ...sections } };
      sendJson(response, 200, stored);
    };
    api.routes[`GET /api/v1/appointments/${appointmentId}/intake-forms`] = (_request, response) =>
      sendJson(response, 200, { data: [phq9Summary, gad7Summary] });
    api.routes[`GET /api/v1/intake-responses/${sentId}`] = (_request, response) =>
      sendJson(response, 200, phq9Detail());
  });

  function renderPanel(language: 'es' | 'en' = 'es') {
    const rendered = renderWithProviders(
      <MemoryRouter>
        <VisitSidePanel appointmentId={appointmentId} />
      </MemoryRouter>,
      { language },
    );
    uiState.setState({ permissions: ['records.read', 'records.write'] });
    return rendered;
  }

  it('shows the answers, score, item-9 flag and the forms not sent yet', async () => {
    renderPanel();
    const tab = await screen.findByTestId('visit-tab-intake');
    await waitFor(() => expect(tab.textContent).toBe('Formularios2'));
    await userEvent.click(tab);
    const forms = await screen.findAllByTestId('visit-intake-form');
    expect(forms.map((form) => form.dataset.status)).toEqual(['completed', 'in-progress']);
    const sent = forms[0]!;
    await within(sent).findByTestId('visit-intake-answers', {}, slow);
    expect(within(sent).getByTestId('intake-score').textContent).toBe('PHQ-9: 10 · moderada');
    expect(within(sent).getByTestId('intake-self-harm-flag')).toBeTruthy();
    expect(sent.textContent).toContain('Enviado el');
    expect(sent.textContent).toContain('27 nov 2026');
    expect(within(sent).getByTestId('visit-intake-answers').textContent).toContain(
      'Poco interés o placer en hacer cosasVarios días',
    );
    expect(within(forms[1]!).getByTestId('visit-intake-not-answered').textContent).toBe(
      'El paciente todavía no lo ha enviado.',
    );
  });

  it('puts a readable summary of the answers into the note and shows the note', async () => {
    renderPanel();
    // The note's editors load first (the doctor opens the call on the note).
    await screen.findAllByTestId('rich-text-editor-content', {}, slow);
    await userEvent.click(screen.getByTestId('visit-tab-intake'));
    const insert = await screen.findByTestId('visit-intake-insert', {}, slow);
    await userEvent.click(insert);
    await waitFor(() =>
      expect(screen.getByTestId('visit-tab-note').getAttribute('aria-selected')).toBe('true'),
    );
    const subjective = screen.getByRole('textbox', { name: 'Subjetivo' });
    await waitFor(() => expect(subjective.textContent).toContain('Cuestionario PHQ-9 · Enviado el'));
    expect(subjective.textContent).toContain('PHQ-9: 10 de 27 · moderada');
    expect(subjective.textContent).toContain('PHQ-9 ítem 9 positivo');
    expect(subjective.querySelectorAll('li')).toHaveLength(9);
    expect(subjective.querySelector('li')?.textContent).toBe(
      'Poco interés o placer en hacer cosas: Varios días',
    );
    // The other sections are untouched.
    expect(screen.getByRole('textbox', { name: 'Plan' }).textContent).toBe('');
  });

  it('says when the visit has no forms', async () => {
    api.routes[`GET /api/v1/appointments/${appointmentId}/intake-forms`] = (_request, response) =>
      sendJson(response, 200, { data: [] });
    renderPanel('en');
    await userEvent.click(await screen.findByTestId('visit-tab-intake'));
    expect((await screen.findByTestId('visit-intake-none')).textContent).toBe('This visit has no forms.');
  });
});
