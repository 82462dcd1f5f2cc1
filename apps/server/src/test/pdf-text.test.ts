import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfText } from './pdf-text.js';

/** A minimal PDF body with one deflated content stream drawing `text` as a hex string. */
function pdfWith(compressed: Buffer, lineEnd = '\n'): Buffer {
  return Buffer.concat([
    Buffer.from(
      `%PDF-1.3\n1 0 obj\n<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream${lineEnd}`,
      'latin1',
    ),
    compressed,
    Buffer.from(`${lineEnd}endstream\nendobj\n%%EOF\n`, 'latin1'),
  ]);
}

describe('pdfText (test helper)', () => {
  it('reads a content stream whose compressed data ends in a carriage return', () => {
    // Find a text whose deflated form ends in 0x0d (the case that read as "" before).
    let text = '';
    let compressed = Buffer.alloc(0);
    for (let index = 0; index < 5_000; index += 1) {
      text = `ANULADA ${'·'.repeat(index % 97)}${index}`;
      compressed = deflateSync(
        Buffer.from(`BT <${Buffer.from(text, 'latin1').toString('hex')}> Tj ET`, 'latin1'),
      );
      if (compressed.at(-1) === 0x0d) {
        break;
      }
    }
    expect(compressed.at(-1)).toBe(0x0d);
    expect(pdfText(pdfWith(compressed))).toBe(text);
  });

  it('also reads streams written with CRLF line ends', () => {
    const compressed = deflateSync(
      Buffer.from(`BT <${Buffer.from('Receta', 'latin1').toString('hex')}> Tj ET`),
    );
    expect(pdfText(pdfWith(compressed, '\r\n'))).toBe('Receta');
  });
});
