import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

/**
 * Elements a rich-text editor (Tiptap's starter kit, underline and link)
 * produces. Everything else is removed; its text is kept.
 */
const allowedTags = [
  'p',
  'br',
  'hr',
  'strong',
  'em',
  'u',
  's',
  'h1',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'blockquote',
  'code',
  'pre',
  'a',
];

/** Attributes allowed per element; no element may carry any other (no style, class, on*, data-*). */
const allowedAttributesByTag: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'target', 'rel']),
  ol: new Set(['start']),
};

/** Link targets: web, mail and phone links, and same-site paths or fragments. Nothing else (javascript:, data:, vbscript:…). */
const allowedUrlPattern = /^(?:(?:https?|mailto|tel):|\/(?!\/)|#)/i;

const linkRel = 'noopener noreferrer nofollow';

const { window } = new JSDOM('');
const purify = createDOMPurify(window);

purify.addHook('uponSanitizeAttribute', (node, event) => {
  const allowed = allowedAttributesByTag[node.nodeName.toLowerCase()];
  if (allowed?.has(event.attrName) !== true) {
    event.keepAttr = false;
    return;
  }
  if (event.attrName === 'start' && !/^\d{1,6}$/.test(event.attrValue)) {
    event.keepAttr = false;
  }
  if (event.attrName === 'target' && event.attrValue !== '_blank') {
    event.keepAttr = false;
  }
});

purify.addHook('afterSanitizeAttributes', (node) => {
  if (!(node instanceof window.Element) || node.nodeName.toLowerCase() !== 'a') {
    return;
  }
  if (node.hasAttribute('href')) {
    // Whatever the client sent: a link never gets a handle on this window, nor passes a referrer.
    node.setAttribute('rel', linkRel);
  } else {
    node.removeAttribute('rel');
    node.removeAttribute('target');
  }
});

/**
 * Sanitizes rich text from a client before it is stored: only the
 * formatting an editor produces survives. No scripts, event handlers,
 * `javascript:` (or any non-web) URLs, iframes, forms, SVG/MathML, styles or
 * classes. Links keep http(s), mailto, tel or site-relative targets and get
 * `rel="noopener noreferrer nofollow"`.
 *
 * Runs DOMPurify over jsdom (happy-dom lets `<img onerror>` through).
 */
export function sanitizeHtml(html: string): string {
  // Removing an element keeps its children, which can leave markup the HTML
  // parser would restructure (`<p><table><p>` → a <p> inside a <p>). Sanitize
  // again until the output is a fixed point, so what is stored is exactly
  // what a browser will parse.
  let current = purifyOnce(html);
  for (let pass = 0; pass < 3; pass += 1) {
    const next = purifyOnce(current);
    if (next === current) {
      return current;
    }
    current = next;
  }
  return current;
}

function purifyOnce(html: string): string {
  return purify.sanitize(html, {
    ALLOWED_TAGS: allowedTags,
    ALLOWED_ATTR: ['href', 'target', 'rel', 'start'],
    ALLOWED_URI_REGEXP: allowedUrlPattern,
    // Not URLs: their values are checked in the attribute hook instead of against the URL pattern.
    ADD_URI_SAFE_ATTR: ['target', 'start'],
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    KEEP_CONTENT: true,
    // Their text is not content either.
    FORBID_CONTENTS: [
      'script',
      'style',
      'template',
      'noscript',
      'iframe',
      'object',
      'embed',
      'svg',
      'math',
      'title',
      'textarea',
      'select',
      'noembed',
      'noframes',
      'xmp',
      'plaintext',
    ],
  });
}
