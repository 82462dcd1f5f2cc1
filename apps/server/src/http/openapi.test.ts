import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverVersion } from '../paths.js';
import { createTestContext, type TestContext } from '../test/test-context.js';

let context: TestContext;

beforeAll(async () => {
  context = await createTestContext();
});

afterAll(async () => {
  await context?.close();
});

interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
}

describe('OpenAPI', () => {
  it('documents the API routes from their schemas', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<OpenApiDocument>();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: 'Telemedicina API', version: serverVersion });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/config', '/api/v1/health', '/api/v1/auth/login', '/api/v1/me']),
    );
    // Every documented path is a registered route, and every registered API route is documented.
    const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const registered = context.app.accessRegistry
      .filter((entry) => !entry.url.startsWith('/api/v1/docs') && entry.url !== '/api/v1/openapi.json')
      .map((entry) => `${entry.method} ${entry.url.replaceAll(/:(\w+)/g, '{$1}')}`);
    expect(documented.sort()).toEqual(registered.sort());
    const health = document.paths['/api/v1/health']?.get;
    expect(Object.keys(health?.responses ?? {}).sort()).toEqual(['200', '503']);
    expect(health?.responses['200']?.content?.['application/json']?.schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['status', 'version', 'uptimeSeconds', 'database']),
    });
  });

  it('serves a reference page built from local files only', async () => {
    const page = await context.app.inject({ method: 'GET', url: '/api/v1/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(sources.length).toBeGreaterThan(2);
    expect(sources.filter((source) => /^(?:https?:)?\/\//.test(source))).toEqual([]);
    // No inline script: the page works under the global script-src 'self'.
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self';");

    for (const asset of ['swagger-ui-bundle.js', 'swagger-initializer.js', 'swagger-ui.css']) {
      const response = await context.app.inject({ method: 'GET', url: `/api/v1/docs/static/${asset}` });
      expect(response.statusCode, asset).toBe(200);
    }
    const initializer = await context.app.inject({
      method: 'GET',
      url: '/api/v1/docs/static/swagger-initializer.js',
    });
    expect(initializer.body).toContain("resolveUrl('./json')");
    const spec = await context.app.inject({ method: 'GET', url: '/api/v1/docs/json' });
    expect(spec.json<OpenApiDocument>().paths).toHaveProperty(['/api/v1/health']);
  });
});
