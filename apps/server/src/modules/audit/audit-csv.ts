/**
 * CSV for spreadsheets (RFC 4180, CRLF rows, UTF-8 with a BOM so Excel reads
 * accents). A cell that a spreadsheet would run as a formula — starting with
 * `=`, `+`, `-`, `@`, tab or carriage return — gets a leading `'` (OWASP's
 * advice against CSV injection), since audit data holds text typed by anyone
 * (an email at a failed sign-in, a user agent…).
 */

export const csvByteOrderMark = '\uFEFF';

const formulaStart = /^[=+\-@\t\r]/;

/** One cell: neutralised, then quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  let text = String(value);
  if (formulaStart.test(text)) {
    text = `'${text}`;
  }
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row, with its CRLF. */
export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
