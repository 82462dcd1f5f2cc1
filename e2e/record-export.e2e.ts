import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openSignedIn } from './support/sign-in.js';
import { settle } from './support/settle.js';

let server: RunningServer;
let browser: BrowserHandle;
let patientId: string;
/** Screens go to screenshots/ like every journey's, or to EXPORT_SHOTS_DIR when set. */
const shotDir = process.env.EXPORT_SHOTS_DIR ?? null;
const reason = 'Solicitud escrita del paciente para llevar su historia a otra clínica';

async function shoot(page: Page, name: string): Promise<void> {
  await settle(page);
  if (shotDir === null) {
    await screenshot(page, `record-export-${name}`);
    return;
  }
  mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: join(shotDir, `${name}.png`), fullPage: false });
}

/** The names in a ZIP file's central directory (enough to see what the browser saved). */
function zipEntryNames(zip: Buffer): string[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThan(0);
  const count = zip.readUInt16LE(end + 10);
  let cursor = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let index = 0; index < count; index += 1) {
    expect(zip.readUInt32LE(cursor)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(cursor + 28);
    const skip = nameLength + zip.readUInt16LE(cursor + 30) + zip.readUInt16LE(cursor + 32);
    names.push(zip.subarray(cursor + 46, cursor + 46 + nameLength).toString('utf8'));
    cursor += 46 + skip;
  }
  return names;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  patientId = (await patient.request<{ user: { id: string } }>('GET', '/me')).body.user.id;
  // Something to print: the patient's doctor issues a prescription.
  const doctor = new ApiSession(server.baseUrl);
  await doctor.signIn('medico1@example.com');
  const issued = await doctor.request('POST', `/patients/${patientId}/prescriptions`, {
    items: [
      {
        medication: 'Amoxicilina 500 mg',
        dose: '1 cápsula',
        route: 'oral',
        frequency: 'cada 8 horas',
        duration: '7 días',
        quantity: '21',
      },
    ],
  });
  expect(issued.status).toBe(201);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('record export', () => {
  it('the patient downloads their record as a ZIP from "My record"', async () => {
    const page = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await page.goto(`${server.baseUrl}/admin/my-record`);
    const button = page.getByTestId('record-export-download');
    await button.waitFor({ timeout: 20_000 });
    expect(await button.textContent()).toBe('Descargar mi historia clínica');
    await shoot(page, 'patient-button-es-1440');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toMatch(/^historia-clinica-\d{4}-\d{2}-\d{2}\.zip$/);
    const saved = await download.path();
    const names = zipEntryNames(readFileSync(saved));
    expect(names.slice(0, 2)).toEqual(['README.txt', 'record.json']);
    expect(names.some((name) => /^prescriptions\/[0-9A-Z-]+\.pdf$/.test(name))).toBe(true);
    await page.context().close();
  });

  it('an administrator exports a patient’s record from the chart, stating why', async () => {
    const page = await openSignedIn(browser.browser, server.baseUrl, 'admin@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await page.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    await page.getByTestId('chart-export-open').click({ timeout: 20_000 });
    await page.getByTestId('record-export-confirm').click();
    await page.getByText('Explique el motivo con al menos 10 caracteres.').waitFor();
    await page.getByTestId('record-export-reason').fill(reason);
    await shoot(page, 'admin-modal-es-1440');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('record-export-confirm').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^historia-clinica-pablo-paciente-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(zipEntryNames(readFileSync(await download.path()))).toContain('record.json');
    await page.getByTestId('record-export-dialog').waitFor({ state: 'detached' });
    await page.context().close();

    // The patient is told, and the access log names the export.
    const patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await patient.goto(`${server.baseUrl}/admin/profile/record-access`);
    await patient.getByText('Exportó su historia clínica').first().waitFor({ timeout: 20_000 });
    await patient.context().close();
  });

  it('looks right in both languages on a desktop and a phone', async () => {
    for (const lang of ['es', 'en'] as const) {
      for (const viewport of ['desktop', 'phone'] as const) {
        const width = viewport === 'desktop' ? 1440 : 375;
        if (!(lang === 'es' && viewport === 'desktop')) {
          const patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
            lang,
            viewport,
          });
          await patient.goto(`${server.baseUrl}/admin/my-record`);
          await patient.getByTestId('record-export-download').waitFor({ timeout: 20_000 });
          await shoot(patient, `patient-button-${lang}-${width}`);
          await patient.context().close();
        }
        const admin = await openSignedIn(browser.browser, server.baseUrl, 'admin@example.com', {
          lang,
          viewport,
        });
        await admin.goto(`${server.baseUrl}/admin/patients/${patientId}`);
        await admin.getByTestId('chart').waitFor({ timeout: 20_000 });
        await shoot(admin, `admin-chart-${lang}-${width}`);
        await admin.getByTestId('chart-export-open').click();
        await admin.getByTestId('record-export-reason').fill(lang === 'es' ? reason : 'Court order 2026/118');
        await shoot(admin, `admin-modal-${lang}-${width}`);
        await admin.context().close();
      }
    }
  });
});
