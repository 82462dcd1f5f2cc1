import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../test/http-server';
import { requestBootConfig, requestClientConfig } from './config-request';
import { getPublicConfig } from './public-config';

describe('requestClientConfig against a real HTTP server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let answered = 0;
  const clinic = {
    name: 'Clínica Norte',
    logoUrl: null,
    timeZone: 'Europe/Madrid',
    language: 'es',
    uploads: { maxFileSizeMb: 2, allowedKinds: ['pdf'], maxFilesPerUpload: 2 },
    visitLengths: [20, 30],
  };

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      if (request.url !== '/api/v1/config') {
        response.writeHead(404).end();
        return;
      }
      answered += 1;
      // Slow enough for the second reader to ask while the first request is on its way.
      setTimeout(() => sendJson(response, 200, { version: String(answered), clinic }), 50);
    });
    jsdom.reconfigure({ url: `${server.origin}/` });
  });

  afterAll(async () => {
    await server.close();
  });

  it('answers readers that ask at the same time with one request, and asks again once it has answered', async () => {
    const [first, second, settings] = await Promise.all([
      requestClientConfig(),
      requestClientConfig(),
      getPublicConfig(),
    ]);
    expect(answered).toBe(1);
    expect(first).toEqual({ version: '1', clinic });
    expect(second).toBe(first);
    expect(settings.clinic?.name).toBe('Clínica Norte');
    expect(await requestClientConfig()).toEqual({ version: '2', clinic });
    expect(answered).toBe(2);
  });

  it('gives the boot answer to the next reader once, then asks the server again', async () => {
    const before = answered;
    const boot = await requestBootConfig();
    expect(answered).toBe(before + 1);
    expect(await requestClientConfig()).toBe(boot);
    expect(answered).toBe(before + 1);
    const fresh = await requestClientConfig();
    expect(answered).toBe(before + 2);
    expect(fresh).toEqual({ version: String(before + 2), clinic });
  });
});
