import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMultipart, sendJson, startTestServer } from '../../test/http-server';
import { parseUploadReply, sendUpload, UploadError } from './upload-request';

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

describe('sendUpload against a real HTTP server (jsdom XMLHttpRequest)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      const path = request.url.split('?')[0];
      if (path === '/upload/json') {
        const fields = parseMultipart(request);
        sendJson(response, 201, {
          method: request.method,
          fields: Object.fromEntries([...fields.entries()].map(([name, field]) => [name, field])),
          headers: {
            custom: request.headers['x-custom'] ?? null,
            xsrf: request.headers['x-xsrf-token'] ?? null,
          },
        });
      } else if (path === '/upload/json-without-type') {
        response.writeHead(200).end('{"id":7,"stored":true}');
      } else if (path === '/upload/text') {
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end('stored as 7');
      } else if (path === '/upload/too-large') {
        sendJson(response, 413, { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Too large' } });
      } else {
        response.writeHead(404).end();
      }
    });
    jsdom.reconfigure({ url: `${server.origin}/admin/components` });
  });

  afterAll(async () => {
    await server.close();
  });

  const sample = () => new File(['hola, mundo'], 'nota.txt', { type: 'text/plain' });

  it('POSTs one file as multipart under the default field name "file"', async () => {
    const reply = await sendUpload(sample(), { url: '/upload/json' }).promise;
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      method: 'POST',
      fields: { file: { value: 'hola, mundo', filename: 'nota.txt', type: 'text/plain' } },
    });
    expect(String(server.requests.at(-1)?.headers['content-type'])).toMatch(
      /^multipart\/form-data; boundary=/,
    );
  });

  it('uses the configured field name, method, extra fields and headers', async () => {
    const reply = await sendUpload(sample(), {
      url: '/upload/json',
      method: 'PUT',
      fieldName: 'document',
      fields: { patientId: '42', kind: 'lab-result' },
      headers: { 'X-Custom': 'yes' },
    }).promise;
    expect(reply.body).toMatchObject({
      method: 'PUT',
      fields: {
        document: { value: 'hola, mundo', filename: 'nota.txt' },
        patientId: { value: '42' },
        kind: { value: 'lab-result' },
      },
      headers: { custom: 'yes' },
    });
    expect(Object.keys((reply.body as { fields: object }).fields)).not.toContain('file');
  });

  it('carries the XSRF token to a relative URL', async () => {
    document.cookie = 'XSRF-TOKEN=upload-token; path=/';
    const reply = await sendUpload(sample(), { url: '/upload/json' }).promise;
    expect(reply.body).toMatchObject({ headers: { xsrf: 'upload-token' } });
  });

  it('does not carry the XSRF token to an absolute URL', async () => {
    document.cookie = 'XSRF-TOKEN=upload-token; path=/';
    const reply = await sendUpload(sample(), { url: `${server.origin}/upload/json` }).promise;
    expect(reply.body).toMatchObject({ headers: { xsrf: null } });
  });

  it('reads the reply as JSON when it parses even without a JSON content type', async () => {
    expect((await sendUpload(sample(), { url: '/upload/json-without-type' }).promise).body).toEqual({
      id: 7,
      stored: true,
    });
  });

  it('keeps a text reply as text', async () => {
    expect((await sendUpload(sample(), { url: '/upload/text' }).promise).body).toBe('stored as 7');
  });

  it('rejects with the status and the parsed error body', async () => {
    const error = await sendUpload(sample(), { url: '/upload/too-large' }).promise.catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UploadError);
    expect((error as UploadError).failure).toEqual({
      kind: 'http',
      status: 413,
      body: { error: { code: 'PAYLOAD_TOO_LARGE', message: 'Too large' } },
    });
  });

  it('reports progress up to the whole file', async () => {
    const progress: number[] = [];
    const file = new File([new Uint8Array(300_000)], 'big.bin', { type: 'application/octet-stream' });
    await sendUpload(file, { url: '/upload/json' }, ({ loaded, total }) => progress.push(loaded / total))
      .promise;
    expect(progress.at(-1)).toBe(1);
  });

  it('rejects as a network failure when nobody answers', async () => {
    const error = await sendUpload(sample(), { url: 'http://127.0.0.1:1/upload' }).promise.catch(
      (caught: unknown) => caught,
    );
    expect((error as UploadError).failure).toEqual({ kind: 'network' });
  });
});

describe('parseUploadReply', () => {
  it.each([
    ['{"a":1}', 'application/json', { a: 1 }],
    ['{"a":1}', 'application/problem+json', { a: 1 }],
    ['{"a":1}', null, { a: 1 }],
    ['[1,2]', 'text/plain', [1, 2]],
    ['42', null, 42],
    ['ok', 'text/plain', 'ok'],
    ['{broken', 'application/json', '{broken'],
    ['', 'application/json', undefined],
  ])('%s (%s) → %j', (text, type, expected) => {
    expect(parseUploadReply(text, type)).toEqual(expected);
  });
});
