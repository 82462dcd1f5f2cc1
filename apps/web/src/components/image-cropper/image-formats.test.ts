import { describe, expect, it } from 'vitest';
import {
  croppableAccept,
  cropQuality,
  croppedFileName,
  detectImageFormat,
  minCropSize,
  outputFormatFor,
  toSourcePixels,
} from './image-formats';

describe('image formats', () => {
  it('uses the specification constants', () => {
    expect(cropQuality).toBe(0.92);
    expect(minCropSize).toBe(20);
  });

  it.each([
    ['a.png', 'image/png', 'png'],
    ['a.jpg', 'image/jpeg', 'jpeg'],
    ['a.jpeg', '', 'jpeg'],
    ['A.JPG', '', 'jpeg'],
    ['a.bmp', 'image/bmp', 'bmp'],
    ['a.bmp', '', 'bmp'],
    ['a.gif', 'image/gif', 'gif'],
    ['scan.tiff', 'image/tiff', 'tiff'],
    ['scan.tif', '', 'tiff'],
    ['a.webp', 'image/webp', 'webp'],
    ['a.svg', 'image/svg+xml', null],
    ['a.heic', 'image/heic', null],
    ['notes.pdf', 'application/pdf', null],
  ])('%s (%s) → %s', (name, type, expected) => {
    expect(detectImageFormat({ name, type })).toBe(expected);
  });

  it('offers every accepted extension to the file picker', () => {
    for (const extension of ['.png', '.jpg', '.jpeg', '.bmp', '.gif', '.tiff', '.webp']) {
      expect(croppableAccept).toContain(extension);
    }
  });

  it.each([
    ['png', 'image/png', false],
    ['jpeg', 'image/jpeg', false],
    ['webp', 'image/webp', false],
    ['bmp', 'image/png', true],
    ['gif', 'image/png', true],
    ['tiff', 'image/png', true],
  ] as const)('a %s crop is written as %s (converted: %s)', (format, mimeType, isConverted) => {
    expect(outputFormatFor(format)).toMatchObject({ mimeType, isConverted });
  });

  it('names the crop after the original with the written extension', () => {
    expect(croppedFileName('scan.final.tiff', 'png')).toBe('scan.final-cropped.png');
    expect(croppedFileName('photo', 'jpg')).toBe('photo-cropped.jpg');
    expect(croppedFileName('.png', 'png')).toBe('image-cropped.png');
  });

  it('maps a crop in percent of the picture to source pixels, clamped to the image', () => {
    expect(
      toSourcePixels(
        { x: 10, y: 20, width: 50, height: 25 },
        { width: 100, height: 100 },
        { width: 4000, height: 3000 },
      ),
    ).toEqual({ x: 400, y: 600, width: 2000, height: 750 });
    expect(
      toSourcePixels(
        { x: 90, y: 90, width: 50, height: 50 },
        { width: 100, height: 100 },
        { width: 200, height: 100 },
      ),
    ).toEqual({ x: 180, y: 90, width: 20, height: 10 });
    expect(
      toSourcePixels(
        { x: 0, y: 0, width: 0.01, height: 0.01 },
        { width: 100, height: 100 },
        { width: 50, height: 50 },
      ),
    ).toEqual({ x: 0, y: 0, width: 1, height: 1 });
  });
});
