import { sanitizeHtml } from '../../lib/sanitize-html';

/**
 * The page shown inside the message viewer's sandboxed frame: the email's HTML after the shell's
 * sanitizer (no scripts, handlers, forms, frames or `javascript:` links; links open in a new tab),
 * with a small readable style of our own. The frame has no scripts and an opaque origin, so even
 * markup the sanitizer let through could not reach this page.
 */
export function toEmailDocument(html: string): string {
  const body = sanitizeHtml(html);
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:16px;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#212529;overflow-wrap:anywhere}
a{color:#0a6b7e}img{max-width:100%;height:auto}table{max-width:100%;border-collapse:collapse}
</style></head><body>${body}</body></html>`;
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; href: string };

/**
 * Splits a plain-text email into text and http(s) links, so the links can be clicked (verification
 * and reset links are what newcomers come here for). Other schemes stay plain text.
 */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
    const start = match.index;
    let href = match[0];
    // Sentence punctuation right after a link is not part of it.
    const trailing = /[.,;:!?]+$/.exec(href)?.[0] ?? '';
    href = href.slice(0, href.length - trailing.length);
    if (start > last) {
      parts.push({ kind: 'text', text: text.slice(last, start) });
    }
    parts.push({ kind: 'link', href });
    last = start + href.length;
  }
  if (last < text.length) {
    parts.push({ kind: 'text', text: text.slice(last) });
  }
  return parts;
}
