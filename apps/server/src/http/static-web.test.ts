import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, parseSetCookie, type TestContext } from '../test/test-context.js';

const indexHtml =
  '<!doctype html><html><head><title>Telemedicina</title></head><body><div id="root"></div></body></html>';
const bundle = 'console.log("app");';

describe('with a web build', () => {
  let context: TestContext;

  beforeAll(async () => {
    context = await createTestContext({ config: { webDistDir: await makeDist() } });
  });

  afterAll(async () => {
    await context?.close();
  });

  it('serves index.html at / with no-cache and the XSRF cookie', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(indexHtml);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(parseSetCookie(response.headers['set-cookie']).has('XSRF-TOKEN')).toBe(true);
  });

  it.each([
    '/admin',
    '/admin/',
    '/admin/patients/42',
    '/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10',
    '/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10/note',
    '/Admin/Users?page=2',
    '/error-500',
    '/verify/ABCD-EFGH-JKMN',
    '/reset-password?token=abc',
  ])('answers the deep link %s with the app (200)', async (url) => {
    const response = await context.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(indexHtml);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    '/some/unknown/page',
    '/admin/x',
    '/admin/appointments/8d7f0c1e-5b8f-4a55-9d0e-2b8f3f5b9a10/nope',
    '/wp-login.php',
    '/favicon.ico',
  ])('answers %s, which no page of the app has, with 404 and the app (its not-found page)', async (url) => {
    const response = await context.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toBe(indexHtml);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD like GET, without a body', async () => {
    const page = await context.app.inject({ method: 'HEAD', url: '/admin/users' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe('');
    const unknown = await context.app.inject({ method: 'HEAD', url: '/admin/x' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('');
  });

  it('caches fingerprinted assets for a year, immutable, without setting cookies', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/assets/index-B4xK9zQa.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(bundle);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('sends the pre-compressed copy the browser accepts (brotli first), and the plain file otherwise', async () => {
    const brotli = await context.app.inject({
      method: 'GET',
      url: '/assets/index-B4xK9zQa.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(bundle);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gzip = await context.app.inject({
      method: 'GET',
      url: '/assets/index-B4xK9zQa.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(bundle);
    const plain = await context.app.inject({
      method: 'GET',
      url: '/assets/index-B4xK9zQa.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);
  });

  it('revalidates translations and other unhashed files', async () => {
    for (const url of ['/assets/i18n/es.json', '/favicon.svg']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-cache');
    }
    const translations = await context.app.inject({ method: 'GET', url: '/assets/i18n/es.json' });
    expect(translations.json()).toEqual({ app: { title: 'Telemedicina' } });
  });

  it.each(['/assets/index-missing.js', '/assets/', '/assets/i18n/de.json'])(
    'answers the missing asset %s with 404, not the page',
    async (url) => {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('<html');
    },
  );

  it("answers /assets (a folder without index) with the app's not-found page, never a folder listing", async () => {
    const response = await context.app.inject({ method: 'GET', url: '/assets' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe(indexHtml);
  });

  it.each(['/api/v1/nope', '/api', '/socket.io/', '/socket.io/x'])(
    'never answers %s with the page',
    async (url) => {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'ROUTE_NOT_FOUND' } });
    },
  );

  it('does not serve dot files or escape the build folder', async () => {
    for (const url of ['/.env', '/../package.json', '/%2e%2e/%2e%2e/package.json']) {
      const response = await context.app.inject({ method: 'GET', url });
      expect(response.body, url).not.toContain('SECRET');
      expect(response.body, url).not.toContain('"name"');
    }
  });
});

describe('without a web build', () => {
  let context: TestContext;

  beforeAll(async () => {
    context = await createTestContext();
  });

  afterAll(async () => {
    await context?.close();
  });

  it.each(['/', '/admin/x'])('answers GET %s with a plain message to run npm run build', async (url) => {
    const response = await context.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(503);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('npm run build');
  });

  it('still serves the API', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
  });
});

async function makeDist(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'telemedicina-dist-'));
  const dist = path.join(root, 'dist');
  await mkdir(path.join(dist, 'assets', 'i18n'), { recursive: true });
  await writeFile(path.join(root, 'package.json'), '{"name":"outside"}');
  await writeFile(path.join(dist, 'index.html'), indexHtml);
  await writeFile(path.join(dist, '.env'), 'SECRET=1');
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(path.join(dist, 'assets', 'index-B4xK9zQa.js'), bundle);
  // What the web build's pre-compression step writes beside each text file.
  await writeFile(path.join(dist, 'assets', 'index-B4xK9zQa.js.br'), brotliCompressSync(bundle));
  await writeFile(path.join(dist, 'assets', 'index-B4xK9zQa.js.gz'), gzipSync(bundle));
  await writeFile(
    path.join(dist, 'assets', 'i18n', 'es.json'),
    JSON.stringify({ app: { title: 'Telemedicina' } }),
  );
  return dist;
}
