/** Formats the cropper opens (specification §9). */
export type CroppableFormat = 'png' | 'jpeg' | 'bmp' | 'gif' | 'tiff' | 'webp';
/** Formats a canvas can write. */
export type OutputFormat = 'png' | 'jpeg' | 'webp';

/** Specification §9: default output quality 92 (0.92 for the canvas encoder). */
export const cropQuality = 0.92;
/** Specification §9: the crop cannot be smaller than 20 × 20 px. */
export const minCropSize = 20;

const byMimeType: Record<string, CroppableFormat> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/bmp': 'bmp',
  'image/x-bmp': 'bmp',
  'image/x-ms-bmp': 'bmp',
  'image/gif': 'gif',
  'image/tiff': 'tiff',
  'image/tif': 'tiff',
  'image/webp': 'webp',
};

const byExtension: Record<string, CroppableFormat> = {
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  bmp: 'bmp',
  gif: 'gif',
  tif: 'tiff',
  tiff: 'tiff',
  webp: 'webp',
};

/** For `<input accept>`: png, jpg, jpeg, bmp, gif, tiff (and .tif) and webp, by type and extension. */
export const croppableAccept = [...new Set(Object.keys(byMimeType))].concat(
  Object.keys(byExtension).map((extension) => `.${extension}`),
);

/** The image format of a file, by MIME type and then by extension; null when the cropper cannot open it. */
export function detectImageFormat(file: Pick<File, 'name' | 'type'>): CroppableFormat | null {
  const fromType = byMimeType[file.type.toLowerCase()];
  if (fromType) {
    return fromType;
  }
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase();
  return extension ? (byExtension[extension] ?? null) : null;
}

const mimeTypeOf: Record<OutputFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
const extensionOf: Record<OutputFormat, string> = { png: 'png', jpeg: 'jpg', webp: 'webp' };

/**
 * What a crop is saved as. Canvas encodes only png, jpeg and webp: those keep their format; bmp,
 * gif and tiff crops are saved as png — lossless, keeps transparency — and `isConverted` tells the
 * interface to say so.
 */
export function outputFormatFor(format: CroppableFormat): {
  format: OutputFormat;
  mimeType: string;
  extension: string;
  isConverted: boolean;
} {
  const output: OutputFormat = format === 'jpeg' || format === 'webp' || format === 'png' ? format : 'png';
  return {
    format: output,
    mimeType: mimeTypeOf[output],
    extension: extensionOf[output],
    isConverted: output !== format,
  };
}

/** `scan.tiff` → `scan-cropped.png`: a new name so the original is never silently replaced. */
export function croppedFileName(originalName: string, extension: string): string {
  const base = originalName.replace(/\.[^./\\]+$/, '') || 'image';
  return `${base}-cropped.${extension}`;
}

export interface CropArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Converts a crop measured on the displayed image into source pixels (the image is usually shown
 * smaller than it is), clamped to the image and never below one pixel.
 */
export function toSourcePixels(
  crop: CropArea,
  displayed: { width: number; height: number },
  natural: { width: number; height: number },
): CropArea {
  const scaleX = displayed.width > 0 ? natural.width / displayed.width : 1;
  const scaleY = displayed.height > 0 ? natural.height / displayed.height : 1;
  const x = Math.min(Math.max(0, Math.round(crop.x * scaleX)), Math.max(0, natural.width - 1));
  const y = Math.min(Math.max(0, Math.round(crop.y * scaleY)), Math.max(0, natural.height - 1));
  const width = Math.max(1, Math.min(Math.round(crop.width * scaleX), natural.width - x));
  const height = Math.max(1, Math.min(Math.round(crop.height * scaleY), natural.height - y));
  return { x, y, width, height };
}
