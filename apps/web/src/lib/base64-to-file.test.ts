import { describe, expect, it } from 'vitest';
import { base64ToFile } from './base64-to-file';

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary);
}

async function readBytes(file: File): Promise<number[]> {
  const buffer = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
  return [...new Uint8Array(buffer)];
}

describe('base64ToFile', () => {
  it('keeps every byte value 0..255 intact, with name and type', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    const file = base64ToFile(bytesToBase64(bytes), 'application/octet-stream', 'all-bytes.bin');
    expect(file).toBeInstanceOf(File);
    expect(file.name).toBe('all-bytes.bin');
    expect(file.type).toBe('application/octet-stream');
    expect(file.size).toBe(256);
    expect(await readBytes(file)).toEqual([...bytes]);
  });

  it.each([511, 512, 513, 1024, 1537, 5000])(
    'decodes %i bytes across 512-byte slices in order',
    async (length) => {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 7 + (index >> 8)) % 256);
      const file = base64ToFile(bytesToBase64(bytes), 'image/png', 'x.png');
      expect(file.size).toBe(length);
      expect(await readBytes(file)).toEqual([...bytes]);
    },
  );

  it('accepts a data: URL and ignores line breaks in the base64 text', async () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    const encoded = bytesToBase64(bytes);
    const file = base64ToFile(
      `data:image/png;base64,${encoded.slice(0, 4)}\n${encoded.slice(4)}`,
      'image/png',
      'sig.png',
    );
    expect(await readBytes(file)).toEqual([...bytes]);
  });

  it('makes an empty file from empty text', () => {
    expect(base64ToFile('', 'text/plain', 'empty.txt').size).toBe(0);
  });

  it('rejects text that is not base64', () => {
    expect(() => base64ToFile('@@not base64@@', 'text/plain', 'bad.txt')).toThrow();
  });
});
