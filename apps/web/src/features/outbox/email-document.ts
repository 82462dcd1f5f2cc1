import { sanitizeHtml } from '../../lib/sanitize-html';

/**
 * What the server puts in a stored email instead of a link's secret (`?token=[hidden]`): a
 * password-reset, verification or invitation link works only in the email the recipient got.
 */
const hiddenSecret = /[?&](?:amp;)?token=(?:\[hidden\]|%5Bhidden%5D)/i;

/**
 * The page shown inside the message viewer's sandboxed frame: the email's HTML after the shell's
 * sanitizer (no scripts, handlers, forms, frames or `javascript:` links; links open in a new tab),
 * with a small readable style of our own. The frame has no scripts and an opaque origin, so even
 * markup the sanitizer let through could not reach this page. A link whose secret the server hid
 * loses its address: it would lead nowhere.
 */
export function toEmailDocument(html: string): string {
  const body = sanitizeHtml(html).replace(/\shref="([^"]*)"/g, (attribute, href: string) =>
    hiddenSecret.test(href) ? ' data-hidden-link=""' : attribute,
  );
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:16px;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#212529;overflow-wrap:anywhere}
a{color:#0a6b7e}a[data-hidden-link]{opacity:.6;cursor:not-allowed}img{max-width:100%;height:auto}table{max-width:100%;border-collapse:collapse}
</style></head><body>${body}</body></html>`;
}

export type TextPart =
  | { kind: 'text'; text: string }
  | { kind: 'link'; href: string }
  /** A link whose secret the server hid: shown (without its query) but not clickable. */
  | { kind: 'hiddenLink'; base: string };

/**
 * Splits a plain-text email into text and http(s) links, so the links can be clicked. Other
 * schemes stay plain text; a link whose secret was hidden (`?token=[hidden]`) is not a link.
 */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/(?:[^\s<>"')[\]]|\[hidden\])+/g)) {
    const start = match.index;
    let href = match[0];
    // Sentence punctuation right after a link is not part of it.
    const trailing = /[.,;:!?]+$/.exec(href)?.[0] ?? '';
    href = href.slice(0, href.length - trailing.length);
    if (start > last) {
      parts.push({ kind: 'text', text: text.slice(last, start) });
    }
    parts.push(
      hiddenSecret.test(href)
        ? { kind: 'hiddenLink', base: href.split('?')[0] ?? href }
        : { kind: 'link', href },
    );
    last = start + href.length;
  }
  if (last < text.length) {
    parts.push({ kind: 'text', text: text.slice(last) });
  }
  return parts;
}
