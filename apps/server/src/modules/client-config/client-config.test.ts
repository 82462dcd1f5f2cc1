import { clientConfigResponseSchema } from '@telemedicina/shared/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverVersion } from '../../paths.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

describe('GET /api/v1/config', () => {
  let withoutPort: TestContext;
  let withPort: TestContext;

  beforeAll(async () => {
    [withoutPort, withPort] = await Promise.all([
      createTestContext(),
      createTestContext({ config: { realtimePort: 0 } }),
    ]);
    await withPort.app.realtime.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await Promise.all([withoutPort?.close(), withPort?.close()]);
  });

  it('tells the client to use its own origin when there is no separate real-time port', async () => {
    const response = await withoutPort.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(response.statusCode).toBe(200);
    expect(clientConfigResponseSchema.parse(response.json())).toEqual({
      version: serverVersion,
      realtime: { port: null, path: '/socket.io' },
      languages: ['es', 'en'],
      defaultLanguage: 'en',
      clinic: {
        name: 'Telemedicina',
        logoUrl: null,
        timeZone: 'UTC',
        language: 'es',
        uploads: { maxFileSizeMb: 10, allowedKinds: ['pdf', 'png', 'jpeg', 'webp'], maxFilesPerUpload: 5 },
        visitLengths: [15, 20, 30, 45, 60],
      },
    });
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('gives the bound separate real-time port', async () => {
    const port = withPort.app.realtime.separatePort();
    expect(port).toBeGreaterThan(0);
    const response = await withPort.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(clientConfigResponseSchema.parse(response.json()).realtime).toEqual({ port, path: '/socket.io' });
  });
});
