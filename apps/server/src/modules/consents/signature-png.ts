import { crc32 } from 'node:zlib';
import { consentSignatureMaxBytes } from '@telemedicina/shared/consents';
import { invalidField } from '../../lib/app-error.js';

const pngMagic = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const maxSide = 4000;

/**
 * The bytes of a drawn signature, checked to be a real PNG before anything is stored: base64 (a
 * `data:image/png;base64,` prefix is allowed), at most {@link consentSignatureMaxBytes}, the PNG
 * signature, IHDR first with a sane size, every chunk's CRC right, and an IEND. Anything else is
 * 400 VALIDATION_FAILED on `signaturePng` with a translated message.
 */
export function decodeSignaturePng(value: string): { bytes: Buffer; width: number; height: number } {
  const data = value.replace(/^data:image\/png;base64,/, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) {
    throw invalid();
  }
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > consentSignatureMaxBytes) {
    throw invalidField('signaturePng', 'consents.signatureTooLarge', 'too_big');
  }
  if (bytes.length < 8 + 25 + 12 || !bytes.subarray(0, 8).equals(pngMagic)) {
    throw invalid();
  }
  let offset = 8;
  let width = 0;
  let height = 0;
  let sawEnd = false;
  let index = 0;
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > bytes.length) {
      throw invalid();
    }
    const body = bytes.subarray(offset + 4, offset + 8 + length);
    if (crc32(body) !== bytes.readUInt32BE(offset + 8 + length)) {
      throw invalid();
    }
    if (index === 0) {
      if (type !== 'IHDR' || length !== 13) {
        throw invalid();
      }
      width = bytes.readUInt32BE(offset + 8);
      height = bytes.readUInt32BE(offset + 12);
    }
    offset = end;
    index += 1;
    if (type === 'IEND') {
      sawEnd = true;
      break;
    }
  }
  if (!sawEnd || width < 1 || height < 1 || width > maxSide || height > maxSide) {
    throw invalid();
  }
  return { bytes, width, height };
}

function invalid() {
  return invalidField('signaturePng', 'consents.signatureNotPng', 'invalid_png');
}
