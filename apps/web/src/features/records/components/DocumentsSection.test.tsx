import type { ChartDocument } from '@telemedicina/shared/documents';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../../../test/http-server';
import { renderWithProviders } from '../../../test/render';
import { DocumentsSection } from './DocumentsSection';

const patientId = '11111111-1111-4111-8111-111111111111';
const slow = { timeout: 10_000 };

function documentOf(overrides: Partial<ChartDocument>): ChartDocument {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    name: 'Analítica.pdf',
    kind: 'upload',
    category: 'lab',
    contentType: 'application/pdf',
    size: 2048,
    width: null,
    height: null,
    uploadedBy: { id: patientId, name: 'Pablo Paciente', role: 'patient' },
    createdAt: '2026-05-04T09:00:00.000Z',
    appointmentId: null,
    removedAt: null,
    canRemove: true,
    ...overrides,
  };
}

const pdfDocument = documentOf({});
const imageDocument = documentOf({
  id: '33333333-3333-4333-8333-333333333333',
  name: 'Radiografía.png',
  category: 'imaging',
  contentType: 'image/png',
  width: 800,
  height: 600,
  uploadedBy: { id: 'd-1', name: 'Dra. Lucía', role: 'doctor' },
  canRemove: false,
});
const summaryDocument = documentOf({
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Resumen de la consulta.pdf',
  kind: 'visit_summary',
  category: 'report',
  canRemove: false,
});
const documents = [pdfDocument, imageDocument, summaryDocument];

describe('DocumentsSection', { timeout: 30_000 }, () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let uploadAnswer: { status: number; body: unknown };

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      if (request.method === 'POST' && request.url === `/api/v1/patients/${patientId}/documents`) {
        sendJson(response, uploadAnswer.status, uploadAnswer.body);
        return;
      }
      if (request.method === 'DELETE') {
        response.writeHead(204).end();
        return;
      }
      sendJson(response, 404, { error: { code: 'NOT_FOUND', message: 'Not here' } });
    });
    jsdom.reconfigure({ url: `${server.origin}/admin/my-record` });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    uploadAnswer = { status: 201, body: pdfDocument };
  });

  it('lists documents with category, size, who added them, a summary badge, and only allowed actions', () => {
    renderWithProviders(<DocumentsSection patientId={patientId} documents={documents} canUpload />);
    const rows = screen.getAllByTestId('document-row');
    expect(rows.map((row) => row.getAttribute('data-name'))).toEqual([
      'Analítica.pdf',
      'Radiografía.png',
      'Resumen de la consulta.pdf',
    ]);
    expect(rows[0]!.textContent).toContain('Análisis de laboratorio · 2 kB');
    expect(rows[0]!.textContent).toContain('Pablo Paciente (paciente)');
    expect(rows[1]!.textContent).toContain('Imagen médica');
    expect(rows[1]!.textContent).toContain('Dra. Lucía');
    expect(within(rows[2]!).getByTestId('document-summary-badge').textContent).toBe('Resumen de consulta');
    expect(within(rows[0]!).queryByTestId('document-remove')).not.toBeNull();
    expect(within(rows[1]!).queryByTestId('document-remove')).toBeNull();
    expect(within(rows[2]!).queryByTestId('document-remove')).toBeNull();
    const download = within(rows[1]!).getByTestId('document-download');
    expect(download.getAttribute('href')).toBe(
      `/api/v1/patients/${patientId}/documents/${imageDocument.id}/file?download=1`,
    );
    expect(download.getAttribute('download')).toBe('Radiografía.png');
    expect(screen.getByTestId('documents-upload')).toBeTruthy();
  });

  it('shows an empty state and no upload button to readers who may not upload', () => {
    renderWithProviders(<DocumentsSection patientId={patientId} documents={[]} canUpload={false} />, {
      language: 'en',
    });
    expect(screen.getByTestId('chart-documents').textContent).toContain('No documents yet.');
    expect(screen.queryByTestId('documents-upload')).toBeNull();
  });

  it('previews a PDF in a frame and an image with alt text', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DocumentsSection patientId={patientId} documents={documents} canUpload />);
    const [pdfRow, imageRow] = screen.getAllByTestId('document-row');
    await user.click(within(pdfRow!).getByTestId('document-open'));
    const frame = await screen.findByTestId('document-viewer-pdf');
    expect(frame.getAttribute('src')).toBe(`/api/v1/patients/${patientId}/documents/${pdfDocument.id}/file`);
    expect(frame.getAttribute('title')).toBe('Vista previa del PDF «Analítica.pdf»');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('document-viewer-pdf')).toBeNull());

    await user.click(within(imageRow!).getByTestId('document-view'));
    const image = await screen.findByTestId('document-viewer-image');
    expect(image.getAttribute('alt')).toBe('Imagen del documento «Radiografía.png»');
    expect(image.getAttribute('src')).toBe(
      `/api/v1/patients/${patientId}/documents/${imageDocument.id}/file`,
    );
  });

  it('removes a document after confirmation', async () => {
    const user = userEvent.setup();
    renderWithProviders(<DocumentsSection patientId={patientId} documents={documents} canUpload />);
    await user.click(within(screen.getAllByTestId('document-row')[0]!).getByTestId('document-remove'));
    const dialog = await screen.findByTestId('document-remove-confirm');
    expect(dialog.textContent).toContain('«Analítica.pdf» dejará de mostrarse');
    const before = server.requests.filter((request) => request.method === 'DELETE').length;
    await user.click(within(dialog).getByRole('button', { name: 'Retirar' }));
    await waitFor(() =>
      expect(server.requests.filter((request) => request.method === 'DELETE')).toHaveLength(before + 1),
    );
    expect(server.requests.filter((request) => request.method === 'DELETE').at(-1)?.url).toBe(
      `/api/v1/patients/${patientId}/documents/${pdfDocument.id}`,
    );
  });

  it('uploads with the chosen category and shows the server refusal translated', async () => {
    const user = userEvent.setup({ applyAccept: false });
    renderWithProviders(<DocumentsSection patientId={patientId} documents={[]} canUpload />);
    await user.click(screen.getByTestId('documents-upload'));
    await user.selectOptions(await screen.findByTestId('document-category', {}, slow), 'lab');
    const dialog = screen.getByRole('dialog');

    await user.upload(
      within(dialog).getByTestId('uploader-input'),
      new File(['%PDF-1.4 informe'], 'informe.pdf', { type: 'application/pdf' }),
    );
    const row = within(dialog).getByTestId('uploader-item');
    await waitFor(() => expect(row.getAttribute('data-status')).toBe('done'), slow);
    const sent = server.requests.filter((request) => request.method === 'POST').at(-1)!;
    const body = sent.body.toString('latin1');
    expect(body.indexOf('name="category"')).toBeGreaterThan(-1);
    expect(body.indexOf('name="category"')).toBeLessThan(body.indexOf('name="file"'));
    expect(body).toMatch(/name="category"\r\n\r\nlab\r\n/);

    uploadAnswer = {
      status: 422,
      body: { error: { code: 'IMAGE_TOO_LARGE', message: 'Too large', details: { maxPixels: 50_000_000 } } },
    };
    await user.upload(
      within(dialog).getByTestId('uploader-input'),
      new File(['x'], 'bomba.png', { type: 'image/png' }),
    );
    const failed = await waitFor(() => {
      const item = within(dialog)
        .getAllByTestId('uploader-item')
        .find((candidate) => candidate.getAttribute('data-file-name') === 'bomba.png');
      expect(item?.getAttribute('data-status')).toBe('failed');
      return item!;
    }, slow);
    expect(within(failed).getByTestId('uploader-item-message').textContent).toBe(
      'La imagen es demasiado grande (más de 50 megapíxeles). Redúzcala o envíela como PDF.',
    );
  });
});
