/**
 * CSV for spreadsheets (RFC 4180, CRLF rows, UTF-8 with a BOM so Excel reads accents), shared by
 * every export. A cell that a spreadsheet would run as a formula — starting with `=`, `+`, `-`,
 * `@`, tab or carriage return — gets a leading `'` (OWASP's advice against CSV injection), since
 * exported data holds text typed by anyone (names, an email at a failed sign-in, a user agent…).
 */

export const csvByteOrderMark = '\uFEFF';

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]|^\s|\s$/;

/** One cell: defused if a spreadsheet would evaluate it, quoted when CSV needs it. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) {
    return '';
  }
  const text = String(value);
  const safe = formulaStart.test(text) ? `'${text}` : text;
  return needsQuotes.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One row, with its CRLF. */
export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
