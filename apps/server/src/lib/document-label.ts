import type { UploadFileKind } from '@telemedicina/shared/clinic-settings';
import { sanitizeFileName, uploadKindExtensions } from './document-sniff.js';

/** Endings a label may keep for each kind (anything else is replaced by the kind's own). */
const labelExtensions: Record<UploadFileKind, readonly string[]> = {
  pdf: ['pdf'],
  png: ['png'],
  jpeg: ['jpg', 'jpeg'],
  webp: ['webp'],
  gif: ['gif'],
  heic: ['heic', 'heif'],
  txt: ['txt'],
  docx: ['docx'],
};

/** Longest label kept, in characters (before the ending). */
const maxBaseLength = 100;

/**
 * The label a document is listed and downloaded under. A browser's file name is only a hint:
 * path parts, control and reserved characters are dropped (`sanitizeFileName`), bidirectional
 * overrides and other invisible format characters too, and the ending always says what the content
 * is — a PNG named `x.exe` is listed as `x.png`, so no download is ever saved as something
 * executable. The label is never used as a storage path.
 */
export function documentLabelOf(fileName: string | undefined, kind: UploadFileKind): string {
  const cleaned = sanitizeFileName(fileName, kind)
    .replace(/[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  const dot = cleaned.lastIndexOf('.');
  const ending = dot > 0 ? cleaned.slice(dot + 1).toLowerCase() : '';
  // Something that looks like a file ending (`exe`, `html`, `ini`) is replaced; `12.05.2024` is kept.
  const isEnding = /^(?=[a-z0-9]*[a-z])[a-z0-9]{1,5}$/.test(ending);
  const base = (isEnding ? cleaned.slice(0, dot) : cleaned)
    .replace(/[.\s]+$/, '')
    .slice(0, maxBaseLength)
    .trim();
  const keptEnding = labelExtensions[kind].includes(ending) ? ending : uploadKindExtensions[kind];
  return `${base === '' ? 'document' : base}.${keptEnding}`;
}
