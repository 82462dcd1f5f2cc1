import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };

const item = (index: number) => ({
  id: `m${index}`,
  to: `paciente${index}@correo.example`,
  subject: `Confirme su correo ${index}`,
  template: 'verify-email',
  language: 'es',
  status: index === 2 ? 'failed' : 'stored',
  error: index === 2 ? 'SMTP refused' : null,
  createdAt: '2026-03-02T17:45:00.000Z',
  sentAt: null,
});

describe('outbox against a real HTTP server', { timeout: 30_000 }, () => {
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
    api.routes['GET /api/v1/me'] = (_request, response) => sendJson(response, 200, sampleMe());
    api.routes['GET /api/v1/outbox'] = (request, response) => {
      const url = new URL(request.url, 'http://x');
      const page = Number(url.searchParams.get('page'));
      const q = url.searchParams.get('q');
      const data = q ? [item(7)] : [item(1 + (page - 1) * 2), item(2 + (page - 1) * 2)];
      sendJson(response, 200, { data, page, pageSize: 20, total: q ? 1 : 45 });
    };
    api.routes['GET /api/v1/outbox/m1'] = (_request, response) =>
      sendJson(response, 200, {
        ...item(1),
        html: '<p>Hola Ana</p><p><a href="https://clinica.example/verify-email?token=[hidden]">Confirmar</a></p><p><a href="https://clinica.example/ayuda">Ayuda</a></p><script>parent.alert(1)</script>',
        text: 'Hola Ana\n\nConfirme su correo: https://clinica.example/verify-email?token=[hidden]\n\nAyuda: https://clinica.example/ayuda\n',
        hiddenLinks: 1,
        attachments: [],
      });
    api.routes['GET /api/v1/outbox/m2'] = (_request, response) =>
      sendJson(response, 200, {
        ...item(2),
        template: 'appointment-booked',
        html: '<p>Cita confirmada</p>',
        text: 'Cita confirmada',
        hiddenLinks: 0,
        attachments: [
          {
            filename: 'cita.ics',
            contentType: 'text/calendar; charset=utf-8; method=REQUEST',
            size: 1536,
            isClinical: false,
          },
        ],
      });
    api.routes['GET /api/v1/outbox/m3'] = (_request, response) =>
      sendJson(response, 200, {
        ...item(3),
        template: 'visit-summary',
        html: '<p>Resumen</p>',
        text: 'Resumen',
        hiddenLinks: 0,
        attachments: [
          { filename: 'resumen-consulta.pdf', contentType: 'application/pdf', size: 2586, isClinical: true },
        ],
      });
  });

  it('lists the messages with status, recipient and date in the viewer zone, searches and pages', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/outbox');
    const rows = await screen.findAllByTestId('outbox-row', {}, slow);
    expect(rows.map((row) => row.getAttribute('data-id'))).toEqual(['m1', 'm2']);
    expect(within(rows[0]!).getByTestId('outbox-row-to').textContent).toBe('paciente1@correo.example');
    expect(within(rows[0]!).getByTestId('outbox-row-status').textContent).toBe('Guardado');
    expect(within(rows[1]!).getByTestId('outbox-row-status').textContent).toBe('Error');
    // The template reads as words, never its code: people do not read codes.
    expect(within(rows[0]!).getByTestId('outbox-row-template').textContent).toBe('Confirmación del correo');
    expect(rows[0]!.textContent).not.toContain('verify-email');
    expect(rows[0]!.textContent).toMatch(/18:45/);
    expect(api.requestsTo('GET /api/v1/outbox')[0]!.url).toBe('/api/v1/outbox?page=1&pageSize=20');

    await user.click(screen.getByTestId('pagination-page-2'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/outbox?page=2'));
    expect(await screen.findByText('Confirme su correo 3')).toBeTruthy();

    await user.type(screen.getByTestId('section-search'), 'paciente7');
    await waitFor(() =>
      expect(api.requestsTo('GET /api/v1/outbox').at(-1)!.url).toBe(
        '/api/v1/outbox?page=1&pageSize=20&q=paciente7',
      ),
    );
    expect(await screen.findByText('Confirme su correo 7')).toBeTruthy();
  });

  it('opens a message: sanitized HTML in a sandboxed frame and the text version with clickable links; a hidden secret link is said so and not clickable', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/outbox');
    await user.click((await screen.findAllByTestId('outbox-row-open', {}, slow))[0]!);
    await waitFor(() => expect(currentPath(router)).toBe('/admin/outbox?message=m1'));
    const dialog = await screen.findByTestId('outbox-message');
    expect(within(dialog).getByTestId('outbox-message-subject').textContent).toBe('Confirme su correo 1');
    expect(within(dialog).getByTestId('outbox-message-to').textContent).toBe('paciente1@correo.example');

    const frame = within(dialog).getByTestId<HTMLIFrameElement>('outbox-message-html');
    expect(frame.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    const document = frame.getAttribute('srcdoc') ?? '';
    expect(document).toContain('href="https://clinica.example/ayuda"');
    expect(document).not.toContain('verify-email?token=[hidden]"');
    expect(document).not.toContain('<script');
    expect(within(dialog).getByTestId('outbox-hidden-links').textContent).toContain(
      'Por seguridad, el enlace personal',
    );

    await user.click(within(dialog).getByTestId('outbox-message-tab-text'));
    const link = await within(dialog).findByTestId('outbox-message-link');
    expect(link.getAttribute('href')).toBe('https://clinica.example/ayuda');
    expect(link.getAttribute('target')).toBeNull();
    const hidden = within(dialog).getByTestId('outbox-message-hidden-link');
    expect(hidden.tagName).not.toBe('A');
    expect(hidden.textContent).toBe('https://clinica.example/verify-email · enlace oculto');
    expect(within(dialog).getByTestId('outbox-message-text').textContent).toContain('Hola Ana');
  });

  it('offers each attachment as a download link with its type and size; none when there are none', async () => {
    const user = userEvent.setup();
    renderApp('/admin/outbox?message=m2');
    const dialog = await screen.findByTestId('outbox-message', {}, slow);
    const link = await within(dialog).findByTestId('outbox-attachment', {}, slow);
    expect(link.getAttribute('href')).toBe('/api/v1/outbox/m2/attachments/0');
    expect(link.getAttribute('download')).toBe('cita.ics');
    expect(link.textContent).toBe('cita.ics');
    expect(link.getAttribute('aria-label')).toBe('Descargar cita.ics');
    const list = within(dialog).getByTestId('outbox-attachments');
    expect(list.textContent).toContain('Archivos adjuntos');
    expect(list.textContent).toMatch(/text\/calendar · 1,5\s*kB/);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('outbox-message')).toBeNull());
    await user.click((await screen.findAllByTestId('outbox-row-open', {}, slow))[0]!);
    const plain = await screen.findByTestId('outbox-message');
    await within(plain).findByTestId('outbox-message-subject');
    expect(within(plain).queryByTestId('outbox-attachments')).toBeNull();
  });

  it('shows a clinical attachment by name, type and size only, with no download link', async () => {
    renderApp('/admin/outbox?message=m3');
    const dialog = await screen.findByTestId('outbox-message', {}, slow);
    const clinical = await within(dialog).findByTestId('outbox-attachment-clinical', {}, slow);
    expect(clinical.textContent).toContain('resumen-consulta.pdf');
    expect(within(dialog).queryByTestId('outbox-attachment')).toBeNull();
    expect(dialog.querySelector('a[href*="/attachments/"]')).toBeNull();
    const list = within(dialog).getByTestId('outbox-attachments');
    expect(list.textContent).toMatch(/application\/pdf · 2,5\s*kB/);
    expect(list.textContent).toContain('Archivo clínico: la bandeja no lo guarda');
  });

  it('narrows the list to one delivery status, kept in the address', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/outbox?status=failed');
    await screen.findAllByTestId('outbox-row', {}, slow);
    expect(api.requestsTo('GET /api/v1/outbox')[0]!.url).toBe(
      '/api/v1/outbox?page=1&pageSize=20&status=failed',
    );
    const filter = screen.getByTestId<HTMLSelectElement>('outbox-filter-status');
    expect(filter.value).toBe('failed');

    await user.click(screen.getByTestId('pagination-page-2'));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/outbox?status=failed&page=2'));
    await user.selectOptions(filter, 'sent');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/outbox?status=sent'));
    await waitFor(() =>
      expect(api.requestsTo('GET /api/v1/outbox').at(-1)!.url).toBe(
        '/api/v1/outbox?page=1&pageSize=20&status=sent',
      ),
    );
    await user.selectOptions(filter, '');
    await waitFor(() => expect(currentPath(router)).toBe('/admin/outbox'));
    expect(
      within(filter)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Todos', 'Guardado', 'En cola', 'Enviado', 'Error']);
  });

  it('is not offered and not asked for without outbox.read', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: [] }));
    renderApp('/admin/outbox');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('admin-nav-outbox')).toBeNull();
    expect(api.requestsTo('GET /api/v1/outbox')).toHaveLength(0);
  });
});
