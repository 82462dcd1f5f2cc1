import type { CroppableFormat } from './image-formats';

/**
 * An address the `<img>` can show for the file. Browsers decode png, jpeg, bmp, gif and webp
 * themselves; TIFF (which Chromium cannot show) is decoded here with utif2 — loaded only when a TIFF
 * is opened — into a canvas and shown as a PNG. Revoke the returned URL when done.
 */
export async function toDisplayableUrl(file: File, format: CroppableFormat): Promise<string> {
  if (format !== 'tiff') {
    return URL.createObjectURL(file);
  }
  const [utifModule, buffer] = await Promise.all([import('utif2'), file.arrayBuffer()]);
  // utif2 is CommonJS: the bundler hands its exports over as `default`.
  const UTIF = ('default' in utifModule ? utifModule.default : utifModule) as typeof utifModule;
  const pages = UTIF.decode(buffer);
  const page = pages[0];
  if (!page) {
    throw new Error('The TIFF file holds no image');
  }
  UTIF.decodeImage(buffer, page);
  const rgba = UTIF.toRGBA8(page);
  const canvas = document.createElement('canvas');
  canvas.width = page.width;
  canvas.height = page.height;
  const context = canvas.getContext('2d');
  if (!context || page.width <= 0 || page.height <= 0) {
    throw new Error('The TIFF image cannot be drawn');
  }
  context.putImageData(new ImageData(new Uint8ClampedArray(rgba), page.width, page.height), 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) {
    throw new Error('The TIFF image cannot be converted');
  }
  return URL.createObjectURL(blob);
}
