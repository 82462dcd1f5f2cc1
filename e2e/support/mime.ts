/**
 * The parts of an email as the mail server received it (a `CaughtMessage.raw` from the SMTP
 * catcher): each leaf part's content type, file name and decoded bytes, so a journey reads the
 * text a person reads and the PDF they open — not the outbox's copy.
 */
export interface MimePart {
  contentType: string;
  filename: string | null;
  bytes: Buffer;
}

function header(headers: string, name: string): string | null {
  // Folded header lines continue with whitespace.
  const unfolded = headers.replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(unfolded);
  return match ? match[1]!.trim() : null;
}

function decode(body: string, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) =>
            String.fromCharCode(Number.parseInt(hex, 16)),
          ),
        'latin1',
      );
    default:
      return Buffer.from(body, 'utf8');
  }
}

/** The leaf parts of a raw MIME message (multipart bodies are walked recursively). */
export function mimeParts(raw: string): MimePart[] {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const contentType = header(headers, 'Content-Type') ?? 'text/plain';
  if (/^multipart\//i.test(contentType)) {
    const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
    if (!boundary) {
      return [];
    }
    const delimiter = `--${boundary}`;
    return body
      .split(delimiter)
      .slice(1)
      .filter((chunk) => !chunk.startsWith('--'))
      .flatMap((chunk) => mimeParts(chunk.replace(/^\r?\n/, '').replace(/\r?\n$/, '')));
  }
  const disposition = header(headers, 'Content-Disposition') ?? '';
  const filename =
    /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? /name="?([^";]+)"?/i.exec(contentType)?.[1] ?? null;
  return [
    {
      contentType: contentType.split(';')[0]!.trim().toLowerCase(),
      filename,
      bytes: decode(body, header(headers, 'Content-Transfer-Encoding') ?? '7bit'),
    },
  ];
}
