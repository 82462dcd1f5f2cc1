import { deflateSync, crc32 } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../app.js';
import { nextRemoteAddress, requestHeaders } from './factories.js';

export interface UploadFile {
  name: string;
  type: string;
  bytes: Buffer;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A real PNG (solid colour, RGB) of the given size, small enough for tests. */
export function solidPng(
  width: number,
  height: number,
  rgb: [number, number, number] = [30, 120, 200],
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3)]);
  for (let x = 0; x < width; x += 1) {
    row.set(rgb, 1 + x * 3);
  }
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An "image bomb": a few hundred bytes whose header declares a huge canvas (10,000 × 10,000 by
 * default) of one colour — decoding it would take 300 MB. Only the header should ever be read.
 */
export function pngBomb(width = 10_000, height = 10_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(2, 9);
  // A tiny compressed stream of zeros stands in for the pixel data; it is never inflated here.
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A minimal PDF (enough for content sniffing; not meant to render). */
export function tinyPdf(text = 'informe'): Buffer {
  return Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n`, 'latin1');
}

/** A multipart body: text fields first, then the file (the file name is sent byte for byte). */
export function multipartBody(
  fields: Record<string, string>,
  file: UploadFile | null,
): { payload: Buffer; contentType: string } {
  const boundary = `----doc${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  if (file !== null) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
        'utf8',
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** `POST /patients/:patientId/documents` as the session's user. */
export function uploadChartDocument(
  app: App,
  session: string,
  patientId: string,
  file: UploadFile | null,
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = multipartBody(fields, file);
  return app.inject({
    method: 'POST',
    url: `/api/v1/patients/${patientId}/documents`,
    headers: { ...requestHeaders(session), 'content-type': body.contentType },
    remoteAddress: nextRemoteAddress(),
    payload: body.payload,
  });
}
