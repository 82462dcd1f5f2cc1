import { JSDOM } from 'jsdom';
import { sanitizeHtml } from '../../lib/sanitize-html.js';

const { document, Node } = new JSDOM('').window;

const blockTags = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'BLOCKQUOTE', 'PRE', 'UL', 'OL', 'LI', 'HR', 'DIV']);

/**
 * The plain-text rendering of a note section or addendum (stored as sanitized HTML): paragraphs
 * and headings on their own lines, list items as "- " or "1. ", links as "text (address)",
 * entities decoded, whitespace collapsed except inside <pre>. The HTML is sanitized again first,
 * so nothing a browser would run can reach the export even from an old row.
 */
export function htmlToText(html: string): { html: string; text: string } {
  const clean = sanitizeHtml(html);
  const template = document.createElement('template');
  template.innerHTML = clean;
  const lines: string[] = [];
  let current = '';
  const flush = () => {
    const line = current.replace(/[ \t]+/g, ' ').trim();
    if (line !== '') {
      lines.push(line);
    }
    current = '';
  };
  const walk = (node: globalThis.Node, inPre: boolean, listPrefix: string | null): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent ?? '';
      current += inPre ? text : text.replace(/\s+/g, ' ');
      return;
    }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) {
      return;
    }
    const element = node as Element;
    const tag = element.tagName ?? '';
    if (tag === 'BR') {
      flush();
      return;
    }
    if (tag === 'HR') {
      flush();
      lines.push('----');
      return;
    }
    const isBlock = blockTags.has(tag);
    if (isBlock) {
      flush();
    }
    if (tag === 'LI') {
      current += listPrefix ?? '- ';
    }
    let counter = Number.parseInt(element.getAttribute?.('start') ?? '1', 10) || 1;
    for (const child of Array.from(node.childNodes)) {
      let prefix = listPrefix;
      if (tag === 'OL' && (child as Element).tagName === 'LI') {
        prefix = `${counter}. `;
        counter += 1;
      } else if (tag === 'UL') {
        prefix = '- ';
      }
      walk(child, inPre || tag === 'PRE', prefix);
    }
    if (tag === 'A') {
      const href = element.getAttribute('href');
      if (href !== null && href !== '' && href !== element.textContent?.trim()) {
        current += ` (${href})`;
      }
    }
    if (tag === 'PRE') {
      lines.push(...current.split('\n').map((line) => line.trimEnd()));
      current = '';
      return;
    }
    if (isBlock) {
      flush();
    }
  };
  walk(template.content, false, null);
  flush();
  return { html: clean, text: lines.join('\n') };
}
