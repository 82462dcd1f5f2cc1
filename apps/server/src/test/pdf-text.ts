import { inflateSync } from 'node:zlib';

/**
 * The text drawn in a pdfkit PDF, for tests: its deflated content streams inflated and the hex
 * strings of the text operators decoded (Latin-1, as pdfkit encodes the standard fonts).
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  const streams = /stream\r?\n([\s\S]*?)\r?\nendstream/g;
  for (let match = streams.exec(raw); match !== null; match = streams.exec(raw)) {
    try {
      const content = inflateSync(Buffer.from(match[1]!, 'latin1')).toString('latin1');
      for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) {
        parts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
      }
    } catch {
      // Not a deflated content stream (fonts, images).
    }
  }
  return parts.join('');
}
