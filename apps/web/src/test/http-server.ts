import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (
  request: RecordedRequest,
  response: ServerResponse,
  raw: IncomingMessage,
) => void | Promise<void>;

/**
 * A real HTTP server on a free local port for tests that must cross the network stack (jsdom's
 * XMLHttpRequest and Node's fetch make real requests). It answers CORS preflights for the jsdom
 * page's origin, and records every request it receives.
 */
export async function startTestServer(handler: Handler) {
  const requests: RecordedRequest[] = [];
  const aborted: string[] = [];
  const server = createServer((raw, response) => {
    const origin = raw.headers.origin;
    if (origin) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Expose-Headers', 'Content-Type');
    }
    if (raw.method === 'OPTIONS') {
      response.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      response.setHeader(
        'Access-Control-Allow-Headers',
        raw.headers['access-control-request-headers'] ?? '*',
      );
      response.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('aborted', () => aborted.push(raw.url ?? ''));
    raw.on('end', () => {
      const request: RecordedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      void Promise.resolve(handler(request, response, raw)).catch((error: unknown) => {
        console.error('test server handler failed', error);
        response.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    aborted,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface MultipartField {
  value: string;
  filename?: string;
  type?: string;
}

/**
 * Parses a multipart/form-data body (RFC 7578). Written out here because the platform's parser
 * cannot run inside the jsdom environment, whose File class replaces Node's.
 */
export function parseMultipart(request: RecordedRequest): Map<string, MultipartField> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(String(request.headers['content-type']));
  if (!boundary) {
    throw new Error('Not multipart/form-data');
  }
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const fields = new Map<string, MultipartField>();
  let position = request.body.indexOf(delimiter);
  while (position !== -1) {
    const start = position + delimiter.length;
    if (request.body.subarray(start, start + 2).toString() === '--') {
      break;
    }
    const next = request.body.indexOf(delimiter, start);
    if (next === -1) {
      break;
    }
    const part = request.body.subarray(start + 2, next - 2); // skip CRLF after the delimiter and before the next
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const content = part.subarray(headerEnd + 4);
    const name = /name="([^"]*)"/i.exec(headers)?.[1] ?? '';
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1];
    fields.set(name, {
      value: content.toString('utf8'),
      ...(filename !== undefined ? { filename } : {}),
      ...(type ? { type } : {}),
    });
    position = next;
  }
  return fields;
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  contentType = 'application/json; charset=utf-8',
) {
  response.writeHead(status, { 'Content-Type': contentType }).end(JSON.stringify(body));
}
