/**
 * Recognises the image formats the app accepts (PNG, JPEG, WebP) by their
 * content — never by a file name or a claimed Content-Type — and reads the
 * pixel size from the headers without decoding anything, so an "image bomb"
 * (a small file declaring a huge canvas) is refused before any decoder sees it.
 */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

export type SniffResult =
  | { kind: 'image'; type: ImageType; width: number; height: number }
  /** Starts like an accepted format but its header is cut or malformed. */
  | { kind: 'corrupt'; type: ImageType }
  /** Not PNG, JPEG or WebP (or not an image at all). */
  | { kind: 'unsupported' };

export const imageExtensions: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImage(bytes: Buffer): SniffResult {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(pngSignature)) {
    return sized('image/png', readPngSize(bytes));
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return sized('image/jpeg', readJpegSize(bytes));
  }
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return sized('image/webp', readWebpSize(bytes));
  }
  return { kind: 'unsupported' };
}

function sized(type: ImageType, size: { width: number; height: number } | null): SniffResult {
  if (size === null || size.width <= 0 || size.height <= 0) {
    return { kind: 'corrupt', type };
  }
  return { kind: 'image', type, ...size };
}

/** IHDR must be the first chunk: length, "IHDR", width, height (big-endian). */
function readPngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    return null;
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Walks the JPEG markers up to the first start-of-frame, which holds the size. */
function readJpegSize(bytes: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) {
      return null;
    }
    // Fill bytes: any number of 0xFF before the marker code.
    while (offset < bytes.length && bytes[offset] === 0xff) {
      offset += 1;
    }
    const marker = bytes[offset];
    offset += 1;
    if (marker === undefined) {
      return null;
    }
    // Markers without a length field.
    if ((marker >= 0xd0 && marker <= 0xd9) || marker === 0x01) {
      continue;
    }
    if (offset + 2 > bytes.length) {
      return null;
    }
    const length = bytes.readUInt16BE(offset);
    if (length < 2) {
      return null;
    }
    const isStartOfFrame =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isStartOfFrame) {
      if (offset + 7 > bytes.length) {
        return null;
      }
      return { height: bytes.readUInt16BE(offset + 3), width: bytes.readUInt16BE(offset + 5) };
    }
    offset += length;
  }
  return null;
}

/** The first chunk after the RIFF header says which WebP flavour and where the size is. */
function readWebpSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 16) {
    return null;
  }
  const chunk = bytes.toString('latin1', 12, 16);
  const needed = chunk === 'VP8L' ? 25 : 30;
  if (bytes.length < needed) {
    return null;
  }
  if (chunk === 'VP8 ') {
    // Lossy: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) {
      return null;
    }
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    // Lossless: signature 0x2f, then width-1 and height-1 as 14-bit fields.
    if (bytes[20] !== 0x2f) {
      return null;
    }
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    // Extended: canvas width-1 and height-1 as 24-bit little-endian values.
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return null;
}
