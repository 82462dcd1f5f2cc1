import { createServer, type Server, type Socket } from 'node:net';

/** One message as a mail server received it. */
export interface CaughtMessage {
  from: string;
  to: string[];
  /** The raw message (headers and MIME body) as sent. */
  raw: string;
  /** The raw message with quoted-printable soft breaks and escapes undone, to search links in. */
  decoded: string;
  /** When it arrived (ms since the epoch). */
  receivedAt: number;
}

/** A minimal SMTP server on loopback that keeps every message it is given (tests only). */
export interface SmtpCatcher {
  /** `smtp://127.0.0.1:<port>`, for `SMTP_URL`. */
  url: string;
  messages: CaughtMessage[];
  /** The newest message to `to` (arrived at `after` or later) whose decoded body contains `needle`, or null. */
  latest(to: string, needle?: string, after?: number): CaughtMessage | null;
  /**
   * The `token` of the newest link to `path` (e.g. `/reset-password`) delivered to `to`;
   * throws when none was delivered.
   */
  tokenFor(to: string, path: string): string;
  /**
   * Waits (up to `timeoutMs`) for a link to `path` delivered to `to` at `after` or later and
   * answers it whole (`https://…/path?token=…`), for tests of a server running as its own process.
   */
  waitForLink(to: string, path: string, options?: { after?: number; timeoutMs?: number }): Promise<string>;
  close(): Promise<void>;
}

/** Undoes quoted-printable: soft line breaks and `=XX` escapes (good enough to read links). */
export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Starts the catcher on a free loopback port. It speaks just enough SMTP for
 * nodemailer (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) and offers no TLS,
 * so mail goes over the loopback in the clear.
 */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: CaughtMessage[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 catcher.test ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\r\n'); end !== -1; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            const raw = data.join('\r\n');
            messages.push({ from, to, raw, decoded: decodeQuotedPrintable(raw), receivedAt: Date.now() });
            data = [];
            from = '';
            to = [];
            reply('250 2.0.0 queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') {
          reply('250-catcher.test');
          reply('250 8BITMIME');
        } else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else if (verb === 'RSET' || verb === 'NOOP') {
          from = verb === 'RSET' ? '' : from;
          to = verb === 'RSET' ? [] : to;
          reply('250 2.0.0 ok');
        } else {
          reply('502 5.5.2 not implemented');
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;

  const latest = (recipient: string, needle?: string, after = 0): CaughtMessage | null => {
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const message = messages[index]!;
      if (
        message.receivedAt >= after &&
        message.to.some((address) => address.toLowerCase() === recipient.toLowerCase()) &&
        (needle === undefined || message.decoded.includes(needle))
      ) {
        return message;
      }
    }
    return null;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    latest,
    tokenFor: (recipient, path) => {
      const message = latest(recipient, `${path}?token=`);
      const token = message
        ? new RegExp(`${escapeRegExp(path)}\\?token=([A-Za-z0-9_-]+)`).exec(message.decoded)?.[1]
        : undefined;
      if (token === undefined) {
        throw new Error(`no ${path} link was delivered to ${recipient}`);
      }
      return token;
    },
    waitForLink: async (recipient, path, options = {}) => {
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      const pattern = new RegExp(`https?://[^\\s"'<>]+${escapeRegExp(path)}\\?token=[A-Za-z0-9_-]+`);
      for (;;) {
        const message = latest(recipient, `${path}?token=`, options.after);
        const link = message === null ? undefined : pattern.exec(message.decoded)?.[0];
        if (link !== undefined) {
          return link;
        }
        if (Date.now() > deadline) {
          throw new Error(`no ${path} link was delivered to ${recipient}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: async () => {
      for (const socket of sockets) {
        socket.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
