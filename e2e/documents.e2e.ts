import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openSignedIn } from './support/sign-in.js';
import { settle } from './support/settle.js';

let server: RunningServer;
let browser: BrowserHandle;
let patientId: string;

const shotDir = '/tmp/shots/documents';

async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: join(shotDir, `${name}.png`), fullPage: options.fullPage ?? false });
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A PNG with a diagonal gradient (so the viewer shows something recognisable). */
function gradientPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) {
      row[1 + x * 3] = Math.round((x / width) * 255);
      row[2 + x * 3] = 120;
      row[3 + x * 3] = Math.round((y / height) * 255);
    }
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG header declaring 10,000 × 10,000 pixels in a few hundred bytes. */
function bombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(10_000, 0);
  header.writeUInt32BE(10_000, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(512))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function makePdf(title: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const document = new PDFDocument({ size: 'A4', info: { Title: title } });
    const chunks: Buffer[] = [];
    document.on('data', (chunk: Buffer) => chunks.push(chunk));
    document.on('end', () => resolve(Buffer.concat(chunks)));
    document.fontSize(26).text(title);
    document.moveDown().fontSize(14).text('Hemoglobina 14,2 g/dL · Glucosa 92 mg/dL · Colesterol 180 mg/dL');
    document.end();
  });
}

let pdfBytes: Buffer;
const pngBytes = gradientPng(480, 320);

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  patientId = (await patient.request<{ user: { id: string } }>('GET', '/me')).body.user.id;
  pdfBytes = await makePdf('Analítica de sangre');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function uploadThroughDialog(
  page: Page,
  category: string,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<ReturnType<Page['getByTestId']>> {
  await page.getByTestId('documents-upload').click();
  await page.getByTestId('document-category').selectOption(category);
  await page.getByTestId('uploader-input').setInputFiles(file);
  const item = page.getByTestId('uploader-item').filter({ hasText: file.name }).last();
  await item.waitFor();
  return item;
}

/** The PDF frame really shows Chromium's PDF viewer (not a blocked-frame error page). */
async function expectPdfViewer(page: Page): Promise<void> {
  const frameElement = page.getByTestId('document-viewer-pdf');
  await frameElement.waitFor({ timeout: 20_000 });
  const handle = await frameElement.elementHandle();
  const frame = await handle?.contentFrame();
  expect(frame).toBeTruthy();
  await expect
    .poll(async () => frame!.evaluate(() => document.contentType).catch(() => 'not-ready'), {
      timeout: 20_000,
    })
    .toBe('application/pdf');
  // The viewer itself runs in a child frame of the PDF document.
  await expect.poll(() => frame!.childFrames().length, { timeout: 20_000 }).toBeGreaterThan(0);
  await settle(page);
}

/*
 * One journey in steps (each its own test, so a slow machine's time is counted per step and a
 * failure names the step): the patient's uploads and refusals, the doctor's previews and downloads,
 * the screens in both languages and widths, the patient's removal. Later steps use the earlier ones'
 * pages and documents.
 */
describe('chart documents', () => {
  let patient: Page;
  let doctor: Page;

  it('the patient uploads a PDF and a PNG; refusals from the server are explained in the list', async () => {
    patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    // The patient's portal: its navigation (header on desktop, bottom bar on phones).
    await patient.locator('[data-testid="portal-nav-myRecord"]:visible').click();
    await patient.getByTestId('chart-documents').waitFor({ timeout: 20_000 });

    const pdfItem = await uploadThroughDialog(patient, 'lab', {
      name: 'Analítica marzo.pdf',
      mimeType: 'application/pdf',
      buffer: pdfBytes,
    });
    await expect.poll(() => pdfItem.getAttribute('data-status'), { timeout: 20_000 }).toBe('done');
    await patient.getByTestId('document-category').selectOption('imaging');
    await patient.getByTestId('uploader-input').setInputFiles({
      name: 'Radiografía tórax.png',
      mimeType: 'image/png',
      buffer: pngBytes,
    });
    const pngItem = patient.getByTestId('uploader-item').filter({ hasText: 'Radiografía tórax.png' });
    await expect.poll(() => pngItem.getAttribute('data-status'), { timeout: 20_000 }).toBe('done');

    // Refused by the server: HTML dressed up as a PDF, and an image bomb.
    await patient.getByTestId('uploader-input').setInputFiles({
      name: 'factura.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('<!doctype html><html><script>alert(1)</script></html>'),
    });
    const htmlItem = patient.getByTestId('uploader-item').filter({ hasText: 'factura.pdf' });
    await expect.poll(() => htmlItem.getAttribute('data-status'), { timeout: 20_000 }).toBe('failed');
    expect(await htmlItem.getByTestId('uploader-item-message').textContent()).toBe(
      'Este tipo de archivo no está admitido.',
    );
    await patient.getByTestId('uploader-input').setInputFiles({
      name: 'bomba.png',
      mimeType: 'image/png',
      buffer: bombPng(),
    });
    const bombItem = patient.getByTestId('uploader-item').filter({ hasText: 'bomba.png' });
    await expect.poll(() => bombItem.getAttribute('data-status'), { timeout: 20_000 }).toBe('failed');
    expect(await bombItem.getByTestId('uploader-item-message').textContent()).toBe(
      'La imagen es demasiado grande (más de 50 megapíxeles). Redúzcala o envíela como PDF.',
    );
    await settle(patient);
    await shoot(patient, 'upload-dialog-errors-es-desktop');
    await patient.getByTestId('document-upload-done').click();
    await patient.getByTestId('document-row').filter({ hasText: 'Analítica marzo.pdf' }).waitFor();
    await patient.getByTestId('document-row').filter({ hasText: 'Radiografía tórax.png' }).waitFor();
    expect(await patient.getByTestId('document-row').count()).toBe(2);
  });

  it('the treating doctor sees both, previews the PDF and the image, and downloads the same bytes', async () => {
    doctor = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await doctor.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    const pdfRow = doctor.getByTestId('document-row').filter({ hasText: 'Analítica marzo.pdf' });
    await pdfRow.waitFor({ timeout: 20_000 });
    expect(await pdfRow.textContent()).toContain('Análisis de laboratorio');
    expect(await pdfRow.textContent()).toContain('Pablo Paciente (paciente)');
    await pdfRow.getByTestId('document-open').click();
    await expectPdfViewer(doctor);
    await shoot(doctor, 'pdf-preview-es-desktop');
    await doctor.keyboard.press('Escape');
    await doctor.getByTestId('document-viewer-pdf').waitFor({ state: 'detached' });

    const imageRow = doctor.getByTestId('document-row').filter({ hasText: 'Radiografía tórax.png' });
    await imageRow.getByTestId('document-view').click();
    const image = doctor.getByTestId('document-viewer-image');
    await image.waitFor();
    await expect
      .poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), {
        timeout: 20_000,
      })
      .toBe(480);
    expect(await image.getAttribute('alt')).toBe('Imagen del documento «Radiografía tórax.png»');
    await settle(doctor);
    await shoot(doctor, 'image-viewer-es-desktop');
    await doctor.keyboard.press('Escape');
    await image.waitFor({ state: 'detached' });

    for (const [row, bytes, name] of [
      [pdfRow, pdfBytes, 'Analítica marzo.pdf'],
      [imageRow, pngBytes, 'Radiografía tórax.png'],
    ] as const) {
      const [download] = await Promise.all([
        doctor.waitForEvent('download'),
        row.getByTestId('document-download').click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      const path = await download.path();
      expect(readFileSync(path).equals(bytes)).toBe(true);
    }

    // The file answer's own headers, as the browser got them.
    const headers = await doctor.evaluate(
      async (url) => {
        const response = await fetch(url ?? '');
        return Object.fromEntries(response.headers.entries());
      },
      await pdfRow.getByTestId('document-download').getAttribute('href'),
    );
    expect(headers['content-type']).toBe('application/pdf');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('private, no-store');
    expect(headers['content-disposition']).toMatch(
      /^attachment; filename="Anal_tica marzo\.pdf"; filename\*=UTF-8''/,
    );
    await doctor.context().close();
  });

  // Screens for people to look at: the section, the viewer and the preview, es/en, desktop/phone.
  it.for([
    ['es', 'desktop'],
    ['en', 'desktop'],
    ['es', 'phone'],
    ['en', 'phone'],
  ] as const)('the section, the viewers and the upload dialog (%s, %s)', async ([lang, viewport]) => {
    const page = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      lang,
      viewport,
    });
    await page.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    const section = page.getByTestId('chart-documents');
    await section.getByTestId('document-row').first().waitFor({ timeout: 20_000 });
    await section.scrollIntoViewIfNeeded();
    await settle(page);
    await section.screenshot({ path: join(shotDir, `section-doctor-${lang}-${viewport}.png`) });
    await section
      .getByTestId('document-row')
      .filter({ hasText: 'Radiografía' })
      .getByTestId('document-view')
      .click();
    await page.getByTestId('document-viewer-image').waitFor();
    await settle(page);
    await shoot(page, `image-viewer-${lang}-${viewport}`);
    await page.keyboard.press('Escape');
    await page.getByTestId('document-viewer-image').waitFor({ state: 'detached' });
    await section
      .getByTestId('document-row')
      .filter({ hasText: 'Analítica' })
      .getByTestId('document-open')
      .click();
    await expectPdfViewer(page);
    await shoot(page, `pdf-preview-${lang}-${viewport}`);
    await page.context().close();

    const own = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang,
      viewport,
    });
    await own.goto(`${server.baseUrl}/admin/my-record`);
    const ownSection = own.getByTestId('chart-documents');
    await ownSection.getByTestId('document-row').first().waitFor({ timeout: 20_000 });
    await ownSection.scrollIntoViewIfNeeded();
    await settle(own);
    await ownSection.screenshot({ path: join(shotDir, `section-patient-${lang}-${viewport}.png`) });
    await own.getByTestId('documents-upload').click();
    await own.getByTestId('uploader-dropzone').waitFor();
    await settle(own);
    await shoot(own, `upload-dialog-${lang}-${viewport}`);
    await own.context().close();
  });

  it('the patient removes their PDF (with confirmation); it leaves the list', async () => {
    // The patient's page has been behind other windows since the first step: bring it forward (a
    // page Chromium does not draw can wait long for its load event) and wait for the rows it means.
    await patient.bringToFront();
    await patient.reload({ waitUntil: 'domcontentloaded' });
    const ownPdf = patient.getByTestId('document-row').filter({ hasText: 'Analítica marzo.pdf' });
    await ownPdf.getByTestId('document-remove').click();
    await patient.getByTestId('document-remove-confirm').getByRole('button', { name: 'Retirar' }).click();
    await ownPdf.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await patient.getByTestId('document-row').count()).toBe(1);
    await patient.context().close();
  });
});
