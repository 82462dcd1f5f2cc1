import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, type BrowserHandle } from './support/browser.js';
import { freePort, repoRoot, startServer, type RunningServer } from './support/server.js';

let server: RunningServer;
let browser: BrowserHandle;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('platform foundation', () => {
  it('answers health with a real database round trip', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/health`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      database: { kind: string; roundTripMs: number };
    };
    expect(body.status).toBe('ok');
    expect(body.database.kind).toBe('pglite');
    expect(typeof body.database.roundTripMs).toBe('number');
  });

  it('loads the app in Chromium with the root title, on deep links too; an address no page has answers 404 with the not-found page', async () => {
    const context = await newContext(browser.browser);
    const page = await context.newPage();
    for (const [path, status] of [
      ['/', 200],
      ['/admin', 200],
      ['/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10', 200],
      ['/some/deep/link', 404],
    ] as const) {
      const response = await page.goto(`${server.baseUrl}${path}`);
      expect(response?.status(), path).toBe(status);
      await expect.poll(() => page.title()).toBe('Telemedicina');
      await page.waitForFunction(
        () => (document.querySelector('#root')?.textContent ?? '').trim().length > 0,
      );
    }
    await page.getByTestId('not-found-page').waitFor();
    await context.close();
  });

  it('answers unknown API paths with JSON in the error shape, never the SPA', async () => {
    const response = await fetch(`${server.baseUrl}/api/v1/does-not-exist`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('serves the OpenAPI document and its reference page', async () => {
    const document = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/api/v1/health');
    const page = await fetch(`${server.baseUrl}/api/v1/docs/`);
    expect(page.status).toBe(200);
  });

  it('refuses a second server on the same data folder with a clear message', async () => {
    const port = await freePort();
    const second = spawn(process.execPath, [join(repoRoot, 'apps/server/dist/main.js')], {
      env: {
        ...process.env,
        PORT: String(port),
        REALTIME_PORT: '0',
        DATA_DIR: server.dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    second.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    second.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(output).toContain(server.dataDir);
    expect(output.toLowerCase()).toMatch(/lock|in use|another/);
    // The first server is untouched.
    expect((await fetch(`${server.baseUrl}/api/v1/health`)).status).toBe(200);
  });
});
