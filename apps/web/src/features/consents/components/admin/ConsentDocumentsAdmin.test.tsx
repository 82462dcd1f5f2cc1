import type { ConsentDocumentAdmin } from '@telemedicina/shared/consents';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { matchEmptyMediaQuery } from '../../../../components/list-table/testing';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../../test/fake-api';
import { sendJson } from '../../../../test/http-server';
import { currentPath, renderApp } from '../../../../test/render-app';

const slow = { timeout: 10_000 };

const telemedicine: ConsentDocumentAdmin = {
  id: '5b0a3a1e-0000-4000-8000-000000000001',
  kind: 'telemedicine',
  isSystem: true,
  current: {
    id: 'v-2',
    version: 2,
    titleEs: 'Consentimiento informado para la atención por telemedicina',
    titleEn: 'Informed consent to care by telemedicine',
    bodyEs: 'Texto en español.\nSegunda línea.',
    bodyEn: 'English text.',
    publishedAt: '2026-11-27T23:30:00.000Z',
  },
  versions: [
    { id: 'v-1', version: 1, publishedAt: '2026-10-01T10:00:00.000Z' },
    { id: 'v-2', version: 2, publishedAt: '2026-11-27T23:30:00.000Z' },
  ],
  signaturesCount: 5,
  currentSignersCount: 1,
};

describe('consent documents editor against a real HTTP server', { timeout: 30_000 }, () => {
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
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['settings.manage'] }));
    api.routes['GET /api/v1/admin/consent-documents'] = (_request, response) =>
      sendJson(response, 200, { items: [telemedicine] });
  });

  it('lists each document with its kind, current version, date in the account zone and who signed it', async () => {
    renderApp('/admin/consent-documents');
    const row = await screen.findByTestId('consent-document-row', {}, slow);
    expect(within(row).getByTestId('consent-document-title').textContent).toBe(
      'Consentimiento informado para la atención por telemedicina',
    );
    expect(row.textContent).toContain('Telemedicina');
    // 23:30 UTC on the 27th is already the 28th in the account's zone (Madrid in sampleMe).
    expect(within(row).getByTestId('consent-document-version').textContent).toMatch(/v2 del 28/);
    expect(within(row).getByTestId('consent-document-signers').textContent).toBe(
      '1 paciente firmó la versión actual',
    );
  });

  it('shows both languages side by side, previews as the patient reads it and publishes the next version', async () => {
    const user = userEvent.setup();
    api.routes[`POST /api/v1/admin/consent-documents/${telemedicine.id}/versions`] = (request, response) =>
      sendJson(response, 200, {
        ...telemedicine,
        current: { ...telemedicine.current, ...(request.json() as object), id: 'v-3', version: 3 },
      });
    const { router } = renderApp('/admin/consent-documents');
    await user.click(await screen.findByTestId('consent-document-edit', {}, slow));
    await waitFor(() => expect(currentPath(router)).toBe(`/admin/consent-documents/${telemedicine.id}`));
    const spanish = await screen.findByTestId('consent-editor-es', {}, slow);
    const english = screen.getByTestId('consent-editor-en');
    expect(within(spanish).getByTestId<HTMLTextAreaElement>('consent-bodyEs').value).toBe(
      telemedicine.current.bodyEs,
    );
    expect(within(english).getByTestId<HTMLInputElement>('consent-titleEn').value).toBe(
      telemedicine.current.titleEn,
    );
    expect(screen.getByTestId('consent-publish-notice').textContent).toContain(
      'A los pacientes con citas próximas se les pedirá que den su consentimiento otra vez',
    );

    await user.type(within(english).getByTestId('consent-bodyEn'), ' Updated.');
    await user.click(screen.getByRole('radio', { name: 'Vista previa en inglés' }));
    const preview = await screen.findByTestId('consent-preview');
    expect(within(preview).getByTestId('consent-preview-title').textContent).toBe(
      'Informed consent to care by telemedicine',
    );
    expect(within(preview).getByTestId('consent-preview-body').textContent).toBe('English text. Updated.');

    await user.click(screen.getByTestId('consent-editor-submit'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/consent-documents'));
    expect(
      JSON.parse(
        api
          .requestsTo(`POST /api/v1/admin/consent-documents/${telemedicine.id}/versions`)[0]!
          .body.toString(),
      ),
    ).toEqual({
      titleEs: telemedicine.current.titleEs,
      titleEn: telemedicine.current.titleEn,
      bodyEs: telemedicine.current.bodyEs,
      bodyEn: 'English text. Updated.',
    });
  });

  it('creates a document; an empty language is said on its field and nothing is sent until it is written', async () => {
    const user = userEvent.setup();
    api.routes['POST /api/v1/admin/consent-documents'] = (request, response) =>
      sendJson(response, 201, { ...telemedicine, id: 'new-doc', ...(request.json() as object) });
    const { router } = renderApp('/admin/consent-documents/new');
    const spanish = await screen.findByTestId('consent-editor-es', {}, slow);
    await user.selectOptions(screen.getByTestId('consent-kind'), 'data_processing');
    await user.type(within(spanish).getByTestId('consent-titleEs'), 'Tratamiento de datos');
    await user.type(within(spanish).getByTestId('consent-bodyEs'), 'Texto.');
    const english = screen.getByTestId('consent-editor-en');
    await user.type(within(english).getByTestId('consent-titleEn'), 'Data processing');
    await user.click(screen.getByTestId('consent-editor-submit'));
    await waitFor(() =>
      expect(within(english).getByTestId('consent-bodyEn').getAttribute('aria-invalid')).toBe('true'),
    );
    expect(english.textContent).toContain('Este campo es obligatorio.');
    expect(api.requestsTo('POST /api/v1/admin/consent-documents')).toHaveLength(0);

    await user.type(within(english).getByTestId('consent-bodyEn'), 'Text.');
    await user.click(screen.getByTestId('consent-editor-submit'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/consent-documents'));
    expect(JSON.parse(api.requestsTo('POST /api/v1/admin/consent-documents')[0]!.body.toString())).toEqual({
      kind: 'data_processing',
      titleEs: 'Tratamiento de datos',
      titleEn: 'Data processing',
      bodyEs: 'Texto.',
      bodyEn: 'Text.',
    });
  });

  it('on a phone, puts the write and preview choices one under the other so none is cut off', async () => {
    const previous = window.matchMedia.bind(window);
    window.matchMedia = (query: string) => {
      const result = previous(query);
      return query === '(max-width: 36em)' ? { ...result, matches: true } : result;
    };
    try {
      renderApp(`/admin/consent-documents/${telemedicine.id}`);
      const views = await screen.findByTestId('consent-editor-view', {}, slow);
      expect(views.getAttribute('data-orientation')).toBe('vertical');
      expect(within(views).getByText('Vista previa en español')).toBeTruthy();
    } finally {
      window.matchMedia = previous;
    }
  });

  it('says a change is needed when the server finds nothing changed, and keeps the text', async () => {
    const user = userEvent.setup();
    api.routes[`POST /api/v1/admin/consent-documents/${telemedicine.id}/versions`] = (_request, response) =>
      sendError(response, 422, 'UNPROCESSABLE', { reason: 'consents.unchanged' });
    renderApp(`/admin/consent-documents/${telemedicine.id}`);
    await user.click(await screen.findByTestId('consent-editor-submit', {}, slow));
    expect((await screen.findByTestId('consent-editor-problem')).textContent).toBe(
      'No ha cambiado nada: una versión nueva necesita un texto distinto.',
    );
    expect(screen.getByTestId<HTMLTextAreaElement>('consent-bodyEs').value).toBe(telemedicine.current.bodyEs);
  });

  it('shows the section as not allowed without settings.manage, and asks the server nothing', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['records.read'] }));
    renderApp('/admin/consent-documents');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(api.requestsTo('GET /api/v1/admin/consent-documents')).toHaveLength(0);
  });
});
