import { base64ToFile } from '../../lib/base64-to-file';
import {
  cropQuality,
  croppedFileName,
  outputFormatFor,
  toSourcePixels,
  type CropArea,
  type CroppableFormat,
  type OutputFormat,
} from './image-formats';

export interface CroppedImage {
  file: File;
  /** Set when the original format cannot be written by a canvas and the crop was saved as another. */
  convertedFrom: CroppableFormat | null;
  outputFormat: OutputFormat;
  width: number;
  height: number;
}

/**
 * Draws the chosen area (in percent of the picture) at the image's full resolution and encodes it
 * as a File ready for the uploader (quality 0.92 for jpeg/webp).
 */
export async function cropImage(
  image: HTMLImageElement,
  percentCrop: CropArea,
  originalName: string,
  format: CroppableFormat,
  quality = cropQuality,
): Promise<CroppedImage> {
  const area = toSourcePixels(
    percentCrop,
    { width: 100, height: 100 },
    { width: image.naturalWidth, height: image.naturalHeight },
  );
  const output = outputFormatFor(format);
  const canvas = document.createElement('canvas');
  canvas.width = area.width;
  canvas.height = area.height;
  const context = canvas.getContext('2d');
  if (!context) {
    throw new Error('Canvas is not available');
  }
  if (output.format === 'jpeg') {
    // JPEG has no transparency: put the crop on white rather than black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, area.width, area.height);
  }
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, area.x, area.y, area.width, area.height, 0, 0, area.width, area.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, output.mimeType, quality));
  // A browser that cannot write the format (webp in some) silently writes png instead.
  const written = blob && blob.type !== output.mimeType ? outputFormatFor('png') : output;
  const name = croppedFileName(originalName, written.extension);
  const file = blob
    ? new File([blob], name, { type: written.mimeType })
    : base64ToFile(canvas.toDataURL(output.mimeType, quality), output.mimeType, name);
  const isConverted = written.format !== format;
  return {
    file,
    convertedFrom: isConverted ? format : null,
    outputFormat: written.format,
    width: area.width,
    height: area.height,
  };
}
