import { crc32, deflateSync } from 'node:zlib';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A valid PNG (8-bit grey) of the declared size. Pixel data is only produced
 * for small images; for large declared sizes the header alone is enough to
 * test the size guard (and is exactly what an image bomb looks like).
 */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const isSmall = width * height <= 512 * 512;
  const raw = isSmall ? Buffer.alloc((width + 1) * height, 0x80) : Buffer.alloc(0);
  if (isSmall) {
    for (let row = 0; row < height; row += 1) {
      raw[row * (width + 1)] = 0; // filter type: none
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG's markers up to its frame header (SOI, APP0/JFIF, DQT-like filler, SOF0), then EOI. */
export function jpegHeader(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00,
  ]);
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x07]), Buffer.from('hello')]);
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  sof[9] = 3;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    app0,
    comment,
    Buffer.from([0xff]),
    sof,
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** An extended WebP (VP8X) header declaring the canvas size. */
export function webpVp8xHeader(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(18);
  chunk.write('VP8X', 0, 'latin1');
  chunk.writeUInt32LE(10, 4);
  chunk.writeUIntLE(width - 1, 12, 3);
  chunk.writeUIntLE(height - 1, 15, 3);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + chunk.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, chunk]);
}

/** A lossy (VP8) WebP frame header. */
export function webpVp8Header(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(20);
  chunk.write('VP8 ', 0, 'latin1');
  chunk.writeUInt32LE(12, 4);
  chunk[8] = 0x10; // frame tag (key frame)
  chunk[11] = 0x9d;
  chunk[12] = 0x01;
  chunk[13] = 0x2a;
  chunk.writeUInt16LE(width & 0x3fff, 14);
  chunk.writeUInt16LE(height & 0x3fff, 16);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + chunk.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, chunk]);
}

/** A lossless (VP8L) WebP header. */
export function webpVp8lHeader(width: number, height: number): Buffer {
  const chunk = Buffer.alloc(16);
  chunk.write('VP8L', 0, 'latin1');
  chunk.writeUInt32LE(5, 4);
  chunk[8] = 0x2f;
  chunk.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 9);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + chunk.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, chunk]);
}
