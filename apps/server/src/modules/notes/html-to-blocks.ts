import { JSDOM } from 'jsdom';

/** A piece of rich text as plain text for a printed document: never HTML. */
export interface TextBlock {
  kind: 'heading' | 'paragraph' | 'item';
  text: string;
  /** Nesting of lists and quotes (0 at the top). */
  depth: number;
  /** '•' or '1.' for list items. */
  marker: string | null;
}

const { window } = new JSDOM('');
const headingTags = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
const blockTags = new Set(['P', 'PRE', 'DIV', ...headingTags]);

/** The text of an inline run: `<br>` becomes a line break, runs of spaces collapse. */
function inlineText(node: Node): string {
  let text = '';
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === window.Node.TEXT_NODE) {
      text += child.textContent ?? '';
    } else if (child.nodeName === 'BR') {
      text += '\n';
    } else if (child.nodeName === 'UL' || child.nodeName === 'OL') {
      // Nested lists are walked as blocks by the caller.
    } else {
      text += inlineText(child);
    }
  }
  return text;
}

function clean(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\r\f\v\u00a0]+/g, ' ').trim())
    .filter((line, index, lines) => line !== '' || (index > 0 && index < lines.length - 1))
    .join('\n')
    .trim();
}

/**
 * Turns the sanitized HTML of a note section into headings, paragraphs and list items of plain
 * text (entities decoded by the parser), for the visit summary PDF. Markup is read, never rendered.
 */
export function htmlToBlocks(html: string): TextBlock[] {
  const fragment = JSDOM.fragment(html);
  const blocks: TextBlock[] = [];
  let pendingInline = '';
  const flushInline = (depth: number) => {
    const text = clean(pendingInline);
    pendingInline = '';
    if (text !== '') {
      blocks.push({ kind: 'paragraph', text, depth, marker: null });
    }
  };
  const walk = (nodes: ArrayLike<Node>, depth: number) => {
    for (const node of Array.from(nodes)) {
      const name = node.nodeName;
      if (node.nodeType === window.Node.TEXT_NODE) {
        pendingInline += node.textContent ?? '';
        continue;
      }
      if (node.nodeType !== window.Node.ELEMENT_NODE) {
        continue;
      }
      if (name === 'UL' || name === 'OL') {
        flushInline(depth);
        const start = Number((node as Element).getAttribute('start') ?? '1');
        let number = Number.isFinite(start) ? start : 1;
        for (const item of Array.from(node.childNodes)) {
          if (item.nodeName !== 'LI') {
            continue;
          }
          const text = clean(inlineText(item));
          if (text !== '') {
            blocks.push({ kind: 'item', text, depth, marker: name === 'OL' ? `${number}.` : '•' });
          }
          number += 1;
          for (const nested of Array.from(item.childNodes)) {
            if (nested.nodeName === 'UL' || nested.nodeName === 'OL') {
              walk([nested], depth + 1);
            }
          }
        }
        continue;
      }
      if (name === 'BLOCKQUOTE') {
        flushInline(depth);
        walk(node.childNodes, depth + 1);
        continue;
      }
      if (name === 'HR') {
        flushInline(depth);
        continue;
      }
      if (blockTags.has(name)) {
        flushInline(depth);
        const text = clean(inlineText(node));
        if (text !== '') {
          blocks.push({ kind: headingTags.has(name) ? 'heading' : 'paragraph', text, depth, marker: null });
        }
        for (const nested of Array.from(node.childNodes)) {
          if (nested.nodeName === 'UL' || nested.nodeName === 'OL') {
            walk([nested], depth);
          }
        }
        continue;
      }
      if (name === 'BR') {
        pendingInline += '\n';
        continue;
      }
      pendingInline += inlineText(node);
    }
    flushInline(depth);
  };
  walk(fragment.childNodes, 0);
  return blocks;
}

/** The plain text of sanitized HTML (for emptiness checks). */
export function htmlHasText(html: string): boolean {
  return htmlToBlocks(html).some((block) => block.text !== '');
}
