import { inflateSync } from 'node:zlib';

/**
 * The text drawn in a pdfkit PDF, for tests: its deflated content streams inflated and the hex
 * strings of the text operators decoded (Latin-1, as pdfkit encodes the standard fonts).
 *
 * A stream's data is everything between `stream\n` and `\nendstream` (pdfkit's layout). Compressed
 * data may itself end in a carriage return, so the `\r` before `\nendstream` belongs to the data
 * unless inflating it that way fails (a writer that ends lines with CRLF).
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts: string[] = [];
  const streams = /stream\r?\n([\s\S]*?)\nendstream/g;
  for (let match = streams.exec(raw); match !== null; match = streams.exec(raw)) {
    const content = inflate(match[1]!);
    if (content === null) {
      continue; // Not a deflated content stream (fonts, images).
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) {
      parts.push(Buffer.from(hex[1]!, 'hex').toString('latin1'));
    }
  }
  return parts.join('');
}

function inflate(data: string): string | null {
  for (const candidate of data.endsWith('\r') ? [data, data.slice(0, -1)] : [data]) {
    try {
      return inflateSync(Buffer.from(candidate, 'latin1')).toString('latin1');
    } catch {
      // try the next reading
    }
  }
  return null;
}
