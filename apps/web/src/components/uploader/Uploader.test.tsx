import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../../test/http-server';
import { renderWithProviders } from '../../test/render';
import { Uploader } from './Uploader';
import type { UploadManagerOptions } from './upload-manager';
import { useUploadManager } from './use-upload-manager';

function Harness({ options }: { options: UploadManagerOptions }) {
  const { manager, items } = useUploadManager(options);
  return <Uploader manager={manager} items={items} options={options} />;
}

describe('Uploader', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      if (request.url === '/broken') {
        sendJson(response, 415, { error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Nope' } });
        return;
      }
      sendJson(response, 201, { ok: true });
    });
    jsdom.reconfigure({ url: `${server.origin}/admin/components` });
  });
  afterAll(async () => {
    await server.close();
  });

  it('describes the limits, uploads accepted files and explains refused ones in the current language', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const options: UploadManagerOptions = {
      url: '/files',
      accept: ['image/*'],
      maxFileSize: 1_024,
      maxFiles: 2,
    };
    renderWithProviders(<Harness options={options} />);
    expect(screen.getByTestId('uploader-dropzone').textContent).toContain('Tipos: image/*');
    expect(screen.getByTestId('uploader-dropzone').textContent).toContain('máximo 1 kB por archivo');

    await user.upload(screen.getByTestId('uploader-input'), [
      new File(['x'], 'foto.png', { type: 'image/png' }),
      new File(['x'], 'informe.pdf', { type: 'application/pdf' }),
      new File([new Uint8Array(2_000)], 'enorme.png', { type: 'image/png' }),
    ]);
    const rows = screen.getAllByTestId('uploader-item');
    expect(rows.map((row) => row.getAttribute('data-file-name'))).toEqual([
      'foto.png',
      'informe.pdf',
      'enorme.png',
    ]);
    await waitFor(() => expect(rows[0]!.getAttribute('data-status')).toBe('done'));
    expect(within(rows[0]!).getByTestId('uploader-item-status').textContent).toBe('Subido');
    expect(within(rows[1]!).getByTestId('uploader-item-message').textContent).toBe(
      'Tipo de archivo no admitido. Se aceptan: image/*.',
    );
    expect(within(rows[2]!).getByTestId('uploader-item-message').textContent).toBe(
      'El archivo supera el tamaño máximo de 1 kB.',
    );
    expect(server.requests.filter((request) => request.url === '/files')).toHaveLength(1);
  });

  it('translates the server error code of a failed upload and offers a retry', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness options={{ url: '/broken' }} />, { language: 'en' });
    await user.upload(
      screen.getByTestId('uploader-input'),
      new File(['x'], 'a.heic', { type: 'image/heic' }),
    );
    const row = screen.getByTestId('uploader-item');
    await waitFor(() => expect(row.getAttribute('data-status')).toBe('failed'));
    expect(within(row).getByTestId('uploader-item-message').textContent).toBe(
      'This type of file is not supported.',
    );
    expect(within(row).getByTestId('uploader-item-retry')).toBeTruthy();
    await user.click(within(row).getByTestId('uploader-item-remove'));
    expect(screen.queryByTestId('uploader-item')).toBeNull();
  });
});
