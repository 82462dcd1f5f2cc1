import { uploadFileKindMimeTypes, type UploadFileKind } from '@telemedicina/shared/clinic-settings';
import { sniffImage } from './image-sniff.js';

/** File extensions the stored copies get, by kind. */
export const uploadKindExtensions: Record<UploadFileKind, string> = {
  pdf: 'pdf',
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  gif: 'gif',
  heic: 'heic',
  txt: 'txt',
  docx: 'docx',
};

const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);

/**
 * Recognises a shared document by its bytes — never by its name or claimed
 * type — among the kinds an administrator can allow. Null: none of them.
 */
export function sniffDocument(bytes: Buffer): UploadFileKind | null {
  if (bytes.length >= 5 && bytes.toString('latin1', 0, 5) === '%PDF-') {
    return 'pdf';
  }
  const image = sniffImage(bytes);
  if (image.kind === 'image') {
    return image.type === 'image/png' ? 'png' : image.type === 'image/jpeg' ? 'jpeg' : 'webp';
  }
  if (image.kind === 'corrupt') {
    return null;
  }
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, 16));
  if (head.startsWith('GIF87a') || head.startsWith('GIF89a')) {
    return 'gif';
  }
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 4, 8) === 'ftyp' &&
    heicBrands.has(bytes.toString('latin1', 8, 12))
  ) {
    return 'heic';
  }
  if (isDocx(bytes)) {
    return 'docx';
  }
  if (isPlainText(bytes)) {
    return 'txt';
  }
  return null;
}

export function mimeTypeOf(kind: UploadFileKind): string {
  return uploadFileKindMimeTypes[kind];
}

/** The kind a stored MIME type (one {@link mimeTypeOf} gave) stands for; null for anything else. */
export function kindOfMimeType(contentType: string | null): UploadFileKind | null {
  const found = Object.entries(uploadFileKindMimeTypes).find(([, type]) => type === contentType);
  return found === undefined ? null : (found[0] as UploadFileKind);
}

/** A ZIP (Office Open XML) whose entries include the Word document part. */
function isDocx(bytes: Buffer): boolean {
  if (bytes.length < 30 || bytes.readUInt32LE(0) !== 0x04034b50) {
    return false;
  }
  const text = bytes.toString('latin1');
  return text.includes('[Content_Types].xml') && text.includes('word/');
}

/** UTF-8 text without NUL or other control characters than tab, line feed, carriage return and form feed. */
function isPlainText(bytes: Buffer): boolean {
  if (bytes.length === 0) {
    return false;
  }
  for (const byte of bytes) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) {
      return false;
    }
    if (byte === 0x7f) {
      return false;
    }
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * A file name from a browser is only a label: path parts, control and
 * reserved characters are dropped, and it is cut to 120 characters.
 */
export function sanitizeFileName(name: string | undefined, kind: UploadFileKind): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 120);
  return cleaned === '' ? `file.${uploadKindExtensions[kind]}` : cleaned;
}
