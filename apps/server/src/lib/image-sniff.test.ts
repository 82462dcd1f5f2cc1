import { describe, expect, it } from 'vitest';
import { jpegHeader, pngHeader, webpVp8Header, webpVp8lHeader, webpVp8xHeader } from '../test/images.js';
import { sniffImage } from './image-sniff.js';

describe('sniffImage', () => {
  it.each([
    ['PNG', pngHeader(320, 200), 'image/png', 320, 200],
    ['JPEG (after APP0 and a comment)', jpegHeader(1024, 768), 'image/jpeg', 1024, 768],
    ['WebP lossy', webpVp8Header(640, 480), 'image/webp', 640, 480],
    ['WebP lossless', webpVp8lHeader(4096, 1), 'image/webp', 4096, 1],
    ['WebP extended', webpVp8xHeader(5000, 3000), 'image/webp', 5000, 3000],
  ])('recognises %s and reads its size from the header', (_name, bytes, type, width, height) => {
    expect(sniffImage(bytes)).toEqual({ kind: 'image', type, width, height });
  });

  it('reads the size of a huge declared canvas without decoding it', () => {
    expect(sniffImage(pngHeader(100_000, 100_000))).toMatchObject({ width: 100_000, height: 100_000 });
  });

  it.each([
    ['text', Buffer.from('hello, this is not an image')],
    ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>')],
    ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1')],
    ['PDF', Buffer.from('%PDF-1.7\n')],
    ['empty', Buffer.alloc(0)],
    ['RIFF that is not WebP', Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt ', 'latin1')],
  ])('refuses %s as unsupported', (_name, bytes) => {
    expect(sniffImage(bytes)).toEqual({ kind: 'unsupported' });
  });

  it.each([
    ['a PNG cut inside its header', pngHeader(10, 10).subarray(0, 20), 'image/png'],
    ['a JPEG without a frame header', Buffer.from([0xff, 0xd8, 0xff, 0xd9]), 'image/jpeg'],
    [
      'a JPEG with a garbage marker length',
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0x00, 0x00]),
      'image/jpeg',
    ],
    ['a PNG declaring zero width', pngHeader(0, 10), 'image/png'],
    [
      'a WebP with an unknown chunk',
      Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00WEBPXXXX', 'latin1'), Buffer.alloc(20)]),
      'image/webp',
    ],
  ])('calls %s corrupt', (_name, bytes, type) => {
    expect(sniffImage(bytes)).toEqual({ kind: 'corrupt', type });
  });
});
