import { Readable } from 'node:stream';
import type { ChartDocument } from '@telemedicina/shared/documents';
import { describe, expect, it } from 'vitest';
import { files } from '../../db/schema.js';
import { pngBomb, solidPng, tinyPdf } from '../../test/document-fixtures.js';
import { nextRemoteAddress, requestHeaders } from '../../test/factories.js';
import { writeSetting } from '../settings/settings.repository.js';
import { settingKeys } from '../settings/settings.service.js';
import {
  clock,
  context,
  exeBytes,
  patient,
  pdf,
  sessionOf,
  storedState,
  upload,
  setUpChartDocuments,
} from './documents-test-support.js';

setUpChartDocuments();

describe('refused uploads store nothing', () => {
  async function expectRefused(
    response: Awaited<ReturnType<typeof upload>>,
    status: number,
    code: string,
    before: Awaited<ReturnType<typeof storedState>>,
  ) {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ error: { code } });
    expect(await storedState()).toEqual(before);
  }

  it('refuses a file over the clinic limit (413 with maxBytes)', async () => {
    await writeSetting(context.db, settingKeys.maxFileSizeMb, 1, { now: clock.now() });
    try {
      const before = await storedState();
      const big = Buffer.concat([tinyPdf(), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
      const response = await upload(patient, patient.id, {
        name: 'grande.pdf',
        type: 'application/pdf',
        bytes: big,
      });
      await expectRefused(response, 413, 'PAYLOAD_TOO_LARGE', before);
      expect(response.json()).toMatchObject({ error: { details: { maxBytes: 1024 * 1024 } } });
    } finally {
      await writeSetting(context.db, settingKeys.maxFileSizeMb, 10, { now: clock.now() });
    }
  });

  it('refuses a declared huge body before reading it', async () => {
    const before = await storedState();
    let pulled = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const endless = new Readable({
      read() {
        pulled += chunk.length;
        this.push(pulled > 200 * 1024 * 1024 ? null : chunk);
      },
    });
    const response = await context.app.inject({
      method: 'POST',
      url: `/api/v1/patients/${patient.id}/documents`,
      headers: {
        ...requestHeaders(await sessionOf(patient)),
        'content-type': 'multipart/form-data; boundary=----x',
        'content-length': String(200 * 1024 * 1024),
      },
      remoteAddress: nextRemoteAddress(),
      payload: endless,
    });
    await expectRefused(response, 413, 'PAYLOAD_TOO_LARGE', before);
    // Far less than the 200 MB offered was read (the stream's own buffering aside).
    expect(pulled).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses content of the wrong kind whatever its name and claimed type (415)', async () => {
    const before = await storedState();
    await expectRefused(
      await upload(patient, patient.id, { name: 'informe.pdf', type: 'application/pdf', bytes: exeBytes }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      before,
    );
    const html = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');
    await expectRefused(
      await upload(patient, patient.id, { name: 'informe.pdf', type: 'application/pdf', bytes: html }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      before,
    );
    await expectRefused(
      await upload(patient, patient.id, { name: 'x.png', type: 'image/png', bytes: exeBytes }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      before,
    );
    // Even when plain text is allowed, markup is not.
    await writeSetting(context.db, settingKeys.allowedKinds, ['pdf', 'png', 'txt'], { now: clock.now() });
    try {
      await expectRefused(
        await upload(patient, patient.id, { name: 'notas.txt', type: 'text/plain', bytes: html }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        before,
      );
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
      await expectRefused(
        await upload(patient, patient.id, { name: 'logo.txt', type: 'text/plain', bytes: svg }),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        before,
      );
    } finally {
      await writeSetting(context.db, settingKeys.allowedKinds, ['pdf', 'png', 'jpeg', 'webp'], {
        now: clock.now(),
      });
    }
  });

  it('answers malformed or greedy multipart envelopes with a 4xx, never a 500', async () => {
    const before = await storedState();
    const session = await sessionOf(patient);
    const raw = (contentType: string, payload: Buffer | string) =>
      context.app.inject({
        method: 'POST',
        url: `/api/v1/patients/${patient.id}/documents`,
        headers: { ...requestHeaders(session), 'content-type': contentType },
        remoteAddress: nextRemoteAddress(),
        payload,
      });
    const manyFields = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`f${index}`, 'x']));
    const cases = [
      await upload(patient, patient.id, pdf(), manyFields),
      await upload(patient, patient.id, {
        name: 'vacío.pdf',
        type: 'application/pdf',
        bytes: Buffer.alloc(0),
      }),
      await raw('multipart/form-data; boundary=----b', '----b\r\nnot a part'),
      await raw('multipart/form-data', 'no boundary at all'),
      await raw(
        'multipart/form-data; boundary=b',
        '--b\r\nContent-Disposition: form-data; name="other"; filename="a.pdf"\r\n\r\n%PDF-1.4\r\n--b--\r\n',
      ),
    ];
    for (const response of cases) {
      expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, response.body).toBeLessThan(500);
      expect(response.json<{ error: { code: string } }>().error.code).toBeTruthy();
    }
    expect(await storedState()).toEqual(before);
  });

  it('refuses an image bomb by its header dimensions (422 IMAGE_TOO_LARGE)', async () => {
    const before = await storedState();
    const bomb = pngBomb(10_000, 10_000);
    expect(bomb.length).toBeLessThan(2_000);
    const response = await upload(patient, patient.id, { name: 'bomba.png', type: 'image/png', bytes: bomb });
    await expectRefused(response, 422, 'IMAGE_TOO_LARGE', before);
    expect(response.json()).toMatchObject({
      error: { details: { width: 10_000, height: 10_000, maxPixels: 50_000_000 } },
    });
  });

  it('keeps a spoofed extension and hostile names only as safe labels, inside the uploads folder', async () => {
    const before = await storedState();
    const spoofed = await upload(patient, patient.id, {
      name: 'x.exe',
      type: 'application/x-msdownload',
      bytes: solidPng(2, 2),
    });
    expect(spoofed.statusCode, spoofed.body).toBe(201);
    expect(spoofed.json<ChartDocument>()).toMatchObject({ name: 'x.png', contentType: 'image/png' });

    const hostile: [string, string][] = [
      ['../../etc/passwd', 'passwd.pdf'],
      ['..\\..\\win.ini', 'win.pdf'],
      ['re\u0000port\u0007.pdf', 'report.pdf'],
      ['factura\u202Efdp.exe', 'facturafdp.pdf'],
      ['....', 'file.pdf'],
    ];
    for (const [name, label] of hostile) {
      const response = await upload(patient, patient.id, pdf(name));
      expect(response.statusCode, `${JSON.stringify(name)}: ${response.body}`).toBe(201);
      expect(response.json<ChartDocument>().name, JSON.stringify(name)).toBe(label);
    }
    const after = await storedState();
    const added = after.onDisk.filter((file) => !before.onDisk.includes(file));
    expect(added).toHaveLength(1 + hostile.length);
    for (const file of added) {
      expect(file).toMatch(/^uploads\/documents\/[0-9a-f-]{36}\.(pdf|png)$/);
    }
    const storagePaths = await context.db.select({ storagePath: files.storagePath }).from(files);
    for (const { storagePath } of storagePaths) {
      expect(storagePath).not.toMatch(/\.\.|passwd|win\.ini/);
    }
  });
});
