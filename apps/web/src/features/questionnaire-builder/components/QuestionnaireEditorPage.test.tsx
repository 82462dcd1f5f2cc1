import { phq9Questionnaire } from '@telemedicina/shared/intake-instruments';
import type { QuestionnaireDetail } from '@telemedicina/shared/questionnaire-builder';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';
import { toQuestionnaire } from '../lib/draft';

const slow = { timeout: 10_000 };
const doctorId = '00000000-0000-4000-8000-0000000000d1';

function detail(overrides: Partial<QuestionnaireDetail>): QuestionnaireDetail {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    title: { es: 'Antes de la consulta', en: 'Before the visit' },
    version: 1,
    shipped: false,
    owner: null,
    archived: false,
    itemCount: 1,
    assignments: [],
    publishedAt: '2026-03-01T10:00:00.000Z',
    canEdit: true,
    questionnaire: {
      ...toQuestionnaire({
        titleEs: 'Antes de la consulta',
        titleEn: 'Before the visit',
        items: [],
      }),
      item: [],
    },
    ...overrides,
  };
}

/** The item cards of the editor, in order. */
const cards = () => screen.getAllByTestId('builder-item');
const phone = () => screen.getByTestId('builder-phone');

function typeIn(container: HTMLElement, label: string, text: string) {
  const field = within(container).getByLabelText(label);
  fireEvent.change(field, { target: { value: text } });
}

describe('questionnaire editor', { timeout: 40_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;

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
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['settings.manage'], user: { id: doctorId } }));
    api.routes['GET /api/v1/questionnaires'] = (_request, response) => sendJson(response, 200, { data: [] });
    api.routes['GET /api/v1/specialties'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 100, total: 0 });
    api.routes['GET /api/v1/doctors'] = (_request, response) =>
      sendJson(response, 200, { data: [], page: 1, pageSize: 100, total: 0 });
  });

  it('writes a question in both languages, previews it as the patient will see it and publishes version 1', async () => {
    const saved = detail({});
    api.routes['POST /api/v1/questionnaires'] = (_request, response) => sendJson(response, 201, saved);
    api.routes[`GET /api/v1/questionnaires/${saved.id}`] = (_request, response) =>
      sendJson(response, 200, saved);
    const { router } = renderApp('/admin/questionnaires/new');
    const title = await screen.findByTestId('builder-title', {}, slow);
    typeIn(title, 'Título del cuestionario (español)', 'Antes de la consulta');
    typeIn(title, 'Título del cuestionario (inglés)', 'Before the visit');
    typeIn(cards()[0]!, 'Pregunta (español)', '¿Qué le trae a la consulta?');
    typeIn(cards()[0]!, 'Pregunta (inglés)', 'What brings you to the visit?');

    expect(within(phone()).getByText('Antes de la consulta')).toBeTruthy();
    expect(within(phone()).getByLabelText('¿Qué le trae a la consulta?')).toBeTruthy();
    await userEvent.click(within(screen.getByTestId('builder-preview')).getByText('Inglés'));
    expect(within(phone()).getByLabelText('What brings you to the visit?')).toBeTruthy();

    expect(screen.getByTestId('builder-version-note').textContent).toBe(
      'Los pacientes que ya respondieron conservan la versión que respondieron.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Publicar la versión 1' }));
    await waitFor(() => expect(currentPath(router)).toBe(`/admin/questionnaires/${saved.id}`), slow);
    const [sent] = api.requestsTo('POST /api/v1/questionnaires');
    const body = JSON.parse(sent!.body.toString('utf8')) as {
      questionnaire: { title: string; item: { text: string }[] };
    };
    expect(body.questionnaire.title).toBe('Antes de la consulta');
    expect(body.questionnaire.item.map((item) => item.text)).toEqual(['¿Qué le trae a la consulta?']);
  });

  it('shows a question only when the earlier answer calls for it, in the preview too', async () => {
    renderApp('/admin/questionnaires/new');
    await screen.findByTestId('builder-title', {}, slow);
    const [first] = cards();
    fireEvent.change(within(first!).getByLabelText('Tipo de «Pregunta 1»'), { target: { value: 'boolean' } });
    typeIn(first!, 'Pregunta (español)', '¿Fuma?');
    typeIn(first!, 'Pregunta (inglés)', 'Do you smoke?');
    fireEvent.change(screen.getByLabelText('Tipo de la pregunta nueva'), { target: { value: 'integer' } });
    await userEvent.click(screen.getByRole('button', { name: 'Añadir una pregunta' }));
    const second = cards()[1]!;
    typeIn(second, 'Pregunta (español)', '¿Cuántos cigarrillos al día?');
    typeIn(second, 'Pregunta (inglés)', 'How many cigarettes a day?');
    fireEvent.change(within(second).getByLabelText('Mostrar'), {
      target: { value: within(second).getByRole('option', { name: '¿Fuma?' }).getAttribute('value') },
    });
    fireEvent.change(within(second).getByLabelText('Cuando la respuesta sea'), { target: { value: 'true' } });

    expect(within(phone()).queryByLabelText('¿Cuántos cigarrillos al día?')).toBeNull();
    await userEvent.click(within(phone()).getByLabelText('Sí'));
    expect(within(phone()).getByText('¿Cuántos cigarrillos al día?')).toBeTruthy();
  });

  it('moves and removes questions', async () => {
    renderApp('/admin/questionnaires/new');
    await screen.findByTestId('builder-title', {}, slow);
    typeIn(cards()[0]!, 'Pregunta (español)', 'Primera');
    fireEvent.change(screen.getByLabelText('Tipo de la pregunta nueva'), { target: { value: 'date' } });
    await userEvent.click(screen.getByRole('button', { name: 'Añadir una pregunta' }));
    typeIn(cards()[1]!, 'Pregunta (español)', 'Segunda');
    await userEvent.click(screen.getByRole('button', { name: 'Bajar «Primera»' }));
    expect(
      cards().map((card) => within(card).getByLabelText<HTMLInputElement>('Pregunta (español)').value),
    ).toEqual(['Segunda', 'Primera']);
    await userEvent.click(screen.getByRole('button', { name: 'Quitar «Segunda»' }));
    expect(cards()).toHaveLength(1);
  });

  it('names what is missing before publishing and sends nothing', async () => {
    renderApp('/admin/questionnaires/new');
    await screen.findByTestId('builder-title', {}, slow);
    const [first] = cards();
    fireEvent.change(within(first!).getByLabelText('Tipo de «Pregunta 1»'), { target: { value: 'choice' } });
    typeIn(first!, 'Pregunta (español)', 'Color');
    await userEvent.click(screen.getByRole('button', { name: 'Publicar la versión 1' }));
    const problems = await screen.findByTestId('builder-problems');
    expect(problems.textContent).toContain('Escriba el título del cuestionario en español y en inglés.');
    expect(problems.textContent).toContain('Escriba «Color» en español y en inglés.');
    expect(problems.textContent).toContain('Escriba cada opción de «Color» en español y en inglés.');
    expect(api.requestsTo('POST /api/v1/questionnaires')).toHaveLength(0);
  });

  it("shows the server's 422 naming the item", async () => {
    const current = detail({
      questionnaire: {
        ...toQuestionnaire({ titleEs: 'Antes de la consulta', titleEn: 'Before the visit', items: [] }),
        item: [{ linkId: 'q1', type: 'string', text: 'Nombre', _text: { extension: [] } }],
      },
    });
    api.routes[`GET /api/v1/questionnaires/${current.id}`] = (_request, response) =>
      sendJson(response, 200, current);
    api.routes[`POST /api/v1/questionnaires/${current.id}/versions`] = (_request, response) =>
      sendError(response, 422, 'UNPROCESSABLE', {
        problems: [
          {
            linkId: 'q1',
            problem: 'missingText',
            itemText: 'Nombre',
            message: 'Escriba «Nombre» en español y en inglés (servidor).',
          },
        ],
      });
    renderApp(`/admin/questionnaires/${current.id}`);
    const [first] = await screen.findAllByTestId('builder-item', {}, slow);
    typeIn(first!, 'Pregunta (inglés)', 'Name');
    await userEvent.click(screen.getByRole('button', { name: 'Publicar la versión 2' }));
    expect((await screen.findByTestId('builder-problems')).textContent).toContain(
      'Escriba «Nombre» en español y en inglés (servidor).',
    );
  });

  it('asks before leaving with unpublished changes', async () => {
    renderApp('/admin/questionnaires/new');
    await screen.findByTestId('builder-title', {}, slow);
    typeIn(cards()[0]!, 'Pregunta (español)', 'Algo');
    await userEvent.click(screen.getByRole('link', { name: '← Todos los cuestionarios' }));
    expect(await screen.findByTestId('builder-leave-dialog')).toBeTruthy();
  });

  it('keeps a shipped instrument read-only and previews it with its own wording', async () => {
    const shipped = detail({
      id: '00000000-0000-4000-8000-000000000009',
      title: {
        es: 'Cuestionario sobre la salud del paciente (PHQ-9)',
        en: 'Patient Health Questionnaire (PHQ-9)',
      },
      shipped: true,
      canEdit: false,
      questionnaire: { ...phq9Questionnaire, resourceType: 'Questionnaire' },
    });
    api.routes[`GET /api/v1/questionnaires/${shipped.id}`] = (_request, response) =>
      sendJson(response, 200, shipped);
    api.routes[`POST /api/v1/questionnaires/${shipped.id}/assignments`] = (request, response) =>
      sendJson(response, 200, {
        ...shipped,
        assignments: [
          {
            id: '00000000-0000-4000-8000-0000000000a1',
            specialty: null,
            doctor: { id: doctorId, name: 'Ana Pérez' },
          },
        ],
        ...(request.json() === null ? {} : {}),
      });
    renderApp(`/admin/questionnaires/${shipped.id}`);
    expect(await screen.findByTestId('builder-read-only', {}, slow)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Publicar/ })).toBeNull();
    expect(within(phone()).getByText('Poco interés o placer en hacer cosas')).toBeTruthy();
  });
});
