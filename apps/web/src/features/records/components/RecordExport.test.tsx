import type { Chart } from '@telemedicina/shared/records';
import type { ServerResponse } from 'node:http';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { matchEmptyMediaQuery } from '../../../components/list-table/testing';
import { fileNameFromDisposition } from '../../../lib/api-client';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };
const patientId = '11111111-1111-4111-8111-111111111111';

function chartOf(access: Chart['access']): Chart {
  return {
    patientId,
    access,
    emergencyExpiresAt: null,
    demographics: {
      name: 'Pablo Paciente',
      dateOfBirth: '1984-04-14',
      sex: 'male',
      phone: null,
      email: 'pablo@example.test',
      language: 'es',
      address: null,
    },
    identityDocument: { type: null, number: null },
    emergencyContact: { name: null, phone: null, relation: null },
    visits: [],
    clinical:
      access === 'administrative'
        ? null
        : {
            bloodType: null,
            allergies: [],
            conditions: [],
            medications: [],
            prescriptions: [],
            documents: [],
          },
  };
}

/** A ZIP-like body sent in two parts, so the client sees it arrive in chunks. */
const zipBytes = Buffer.concat([
  Buffer.from('PK\u0003\u0004'),
  Buffer.alloc(70_000, 7),
  Buffer.from('PK\u0005\u0006'),
]);

async function sendZip(response: ServerResponse, fileName: string, rest: Promise<void> = Promise.resolve()) {
  response.writeHead(200, {
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="${fileName}"`,
  });
  response.write(zipBytes.subarray(0, 40_000));
  await rest;
  response.end(zipBytes.subarray(40_000));
}

describe('record export buttons against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let restoreMatchMedia: () => void;
  const saved: { name: string; file: Blob }[] = [];
  const originalUrls = {
    createObjectURL: URL.createObjectURL.bind(URL),
    revokeObjectURL: URL.revokeObjectURL.bind(URL),
  };

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
    saved.length = 0;
    // jsdom has no object URLs and does not download: record what would be saved, and under which name.
    const urls = new Map<string, Blob>();
    URL.createObjectURL = (blob: Blob) => {
      const url = `blob:test/${urls.size}`;
      urls.set(url, blob);
      return url;
    };
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const file = urls.get(this.href);
      if (file !== undefined) {
        saved.push({ name: this.download, file });
      }
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    URL.createObjectURL = originalUrls.createObjectURL;
    URL.revokeObjectURL = originalUrls.revokeObjectURL;
  });

  it('lets the patient download their record as a ZIP named by the server', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(
        response,
        200,
        sampleMe({ permissions: ['records.read.own'], user: { id: patientId, name: 'Pablo Paciente' } }),
      );
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      sendJson(response, 200, chartOf('self'));
    let sendRest = () => {};
    const rest = new Promise<void>((resolve) => (sendRest = resolve));
    api.routes['GET /api/v1/me/record/export'] = (_request, response) =>
      sendZip(response, 'historia-clinica-2026-05-04.zip', rest);
    const user = userEvent.setup();
    renderApp('/admin/my-record');
    const button = await screen.findByTestId('record-export-download', {}, slow);
    expect(button.textContent).toBe('Descargar mi historia clínica');
    await user.click(button);
    // The first part has arrived: the button says how much, and cannot be pressed again meanwhile.
    await waitFor(() => expect(button.textContent).toMatch(/^Descargando… \d/), slow);
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(saved).toEqual([]);
    sendRest();
    await waitFor(() => expect(saved).toHaveLength(1), slow);
    expect(saved[0]?.name).toBe('historia-clinica-2026-05-04.zip');
    expect(saved[0]?.file.size).toBe(zipBytes.length);
    expect(saved[0]?.file.type).toBe('application/zip');
    expect(api.requestsTo('GET /api/v1/me/record/export')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getByTestId('record-export-download').textContent).toBe('Descargar mi historia clínica'),
    );
    expect(screen.queryByTestId('record-export-error')).toBeNull();
  });

  it('tells the patient, in their language, when they must wait before trying again', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(
        response,
        200,
        sampleMe({ permissions: ['records.read.own'], user: { id: patientId, language: 'en' } }),
      );
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      sendJson(response, 200, chartOf('self'));
    api.routes['GET /api/v1/me/record/export'] = (_request, response) =>
      sendError(response, 429, 'RATE_LIMITED', { retryAfterSeconds: 40 });
    const user = userEvent.setup();
    renderApp('/admin/my-record', 'en');
    const button = await screen.findByTestId('record-export-download', {}, slow);
    expect(button.textContent).toBe('Download my medical record');
    await user.click(button);
    const error = await screen.findByTestId('record-export-error', {}, slow);
    expect(error.getAttribute('role')).toBe('alert');
    expect(error.textContent).toMatch(/40 seconds/);
    expect(saved).toEqual([]);
  });

  it('asks an administrator for a reason, then downloads the export', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['patients.read.admin', 'records.export'] }));
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      sendJson(response, 200, chartOf('administrative'));
    let isFirst = true;
    api.routes[`POST /api/v1/patients/${patientId}/export`] = (_request, response) => {
      if (isFirst) {
        isFirst = false;
        sendError(response, 404, 'NOT_FOUND');
        return;
      }
      return sendZip(response, 'historia-clinica-pablo-paciente-2026-05-04.zip');
    };
    const user = userEvent.setup();
    renderApp(`/admin/patients/${patientId}`);
    await user.click(await screen.findByTestId('chart-export-open', {}, slow));
    const dialog = await screen.findByTestId('record-export-dialog');
    expect(within(dialog.closest('[role="dialog"]') ?? dialog).getByText(/Pablo Paciente/)).toBeTruthy();
    expect(dialog.textContent).toContain('auditoría');

    await user.click(within(dialog).getByTestId('record-export-confirm'));
    await screen.findByText('Explique el motivo con al menos 10 caracteres.');
    expect(api.requestsTo(`POST /api/v1/patients/${patientId}/export`)).toHaveLength(0);

    await user.type(screen.getByTestId('record-export-reason'), 'Solicitud escrita del paciente');
    await user.click(within(dialog).getByTestId('record-export-confirm'));
    const failure = await screen.findByTestId('record-export-failure', {}, slow);
    expect(failure.textContent).not.toContain('errors.');
    expect(failure.textContent?.length).toBeGreaterThan(5);
    expect(saved).toEqual([]);

    await user.click(within(dialog).getByTestId('record-export-confirm'));
    await waitFor(() => expect(saved).toHaveLength(1), slow);
    expect(saved[0]?.name).toBe('historia-clinica-pablo-paciente-2026-05-04.zip');
    await waitFor(() => expect(screen.queryByTestId('record-export-dialog')).toBeNull(), slow);
    const requests = api.requestsTo(`POST /api/v1/patients/${patientId}/export`);
    expect(requests).toHaveLength(2);
    expect(JSON.parse(requests[1]!.body.toString('utf8'))).toEqual({
      reason: 'Solicitud escrita del paciente',
    });
  });

  it('shows no export action to staff without records.export', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['patients.read.admin'] }));
    api.routes[`GET /api/v1/patients/${patientId}/chart`] = (_request, response) =>
      sendJson(response, 200, chartOf('administrative'));
    renderApp(`/admin/patients/${patientId}`);
    await screen.findByTestId('chart', {}, slow);
    expect(screen.queryByTestId('chart-export-open')).toBeNull();
    expect(screen.queryByTestId('record-export-download')).toBeNull();
  });
});

describe('fileNameFromDisposition', () => {
  it('prefers the UTF-8 name and never keeps a folder', () => {
    expect(
      fileNameFromDisposition(`attachment; filename="a.zip"; filename*=UTF-8''historia%20cl%C3%ADnica.zip`),
    ).toBe('historia clínica.zip');
    expect(fileNameFromDisposition('attachment; filename="../../etc/x.zip"')).toBe('x.zip');
    expect(fileNameFromDisposition('attachment; filename=plain.zip')).toBe('plain.zip');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
